"""What a holder says about itself: degradations and crashes.

A holder never ends its run for a failure of its own; it degrades and says so, in three
places: its own log ``.harness/logs/<id>.holder.log`` (opened anew for every note, the
directory created again if it was deleted, so a note is never written into a file
nobody can find), the record's ``holder_warnings`` (at most :data:`MAX_WARNINGS`, each
kind once) and the session's events.
"""

from __future__ import annotations

import contextlib
import os
import sys
import traceback
from pathlib import Path

from gzia.contract import GzError
from gzia.sessions.events import log_lifecycle_event
from gzia.sessions.record import SessionRecord, now_rfc3339
from gzia.sessions.store import SessionStore
from gzia.supervisor.degraded import HolderWarning

"""Record field (an extra): ``[{"code", "message", "at"}]``, what the holder gave up."""
MAX_WARNINGS = 16
RECORD_WAIT_S = 1.0
"""How long a note waits for the record's lock (the run's loop waits meanwhile)."""


def holder_log_path(store: SessionStore, session_id: str) -> Path:
    return store.project.logs_dir / f"{session_id}.holder.log"


class HolderNotes:
    def __init__(self, store: SessionStore, session_id: str) -> None:
        self.store = store
        self.session_id = session_id
        self._codes: set[str] = set()

    def warn(self, code: HolderWarning, message: str) -> None:
        """A degradation, noted once per ``code``; never raises."""
        if code in self._codes:
            return
        self._codes.add(code)
        self._append_log(f"{now_rfc3339()} warning {code}: {message}\n")
        try:
            self._record(code, message)
        except Exception:  # a note must not become a failure of its own
            self._append_log(traceback.format_exc())

    def _record(self, code: str, message: str) -> None:
        with contextlib.suppress(GzError, OSError):  # deleted meanwhile, or a full disk
            self.store.update(self.session_id, lambda r: _add_warning(r, code, message),
                              timeout=RECORD_WAIT_S)
        log_lifecycle_event(self.store, self.session_id, f"holder degraded: {code}",
                            "PENDING", failed=True, error=message)

    def crash(self, trace: str) -> None:
        """The traceback of an unexpected error."""
        self._append_log(f"{now_rfc3339()} crash:\n{trace}")

    def _append_log(self, text: str) -> None:
        data = text.encode("utf-8", "replace")
        path = holder_log_path(self.store, self.session_id)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            flags = os.O_WRONLY | os.O_CREAT | os.O_APPEND | os.O_NOFOLLOW | os.O_CLOEXEC
            fd = os.open(path, flags, 0o600)
        except OSError:
            with contextlib.suppress(OSError, ValueError):
                sys.stderr.write(text)  # the descriptor opened at start, wherever it is now
            return
        with contextlib.suppress(OSError):
            os.write(fd, data)
        os.close(fd)


def _add_warning(record: SessionRecord, code: str, message: str) -> None:
    warnings = list(record.holder_warnings or ())
    if len(warnings) < MAX_WARNINGS:
        warnings.append({"code": str(code), "message": message, "at": now_rfc3339()})
    record.holder_warnings = warnings
