"""The TUI's calls into the services the CLI commands use, and nothing more.

Each function is what a ``gz-ia session ...`` command calls, rendered by the views the
CLI prints (:mod:`gzia.views`). The screens run
them in worker threads and show the result, or the error's message and hint as the CLI
prints them (:func:`problem_of`).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from gzia.contract import Problem, problem_from
from gzia.i18n import N_, gettext, ngettext
from gzia.views.words import status_text

if TYPE_CHECKING:
    from gzia.sessions.diff import DiffResult
    from gzia.sessions.merge import MergePreview
    from gzia.sessions.record import SessionRecord
    from gzia.sessions.store import ListResult, SessionStore
    from gzia.sessions.workspace import Workspace

PREVIEW_LINES = 200


def problem_of(exc: BaseException) -> Problem:
    """The message and hint the CLI prints for ``exc`` (its ``Error:`` line and hint)."""
    return problem_from(exc)


def list_sessions(store: SessionStore) -> ListResult:
    """The project's sessions, newest first, reconciled: ``gz-ia session list``."""
    from gzia.sessions.reconcile import list_sessions as listed

    return listed(store)


class SessionListing:
    """:func:`list_sessions`, read again only when the store changed
    (:meth:`SessionStore.listing_stamp`); otherwise the last records, the running ones
    reconciled again (a process may end without a write: it is then shown ``lost``)."""

    def __init__(self, store: SessionStore) -> None:
        self.store = store
        self._stamp: int | None = None
        self._records: list[SessionRecord] = []
        self._forced = False

    def forget(self) -> None:
        """Read every record again next time (F5: a record edited in place by hand)."""
        self._forced = True

    def records(self) -> list[SessionRecord]:
        from gzia.sessions.reconcile import reconcile

        forced, self._forced = self._forced, False
        stamp = self.store.listing_stamp()  # before reading: a write meanwhile changes it
        if forced or stamp is None or stamp != self._stamp:
            self._records = list_sessions(self.store).records
        else:
            self._records = [reconcile(self.store, record) if record.is_running else record
                             for record in self._records]
        self._stamp = stamp
        return list(self._records)


def load_session(store: SessionStore, session_id: str) -> SessionRecord:
    """One record, reconciled: ``gz-ia session show``."""
    from gzia.sessions.reconcile import get_session

    return get_session(store, session_id)


def diff_of(store: SessionStore, record: SessionRecord, *, stat: bool = False) -> DiffResult:
    """``gz-ia session diff [--stat]``."""
    from gzia.sessions.diff import session_diff

    return session_diff(store.project, record, stat=stat)


def diff_text(result: DiffResult) -> str:
    """The diff as ``session diff`` prints it, its notes for direct and empty sessions too."""
    if not result.is_isolated:
        return gettext("The session ran in direct mode and has no isolated diff.")
    return result.text.rstrip("\n") or gettext("✧ No changes recorded in the session.")


def event_lines(store: SessionStore, session_id: str) -> list[str]:
    """``gz-ia session logs``: one line per event, as the CLI prints them."""
    from gzia.sessions.events import read_events
    from gzia.views.sessions import event_line

    return [event_line(event) for event in read_events(store, session_id).events]


def output_text(record: SessionRecord, lines: int | None = PREVIEW_LINES) -> str:
    """``gz-ia session output --tail N``: the log rendered as text."""
    from gzia.sessions.output_reading import read_output
    from gzia.supervisor.render import render_text

    return render_text(read_output(record, lines))


def preview_text(store: SessionStore, record: SessionRecord) -> str:
    """The home screen's preview: the last output of a run that keeps a log, else the
    diff stat."""
    if record.log_path:
        return output_text(record).rstrip("\n") or gettext("(no output yet)")
    return diff_text(diff_of(store, record, stat=True))


def show_lines(record: SessionRecord) -> list[str]:
    """``gz-ia session show``."""
    from gzia.views.sessions import render_show

    return render_show(record)


