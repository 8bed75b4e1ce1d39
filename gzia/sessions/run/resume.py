"""Resuming a session: the same record, workspace and conversation, run again.

:func:`resume_session` checks the session has ended, builds the run's request from its
record (its driver, permission, command, profiles; pushes and notifications as it was
started, or as ``options`` now ask), re-creates its worktree from its branch when needed,
marks it ``running`` under this gz-ia, then runs it as a start does
(:class:`gzia.sessions.run.runner.Launch`).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from pathlib import Path

from gzia.contract import ConflictError, Permission
from gzia.credentials import without_secrets
from gzia.drivers.base import Driver
from gzia.drivers.registry import parse_permission
from gzia.i18n import N_
from gzia.sessions.agent_versions import refuse_outside_policy
from gzia.sessions.mcp_command import server_command
from gzia.sessions.naming import checked_name
from gzia.sessions.project import find_project
from gzia.sessions.reconcile import get_session
from gzia.sessions.record import SessionRecord, Status, now_rfc3339
from gzia.sessions.run.request import LaunchCallback, SessionRequest, SessionRun
from gzia.sessions.run.runner import (
    Launch,
    launch_spec,
    profile_bundle,
    run_log_path,
    stamp_owner,
)
from gzia.sessions.run_options import RunOptions
from gzia.sessions.run_settings import (
    agent_watchdog,
    background_options,
    configured_watchdog,
    push_allowed,
    sandbox_wanted,
)
from gzia.sessions.sandbox_floor import parent_floor
from gzia.sessions.sandboxing import check_sandbox
from gzia.sessions.store import SessionStore
from gzia.sessions.symlinks import refuse_symlink
from gzia.sessions.workspace import resumed_workspace
from gzia.sessions.worktree_setup import ready_resumed


def resume_session(
    directory: str | Path | None,
    ref: str,
    options: RunOptions,
    *,
    driver_for: Callable[[str], Driver],
    on_launch: LaunchCallback | None = None,
    environ: Mapping[str, str] | None = None,
) -> SessionRun:
    """Continue a finished session: same record, same workspace, same conversation.

    Pushes are allowed when ``options`` or the settings say so, or the session was started
    allowing them. The session's profiles are projected again; ``options.profiles`` adds
    more (kept in the record). ``options.name`` renames it. Notifications stay muted once
    muted (``options.notify`` false mutes them).
    """
    env = without_secrets(os.environ if environ is None else environ)
    project = find_project(directory)
    store = SessionStore(project)
    record = _not_running(get_session(store, ref))
    background = background_options(options.background)
    sandbox = sandbox_wanted(options.sandbox) or record.sandbox is not None \
        or parent_floor(store, record.id) is not None
    check_sandbox(sandbox)
    request = SessionRequest(
        directory, driver_for(record.provider), _recorded_permission(record),
        command=record.command, mode=record.mode or "chat",
        output_to_stderr=options.output_to_stderr, mcp_server=server_command(options.no_mcp),
        pty=background is not None or sandbox, background=background, sandbox=sandbox,
        allow_push=push_allowed(options.allow_push) or record.allow_push is True,
        preapproved_tools=options.preapproved_tools,
        profiles=tuple(dict.fromkeys([*(record.profiles or ()), *options.profiles])),
        notify=options.notify and record.notify is not False,
    )
    watchdog = agent_watchdog(configured_watchdog(options.timeout_s, options.no_output_timeout_s),
                              request.driver)
    bundle = profile_bundle(project, request.profiles, environ)
    workspace = resumed_workspace(project, record)
    launch_spec(request, Path(workspace.target_dir), env, record.conversation_id, resume=True)
    refuse_outside_policy(request.driver, env)
    refuse_symlink(store.log_path(record.id))  # the output is appended to it
    new_name = checked_name(options.name) if options.name is not None else None
    ready_resumed(store, workspace, record, skip_setup=options.skip_setup)
    log_path = run_log_path(request, store, record.id) or record.log_path
    record = store.update(record.id, lambda r: _mark_resumed(r, request, new_name, log_path))
    return Launch(store, request, workspace, env, watchdog, on_launch, bundle).run(
        record, resume=True)


def _not_running(record: SessionRecord) -> SessionRecord:
    """``record``, which a resume may continue: a running one is a conflict."""
    if record.is_running:
        raise ConflictError(N_("session '{id}' is already running (PID {pid})"), id=record.id,
                            pid=record.pid,
                            details={"id": record.id, "pid": record.pid}, data=record.to_json())
    return record


def _recorded_permission(record: SessionRecord) -> Permission:
    return parse_permission(record.permission_level or Permission.SUPERVISED.value)


def _mark_resumed(record: SessionRecord, request: SessionRequest,
                  name: str | None = None, log_path: str | None = None) -> None:
    record.status = Status.RUNNING
    record.log_path = log_path
    if name is not None:
        record.name = name
    if request.profiles:
        record.profiles = list(request.profiles)
    record.notify = None if request.notify else False
    record.stop_requested_at = record.paused_at = record.paused_from = None
    stamp_owner(record)
    record.started_at = now_rfc3339()
    record.pid, record.pgid, record.pid_start_time = 0, None, None
    record.finished_at = record.duration_ms = record.end_reason = record.signal = None
    record.exit_code = None
