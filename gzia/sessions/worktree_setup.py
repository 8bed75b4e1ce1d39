"""Making a new worktree work: the files ``.worktreeinclude`` names are copied into it
(:mod:`gzia.sessions.worktree_include`), then the project's setup runs in it, once.

The setup is the ``worktree_setup`` setting (a program and its arguments, from the user's
settings or the project's own ``.harness/config.toml``), else the repository's
``.gz-ia/setup`` when it is an executable regular file (a link is refused: it may point
anywhere). It runs without a shell, in the worktree, without gz-ia's credentials, for at
most ``worktree_setup_timeout`` seconds (then its whole process group is killed). What it
printed goes to the session's events. A failure or a timeout is an error: the caller
removes what it created (docs/sessions.md, "New worktrees").
"""

from __future__ import annotations

import contextlib
import os
import stat
import time
from dataclasses import dataclass
from pathlib import Path

from gzia import proc
from gzia.config import load_config
from gzia.contract import GzError, IOFailure, SafetyBlockError, TimeoutFailure
from gzia.i18n import N_, gettext
from gzia.sessions.events import append_event, new_event
from gzia.sessions.notify.settings import project_config_file
from gzia.sessions.project import Project
from gzia.sessions.record import SessionRecord, Status
from gzia.sessions.store import SessionStore
from gzia.sessions.workspace import Workspace, discard_new_workspace
from gzia.sessions.worktree_include import copy_included

SETUP_SCRIPT = ".gz-ia/setup"
OUTPUT_TAIL = 16 * 1024
"""How much of the setup's last output the event keeps (an event line is at most 64 KiB)."""
MESSAGE_LINES = 10
"""How many of its last lines the error message quotes."""
_SKIP_HINT = N_("fix the setup, or run without it: --skip-setup")


@dataclass(frozen=True)
class SetupCommand:
    argv: tuple[str, ...]
    source: str
    """``setting`` (``worktree_setup``) or ``script`` (``.gz-ia/setup``)."""
    timeout_s: float


def ready_worktree(store: SessionStore, session_id: str, worktree: Path, *,
                   skip_setup: bool) -> None:
    """Copy the included files into the new ``worktree``, then run the setup (unless
    ``skip_setup``); the setup's failure is raised (the caller cleans up)."""
    project = store.project
    report = copy_included(project, session_id, worktree)
    if report.copied or report.skipped:
        _record(store, session_id, gettext("worktree files copied: {count}",
                                           count=len(report.copied)),
                {"type": "worktree_include", **report.to_json()})
    command = setup_command(project, worktree)
    if command is None:
        return
    if skip_setup:
        _record(store, session_id, gettext("worktree setup skipped (--skip-setup)"),
                {"type": "worktree_setup", "argv": list(command.argv), "skipped": True})
        return
    run_setup(store, session_id, worktree, command)


def setup_command(project: Project, worktree: Path) -> SetupCommand | None:
    """The setup to run in ``worktree``, if the project has one."""
    config = load_config(project_file=project_config_file(project))
    timeout_s = float(config.get("worktree_setup_timeout"))
    configured = config.get("worktree_setup")
    if configured:
        return SetupCommand(tuple(configured), "setting", timeout_s)
    script = worktree / SETUP_SCRIPT
    try:
        mode = os.lstat(script).st_mode
    except OSError:
        return None
    if stat.S_ISLNK(mode):
        raise SafetyBlockError(N_("'{path}' is a symbolic link: gz-ia runs only a regular file as "
                                  "the worktree setup"),
                               path=SETUP_SCRIPT, hint_key=_SKIP_HINT,
                               details={"path": SETUP_SCRIPT})
    if not stat.S_ISREG(mode) or not mode & stat.S_IXUSR:
        return None
    return SetupCommand((str(script),), "script", timeout_s)