def kill(store: SessionStore, session_id: str) -> str:
    """``gz-ia session kill``: the line it prints (and its warning while the session is
    still stopping)."""
    from gzia.sessions.stopping import stop_session

    result = stop_session(store, session_id)
    key = (N_("✧ Session '{id}' was no longer running (PID {pid} had vanished): marked lost.")
           if result.was_lost else N_("✓ Session '{id}' (PID {pid}) stopped."))
    done = gettext(key, id=result.record.id, pid=result.record.pid)
    if result.record.is_running:  # its owner has not recorded the end yet (the CLI warns)
        still = gettext("session '{id}' was signalled; its owner has not yet recorded how it "
                        "ended (the record still reads running): check with gz-ia session "
                        "wait {id}", id=result.record.id)
        return f"{done}\n{still}"
    return done


def stop(store: SessionStore, session_id: str) -> str:
    """``gz-ia session stop``: the line it prints."""
    from gzia.config import load_config
    from gzia.sessions.graceful_stop import stop_gracefully
    from gzia.views.attention import stop_line

    timeout_s = float(load_config().get("stop_timeout"))
    return stop_line(stop_gracefully(store, session_id, timeout_s), timeout_s)


def rename(store: SessionStore, session_id: str, text: str) -> str:
    """``gz-ia session rename``: the line it prints. Empty ``text`` takes the name away."""
    from gzia.sessions.naming import rename_session
    from gzia.views.sessions import renamed_line

    return renamed_line(rename_session(store, session_id, text or None))


def preview_merge(store: SessionStore, session_id: str) -> MergePreview:
    """The checks ``gz-ia session merge`` makes first; nothing changes. Like every action
    here, it reads the record from the store first, as the command does: the screen's copy
    may be older than the session's end."""
    from gzia.sessions.merge import preview_merge as previewed

    return previewed(store, load_session(store, session_id))


def merge(store: SessionStore, session_id: str) -> list[str]:
    """``gz-ia session merge``: its report."""
    from gzia.sessions.merge import merge_session
    from gzia.views.merging import render_merge

    result = merge_session(store, load_session(store, session_id))
    return render_merge(result, N_("✓ Merge completed successfully for session '{id}'."))


def delete(store: SessionStore, session_id: str, *, force: bool = False) -> str:
    """``gz-ia session delete [--force]``: the line it prints."""
    from gzia.sessions.delete import delete_session
    from gzia.views.sessions import deleted_line

    return deleted_line(delete_session(store, load_session(store, session_id), force=force))


def prune(store: SessionStore) -> list[str]:
    """``gz-ia session prune``: its report."""
    from gzia.sessions.prune import prune as pruned
    from gzia.views.sessions import render_prune

    report = pruned(store)
    return render_prune(report)


def pause(store: SessionStore, session_id: str) -> str:
    """``gz-ia session pause``: the line it prints, its next step the TUI's key (the stop's
    grace is the setting's)."""
    from gzia.config import load_config
    from gzia.sessions.pause import pause_session
    from gzia.views.pausing import TUI, paused_line

    timeout_s = float(load_config().get("stop_timeout"))
    return paused_line(pause_session(store, session_id, stop_timeout_s=timeout_s), TUI)


def revive_in_background(store: SessionStore, session_id: str,
                         preapproved_tools: tuple[str, ...]) -> tuple[str, list[str]]:
    """``gz-ia session revive -b``: the line it prints, and the warnings it would print
    as the agent starts (kept for the screen: printed, they would land on the UI)."""
    from gzia.sessions.pause import revive
    from gzia.sessions.resuming import ResumeRequest
    from gzia.sessions.run_options import RunOptions
    from gzia.views.launch import launch_warnings

    warnings: list[str] = []

    def launched(_record: SessionRecord, workspace: Workspace) -> None:
        warnings.extend(problem.message for problem in
                        launch_warnings(workspace, base_changes=False))

    options = RunOptions(background=True, preapproved_tools=preapproved_tools)
    run = revive(ResumeRequest(session_id, str(store.project.root), options), launched)
    return gettext("● Session '{id}' is running in the background (PID {pid}).",
                   id=run.record.id, pid=run.record.pid), warnings


def submit(record: SessionRecord, text: str) -> str:
    """``gz-ia session submit ID TEXT``: the text, then Enter."""
    return _send(record, text.encode("utf-8", "surrogateescape") + b"\r")


