"""Every number Orchy holds itself to: option defaults and ranges, and size bounds.

- ``--tool-timeout`` is a finite number of seconds in ``TOOL_TIMEOUT_RANGE``;
  ``--max-failures`` an integer in ``MAX_FAILURES_RANGE``. Anything else (``nan``,
  ``inf``, zero, a negative or a huge value) is ``INVALID_INPUT`` before anything starts.
- One incoming JSON-RPC message (one line) is at most ``MAX_MESSAGE_BYTES``; a longer
  line is skipped in bounded memory and answered with ``-32600`` (gzia.orchy.wire).
- A tool's result is at most ``MAX_RESULT_BYTES`` of JSON, else it is cut down and says
  so (gzia.orchy.results); an error message at most ``MAX_ERROR_CHARS`` characters.
"""

from __future__ import annotations

import math

from gzia.contract import InvalidInputError
from gzia.i18n import N_

DEFAULT_TIMEOUT = 30.0
DEFAULT_MAX_FAILURES = 5
TOOL_TIMEOUT_RANGE = (0.001, 86_400.0)
"""Seconds: a millisecond to a day."""
MAX_FAILURES_RANGE = (1, 1_000)

MAX_MESSAGE_BYTES = 1024 * 1024
MAX_RESULT_BYTES = 1024 * 1024
MAX_ERROR_CHARS = 4096


def checked_options(timeout: float, max_failures: int) -> tuple[float, int]:
    """``(timeout, max_failures)`` when both are in range, else ``INVALID_INPUT``."""
    low, high = TOOL_TIMEOUT_RANGE
    if not (isinstance(timeout, int | float) and math.isfinite(timeout)
            and low <= timeout <= high):
        raise InvalidInputError(N_("--tool-timeout must be a number of seconds from {low} to "
                                   "{high} (got {value})"),
                                value=_shown(timeout),
                                low=f"{low:g}", high=f"{high:g}",
                                details={"option": "--tool-timeout", "value": _shown(timeout),
                                         "min": low, "max": high})
    low_n, high_n = MAX_FAILURES_RANGE
    if isinstance(max_failures, bool) or not (isinstance(max_failures, int)
                                              and low_n <= max_failures <= high_n):
        raise InvalidInputError(N_("--max-failures must be a whole number from {low} to {high} "
                                   "(got {value})"),
                                value=_shown(max_failures),
                                low=low_n, high=high_n,
                                details={"option": "--max-failures",
                                         "value": _shown(max_failures),
                                         "min": low_n, "max": high_n})
    return float(timeout), max_failures


def _shown(value: object) -> str:
    """The value as the message shows it: at most 40 characters."""
    try:
        text = f"{value:g}" if isinstance(value, float) else str(value)
    except ValueError:  # an integer past Python's int-to-string limit
        return "(too large)"
    return text if len(text) <= 40 else text[:39] + "…"