def run_setup(store: SessionStore, session_id: str, worktree: Path,
              command: SetupCommand) -> None:
    """Run ``command`` in ``worktree``; its output in an event; failure raised."""
    started = time.monotonic()
    try:
        done = proc.run(command.argv, cwd=worktree, timeout=command.timeout_s)
    except TimeoutFailure as exc:
        _record(store, session_id, gettext("worktree setup timed out"),
                {"type": "worktree_setup", "argv": list(command.argv), "timed_out": True},
                failed=True, started=started)
        raise _timed_out(command, worktree) from exc
    output = _tail(done.stdout + done.stderr)
    _record(store, session_id, gettext("worktree setup finished (exit code {code})",
                                       code=done.returncode),
            {"type": "worktree_setup", "argv": list(command.argv),
             "exit_code": done.returncode, "output": output},
            failed=not done.ok, started=started)
    if not done.ok:
        raise _failed(command, worktree, done.returncode, output)


def _failed(command: SetupCommand, worktree: Path, code: int, output: str) -> IOFailure:
    shown = "\n".join(output.strip().splitlines()[-MESSAGE_LINES:]) or "-"
    argv = " ".join(command.argv)
    return IOFailure(N_("the worktree setup ({command}) failed with exit code {code} in "
                        "{worktree}; the new worktree was removed. Its last output: {output}"),
                     command=argv, code=code, worktree=str(worktree), output=shown,
                     hint_key=_SKIP_HINT,
                     details={"argv": list(command.argv), "exit_code": code,
                              "worktree": str(worktree), "output": output})


def _timed_out(command: SetupCommand, worktree: Path) -> TimeoutFailure:
    argv = " ".join(command.argv)
    seconds = f"{command.timeout_s:g}"
    return TimeoutFailure(
        N_("the worktree setup ({command}) did not finish within {seconds} s and was stopped "
           "with its process group; the new worktree was removed"),
        command=argv, seconds=seconds,
        hint_key=N_("give it more time (gz-ia config set worktree_setup_timeout SECONDS), or run "
                    "without it: --skip-setup"),
        details={"argv": list(command.argv), "timeout_s": command.timeout_s,
                 "worktree": str(worktree)})


def _tail(text: str) -> str:
    return text[-OUTPUT_TAIL:]


def _record(store: SessionStore, session_id: str, action: str, metadata: dict[str, object],
            *, failed: bool | None = None, started: float | None = None) -> None:
    """An event of the set-up; the event log never decides whether it succeeds."""
    status = None if failed is None else "FAILED" if failed else "OK"
    duration = None if started is None else int((time.monotonic() - started) * 1000)
    event = new_event(session_id, action, "FINISH", status=status, agent_id="gz-ia",
                      duration_ms=duration, metadata=metadata)
    with contextlib.suppress(OSError, GzError):
        append_event(store, event)


def ready_new_session(store: SessionStore, workspace: Workspace, *, skip_setup: bool) -> None:
    """A new session's worktree made ready; if that fails, its worktree, its branch and
    its record are removed before the error is raised: nothing of the start is left."""
    if not workspace.created or workspace.worktree_dir is None:
        return
    try:
        ready_worktree(store, workspace.session_id, workspace.worktree_dir,
                       skip_setup=skip_setup)
    except BaseException:
        discard_new_workspace(store.project, workspace)
        with contextlib.suppress(OSError, GzError):
            store.delete(workspace.session_id)
        raise


def ready_resumed(store: SessionStore, workspace: Workspace, record: SessionRecord, *,
                  skip_setup: bool) -> None:
    """A resumed session's worktree made ready when it was re-created from its branch,
    or when the session is paused (a revive that was stopped half way runs it again); if
    that fails, the worktree is removed (its branch holds the work) and the record stays."""
    worktree = workspace.worktree_dir
    if worktree is None or not (workspace.created or record.status == Status.PAUSED):
        return
    try:
        ready_worktree(store, record.id, worktree, skip_setup=skip_setup)
    except BaseException:
        discard_new_workspace(store.project, workspace, keep_branch=True)
        raise