def send_keys(record: SessionRecord, keys: str) -> str:
    """``gz-ia session send-keys ID KEYS...``, the keys separated by spaces."""
    from gzia.supervisor.keys import keys_bytes

    return _send(record, keys_bytes(keys.split()))


def _send(record: SessionRecord, data: bytes) -> str:
    from gzia.sessions.background import send_input

    sent = send_input(record, data)
    return ngettext("✓ 1 byte sent to session '{id}'.", "✓ {count} bytes sent to session '{id}'.",
                    sent, id=record.id)


def attach(store: SessionStore, record: SessionRecord) -> str:
    """``gz-ia session attach`` on this terminal (the caller has given it up): Ctrl-]
    detaches. The line the CLI prints after it."""
    from gzia.sessions.background import attach_session
    from gzia.supervisor.attach import DETACHED, AttachStreams

    say(gettext("[attached to session {id}: {key} detaches]", id=record.id, key="C-]"))
    how, after = attach_session(store, record, AttachStreams(0, 1, DETACH_BYTE))
    key = (N_("[detached from session {id}: it keeps running]")
           if how == DETACHED else N_("[session {id} ended: {status}]"))
    return gettext(key, id=after.id, status=status_text(after.status))


DETACH_BYTE = 0x1D  # Ctrl-], the CLI's default --detach-key


def resume(store: SessionStore, record: SessionRecord,
           preapproved_tools: tuple[str, ...]) -> None:
    """``gz-ia session resume`` in the foreground, on this terminal (given up by the
    caller): its launch lines and, when the agent completes, its closing lines;
    ``preapproved_tools`` as the command pre-approves them (the TUI's context)."""
    from gzia.sessions.resuming import ResumeRequest
    from gzia.sessions.resuming import resume as resume_run
    from gzia.sessions.run import RunEnd
    from gzia.sessions.run_errors import run_error
    from gzia.sessions.run_options import RunOptions
    from gzia.views.launch import launch_warnings
    from gzia.views.problems import warning_line
    from gzia.views.sessions import finished_lines

    def launched(resumed: SessionRecord, workspace: Workspace) -> None:
        for problem in launch_warnings(workspace, base_changes=False):
            say(warning_line(problem))
        say(gettext("↻ Resuming session [{id}] in [{dir}]...", id=resumed.id,
                    dir=workspace.target_dir))

    options = RunOptions(preapproved_tools=preapproved_tools)
    run = resume_run(ResumeRequest(record.id, str(store.project.root), options), launched)
    if run.end is not RunEnd.COMPLETED:
        raise run_error(run)
    for line in finished_lines(run.record):
        say(line)


def say(text: str) -> None:
    """A line on the terminal the caller has given up (raw mode: ``\\r\\n``)."""
    import os
    import sys

    from gzia.views.safe_text import for_stream

    os.write(2, (for_stream(sys.stderr, text) + "\r\n").encode("utf-8", "backslashreplace"))


class AheadBehind:
    """Ahead/behind counts of session branches against their base, cached by the two
    commits: a refresh asks git again only about branches that moved."""

    def __init__(self, store: SessionStore) -> None:
        self.store = store
        self._known: dict[tuple[str, str], tuple[int, int] | None] = {}

    def counts(self, records: list[SessionRecord], budget: int = 100
               ) -> dict[str, tuple[int, int]]:
        """By session id; at most ``budget`` new git calls (the rest come next time)."""
        from gzia.sessions.git import ahead_behind

        root = self.store.project.root
        found: dict[str, tuple[int, int]] = {}
        for session_id, pair in self._pairs(records):
            if pair not in self._known and budget > 0:
                budget -= 1
                self._known[pair] = ahead_behind(root, pair[1], pair[0])
            counts = self._known.get(pair)
            if counts is not None:
                found[session_id] = counts
        return found

    def _pairs(self, records: list[SessionRecord]) -> Iterator[tuple[str, tuple[str, str]]]:
        from gzia.sessions.git import branch_tips

        tips = branch_tips(self.store.project.root)
        for record in records:
            tip = tips.get(record.branch_name or "")
            base = tips.get(record.base_branch or "") or record.base_commit
            if tip and base:
                yield record.id, (tip, base)
