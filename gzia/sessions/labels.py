"""Session labels: ``--label k=v`` when a session starts, ``--label k=v`` to filter a list.

A key is 1 to 63 characters of letters, digits and ``. _ - /``, starting with a letter or
digit; a value is at most 256 characters, with no control characters (it may be empty).
A session holds at most :data:`MAX_LABELS`. Keys are case-sensitive; one key given twice
is an error, not a silent "last one wins".
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

from gzia.contract import InvalidInputError
from gzia.i18n import N_

KEY = re.compile(r"[A-Za-z0-9][A-Za-z0-9._/-]{0,62}")
MAX_VALUE = 256
MAX_LABELS = 32
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")


def parse_label(text: str) -> tuple[str, str]:
    """``("k", "v")`` from ``k=v``; ``INVALID_INPUT`` (exit 2) for anything else."""
    key, sep, value = text.partition("=")
    if not sep or KEY.fullmatch(key) is None:
        raise _invalid(text,
                       N_("invalid label '{label}': expected key=value, the key 1-63 letters, "
                          "digits or . _ - /"))
    if len(value) > MAX_VALUE or _CONTROL.search(value) is not None:
        raise _invalid(text,
                       N_("invalid label '{label}': the value must be at most {limit} characters, "
                          "without control characters"),
                       limit=MAX_VALUE)
    return key, value


def parse_labels(texts: Iterable[str]) -> dict[str, str]:
    """Every ``k=v`` as one mapping, in the order given."""
    labels: dict[str, str] = {}
    for text in texts:
        key, value = parse_label(text)
        if key in labels:
            raise _invalid(text, N_("label key '{key}' given twice ('{label}')"), key=key)
        labels[key] = value
    if len(labels) > MAX_LABELS:
        raise InvalidInputError(N_("too many labels: at most {limit}"), limit=MAX_LABELS,
                                details={"option": "--label", "limit": MAX_LABELS})
    return labels


def has_labels(labels: Mapping[str, str] | None, wanted: Mapping[str, str]) -> bool:
    """Whether ``labels`` holds every ``k=v`` of ``wanted``."""
    found = labels or {}
    return all(found.get(key) == value for key, value in wanted.items())


def _invalid(text: str, message: str, /, **params: Any) -> InvalidInputError:
    return InvalidInputError(message, label=text, details={"option": "--label", "value": text},
                             **params)
