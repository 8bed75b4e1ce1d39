"""Session ids: 8 lowercase hex characters, checked before they touch any path; a
session's branch is its id under :data:`BRANCH_PREFIX`."""

from __future__ import annotations

import re

from gzia.contract import InvalidInputError
from gzia.i18n import N_

ID_LENGTH = 8
BRANCH_PREFIX = "harness/"
MIN_PREFIX = 4
_FULL_ID = re.compile(r"[0-9a-f]{8}")
_ID_OR_PREFIX = re.compile(rf"[0-9a-f]{{{MIN_PREFIX},{ID_LENGTH}}}")


def new_session_id() -> str:
    import secrets  # not on the path of read-only commands such as session list

    return secrets.token_hex(ID_LENGTH // 2)


def is_session_id(text: str) -> bool:
    return _FULL_ID.fullmatch(text) is not None


def validate_session_id(raw: str) -> str:
    """Return ``raw`` as a full session id, or raise ``INVALID_INPUT`` (exit 2)."""
    candidate = raw.strip().lower()
    if not is_session_id(candidate):
        raise _invalid(raw, N_("invalid session id '{id}': expected 8 hexadecimal characters"))
    return candidate


def validate_session_ref(raw: str) -> str:
    """A full id or a unique-prefix candidate (4 to 8 hex); the store resolves prefixes."""
    candidate = raw.strip().lower()
    if _ID_OR_PREFIX.fullmatch(candidate) is None:
        raise _invalid(raw,
                       N_("invalid session id '{id}': expected 8 hexadecimal characters, or a "
                          "unique prefix of 4 or more"))
    return candidate


SHOWN_ID_LIMIT = 40  # an id longer than any real one is cut where it is echoed


def _invalid(raw: str, key: str) -> InvalidInputError:
    if len(raw) <= SHOWN_ID_LIMIT:
        return InvalidInputError(key, id=raw, hint_key=N_("gz-ia session list"),
                                 details={"id": raw})
    shown = raw[:SHOWN_ID_LIMIT] + "…"
    return InvalidInputError(key, id=shown, hint_key=N_("gz-ia session list"),
                             details={"id": shown, "length": len(raw)})
