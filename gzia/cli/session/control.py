"""``gz-ia session kill <id>`` and ``gz-ia session resume <id>`` (alias ``continue``).

:func:`register` adds them to the ``session`` group; like its other subcommands they take
``-d/--dir`` after the subcommand or before it (``gz-ia session -d DIR kill ID``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer

from gzia.cli import output
from gzia.cli.run_options import Background
from gzia.cli.session.common import Dir, SessionRef, open_store
from gzia.i18n import t

if TYPE_CHECKING:
    from gzia.sessions.kill import KillResult
    from gzia.sessions.record import SessionRecord
    from gzia.sessions.store import SessionStore
    from gzia.supervisor.killtarget import KillTarget


def register(app: typer.Typer) -> None:
    app.command("kill", help="Stop a running session (SIGTERM, grace, SIGKILL to its "
                             "process group) and record it killed.")(kill)
    app.command("resume", help="Resume a finished session in its own workspace and "
                               "conversation.")(resume)
    app.command("continue", hidden=True, help="Alias of resume.")(resume)


KillForce = Annotated[bool, typer.Option(
    "--force", "-f", help="Signal the recorded PID even when the record has no start time "
                          "and the process runs none of the agent's programs.")]


def kill(ctx: typer.Context, session: SessionRef, force: KillForce = False,
         directory: Dir = None) -> None:
    from gzia.sessions.ids import validate_session_ref

    validate_session_ref(session)
    result = stop_session(open_store(ctx, directory), session, force=force)
    record = result.record
    warn_if_process_only(record.id, result.target)
    warn_if_still_stopping(record)
    key = "run.kill_lost" if result.was_lost else "run.kill_done"
    output.emit(record.to_json(), human=lambda: output.line(t(key, id=record.id, pid=record.pid)))


def stop_session(store: SessionStore, ref: str, *, force: bool = False) -> KillResult:
    """Kill a session through its holder when it has one, else by its recorded process
    group, after the configured grace (``session kill``; the terminal UI's kill too)."""
    from gzia.cli.run_report import configured_watchdog
    from gzia.sessions.background import kill_through_holder
    from gzia.sessions.kill import kill_session

    grace_s = configured_watchdog().kill_grace_s
    record = store.load(store.resolve(ref))  # as stored: kill_session reconciles it
    return (kill_through_holder(store, record, grace_s)
            or kill_session(store, ref, grace_s, force=force))


def warn_if_still_stopping(record: SessionRecord) -> None:
    """The session was signalled but its owner has not written how it ended yet (a
    holder still in its grace, or busy): the record reads ``running`` for a moment more."""
    if record.is_running:
        output.warn("KILL_ASYNC", "run.kill_async", id=record.id, details={"id": record.id})


def warn_if_process_only(session_id: str, target: KillTarget | None) -> None:
    """A kill that could signal only the agent's process, not its group, says so and why
    (warning ``SAFETY_BLOCK``; ``details`` tell what was signalled)."""
    if target is None or target.whole_group:
        return
    why = t(f"run.kill_why_{target.reason}", pgid=target.pgid,
            recorded_pgid=target.recorded_pgid)
    output.warn("SAFETY_BLOCK", "run.kill_process_only", pid=target.pid, why=why,
                details={"id": session_id, **target.to_json()})


def resume(ctx: typer.Context, session: SessionRef, directory: Dir = None,
           background: Background = False) -> None:
    from gzia.cli.resume import resume_in_foreground
    from gzia.sessions.ids import validate_session_ref

    validate_session_ref(session)
    group_dir = ctx.obj.get("dir") if isinstance(ctx.obj, dict) else None
    resume_in_foreground(session, directory or group_dir, background=background)
