"""Session names: what a person calls a session (``--name``, ``session rename``).

A name is not an id: two sessions may share one, and commands that take a session still
take its id. A name is one line of at most :data:`MAX_NAME_CHARS` characters, without
control characters (it is shown in tables and terminal titles); ``--name GLOB`` filters
match it as a shell pattern (``fnmatch``, case-sensitive).
"""

from __future__ import annotations

import fnmatch

from gzia.contract import InvalidInputError
from gzia.i18n import N_
from gzia.sessions.reconcile import get_session
from gzia.sessions.record import SessionRecord
from gzia.sessions.store import SessionStore

MAX_NAME_CHARS = 80
SUBJECT_WIDTH = 72
"""git's customary width of a subject line: a long prompt is cut (with ``…``) to fit."""


def checked_name(raw: str) -> str:
    """The name, its outer blanks stripped; ``INVALID_INPUT`` when empty, too long or
    holding control characters."""
    name = raw.strip()
    if not name or len(name) > MAX_NAME_CHARS or any(
            ord(c) < 32 or 127 <= ord(c) < 160 for c in name):
        raise InvalidInputError(
            N_("invalid session name '{value}': one line of 1 to {limit} characters, without "
               "control characters"),
            value=raw, limit=MAX_NAME_CHARS, details={"name": raw, "limit": MAX_NAME_CHARS})
    return name


def rename_session(store: SessionStore, ref: str, name: str | None) -> SessionRecord:
    """Give the session ``ref`` (an id or unique prefix) the name ``name`` (checked by
    :func:`checked_name`); ``None`` takes its name away."""
    checked = checked_name(name) if name is not None else None
    record = get_session(store, ref)

    def mutate(stored: SessionRecord) -> None:
        stored.name = checked

    return store.update(record.id, mutate)


def name_matches(record: SessionRecord, patterns: frozenset[str]) -> bool:
    """Whether the record's name matches one of ``patterns`` (never, without a name)."""
    return record.name is not None and any(
        fnmatch.fnmatchcase(record.name, pattern) for pattern in patterns)


def label_of(record: SessionRecord) -> str:
    """What a person reads first: the name, else the prompt, else the command."""
    if record.name:
        return record.name
    if record.initial_prompt:
        return " ".join(record.initial_prompt.split())
    return " ".join(record.command or ())


def summary_of(record: SessionRecord) -> str:
    """The session in one line: its name, else its prompt's first line, else its command
    (empty when it has none of them): what names it in a commit subject
    (:func:`commit_subject`), its pull request's title."""
    import shlex

    if record.name and record.name.strip():
        return " ".join(record.name.split())
    if record.initial_prompt and record.initial_prompt.strip():
        return " ".join(record.initial_prompt.strip().splitlines()[0].split())
    return shlex.join(record.command) if record.command else ""


def commit_subject(record: SessionRecord, fallback: str = "session changes",
                   suffix: str = "") -> str:
    """The subject of every commit gz-ia makes for a session (the merge and squash commits,
    the commit of its uncommitted work, a pushed squash): ``harness(<id>): <what>``,
    ``<what>`` its :func:`summary_of` (``fallback`` when it has none), cut with ``…`` to
    :data:`SUBJECT_WIDTH` characters, then ``suffix``."""
    subject = f"harness({record.id}): {summary_of(record) or fallback}"
    room = SUBJECT_WIDTH - len(suffix)
    return (subject if len(subject) <= room else subject[:room - 1].rstrip() + "…") + suffix
