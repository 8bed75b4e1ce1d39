"""Reading what a session's agent wrote: its log, whole or its last lines
(``gz-ia session output``, the terminal UI's preview)."""

from __future__ import annotations

from pathlib import Path

from gzia.contract import NotFoundError
from gzia.i18n import N_
from gzia.sessions.record import SessionRecord


def read_output(record: SessionRecord, tail: int | None = None) -> bytes:
    """What ``session output`` prints of a session: its log's bytes, the last ``tail``
    lines only when given (the terminal UI's preview reads it the same way)."""
    # lazy: start-up speed (off the path of session list and --help)
    from gzia.supervisor.logfile import read_log, read_log_tail

    path = log_of(record)
    return tail_lines(read_log(path) if tail is None else read_log_tail(path, tail), tail)


def log_of(record: SessionRecord) -> Path:
    if not record.log_path:
        raise NotFoundError(N_("session '{id}' has no output log (its agent wrote straight to "
                               "the terminal)"),
                            id=record.id, details={"id": record.id})
    return Path(record.log_path)


def tail_lines(data: bytes, lines: int | None) -> bytes:
    if lines is None:
        return data
    if lines == 0:
        return b""
    parts = data.split(b"\n")
    keep = lines + 1 if parts[-1] == b"" else lines
    return b"\n".join(parts[-keep:])


def rendered_output(record: SessionRecord, tail: int | None = None) -> str:
    """:func:`read_output` as text (``session output`` without ``--raw``)."""
    # lazy: start-up speed (off the path of session list and --help)
    from gzia.supervisor.render import render_text

    return render_text(read_output(record, tail))
