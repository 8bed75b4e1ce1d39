"""Every number an option takes is checked here: durations in seconds and counts.

``Seconds`` refuses what is not a finite number (``nan``, ``inf``, ``1e999``) as well as a
negative one (and ``0`` where a duration must pass); ``Count`` refuses a whole number below
its minimum. The error is ``INVALID_INPUT`` (exit 2) naming the option and the value as
read (a number as Python prints it, ``-1.0``; anything else as typed):
``invalid --timeout nan: expected 0 or more seconds``.
"""

from __future__ import annotations

import math
from typing import Any, NoReturn

import click

from gzia.contract import InvalidInputError
from gzia.i18n import N_


def _refuse(key: str, value: Any, param: click.Parameter | None, ctx: click.Context | None,
            **params: Any) -> NoReturn:
    """The runner reports the cause: our message, after finding ``--json``."""
    option = _option_name(param)
    error = InvalidInputError(key, option=option, value=value,
                              details={"option": option, "value": str(value)}, **params)
    raise click.BadParameter(str(value), ctx, param) from error


class Seconds(click.ParamType[float]):
    """A duration in seconds: finite, at least 0 (more than 0 when ``positive``)."""

    name = "seconds"

    def __init__(self, *, positive: bool = False) -> None:
        self.positive = positive

    def convert(self, value: Any, param: click.Parameter | None,
                ctx: click.Context | None) -> float:
        seconds = _float(value)
        if seconds is None or not math.isfinite(seconds) or seconds < 0 or (
                self.positive and seconds == 0):
            key = (N_("invalid {option} {value}: expected more than 0 seconds")
                   if self.positive else N_("invalid {option} {value}: expected 0 or more seconds"))
            _refuse(key, value if seconds is None else seconds, param, ctx)
        return seconds


class Count(click.ParamType[int]):
    """A whole number of at least ``minimum``."""

    name = "integer"

    def __init__(self, minimum: int) -> None:
        self.minimum = minimum

    def convert(self, value: Any, param: click.Parameter | None,
                ctx: click.Context | None) -> int:
        try:
            count = value if isinstance(value, int) else int(str(value).strip())
        except ValueError:
            count = None
        if count is None or count < self.minimum:
            _refuse(N_("invalid {option} {value}: expected {minimum} or more"), value, param, ctx,
                    minimum=self.minimum)
        return count


def _float(value: Any) -> float | None:
    if isinstance(value, float | int) and not isinstance(value, bool):
        return float(value)
    try:
        return float(str(value).strip())
    except ValueError:
        return None


def _option_name(param: click.Parameter | None) -> str:
    if param is None:
        return "value"
    names = [name for name in getattr(param, "opts", []) if name.startswith("--")]
    return names[0] if names else str(param.name)
