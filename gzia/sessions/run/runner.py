"""Running a session: record, workspace, driver, supervisor, final record — in that order.

:func:`start_session` and :func:`resume_session` are the whole life of a foreground run:

1. the driver is checked first (an agent missing from PATH touches nothing);
2. the workspace is prepared (worktree or direct mode), then the ``running`` record is
   written; the launch callback sees the real workspace mode;
3. the agent runs under :func:`gzia.supervisor.run_supervised`; pid, pgid and the pid's
   start time are recorded before gz-ia starts waiting;
4. the record is finalized exactly once, under the store's lock: ``completed``/``failed``
   with the exit code, or ``killed`` with ``end_reason`` and ``signal``. A record that
   ``session kill`` marked ``killed`` meanwhile stays ``killed``.

The record names its owner (``owner_pid``, ``owner_start_time``: this gz-ia). While the
owner lives, nobody else decides the run's final status: reconcile never marks it
``lost`` (:mod:`gzia.sessions.reconcile`), even in the moment between the agent's exit
and the owner's final write.

Stop signals that reach gz-ia while it writes the final record are held until the
record is written, then decide how the run ended (:class:`RunEnd`).
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from gzia.contract import (
    ConflictError,
    GzError,
    InvalidInputError,
    Permission,
    stop_request,
    stopped_by_signal,
)
from gzia.credentials import withheld_names, without_secrets
from gzia.drivers.base import Driver, LaunchRequest, quit_signals_of
from gzia.drivers.registry import parse_permission
from gzia.i18n import N_, gettext
from gzia.sessions.agent_state import (
    AgentState,
    StateHooks,
    detector_watch,
    record_transition,
    relayed_transitions,
    state_hooks,
)
from gzia.sessions.background import start_in_background
from gzia.sessions.events import log_lifecycle_event
from gzia.sessions.ids import new_session_id
from gzia.sessions.mcp_command import server_command
from gzia.sessions.naming import checked_name
from gzia.sessions.notify import Notifier, notifier_for
from gzia.sessions.project import Project, find_project
from gzia.sessions.reconcile import get_session
from gzia.sessions.record import SessionRecord, Status, now_rfc3339
from gzia.sessions.run.finish import (
    conversation_after_exit,
    finalize_run,
    finalize_unstarted,
    record_agent,
    run_end,
)
from gzia.sessions.run.request import LaunchCallback, RunEnd, SessionRequest, SessionRun
from gzia.sessions.run_options import RunOptions
from gzia.sessions.run_settings import (
    agent_watchdog,
    background_options,
    configured_watchdog,
    direct_allowed,
    log_max_bytes,
    push_allowed,
    sandbox_wanted,
)
from gzia.sessions.sandbox_network import sandbox_services
from gzia.sessions.sandboxing import check_sandbox, relay_argv, sandboxed
from gzia.sessions.store import SessionStore
from gzia.sessions.symlinks import refuse_symlink
from gzia.sessions.workspace import (
    Workspace,
    discard_new_workspace,
    prepare_workspace,
    refuse_unasked_direct,
    workspace_of,
)
from gzia.supervisor.command import Command
from gzia.supervisor.procinfo import process_start_time
from gzia.supervisor.run import Started, output_is_logged, run_supervised
from gzia.supervisor.signals import SignalInbox, stop_signals_held
from gzia.supervisor.watchdog import Watchdog

_MSG_EVENT: dict[object, str] = {
    "resumed": N_("{mode} session resumed"),
    "started": N_("{mode} session started"),
}

if TYPE_CHECKING:
    from gzia.profiles.bundle import Bundle
    from gzia.sandbox import SandboxServices
    from gzia.sessions.idempotency import Reused


def start_session(
    request: SessionRequest,
    *,
    watchdog: Watchdog,
    on_launch: LaunchCallback | None = None,
    environ: Mapping[str, str] | None = None,
) -> SessionRun:
    env = without_secrets(os.environ if environ is None else environ)
    project = find_project(request.directory)
    refuse_unasked_direct(project, direct_allowed(request.direct))
    watchdog = agent_watchdog(watchdog, request.driver)
    store = SessionStore(project)
    _launch_spec(request, project.root, env, conversation_id=None, resume=False)  # PATH check
    check_sandbox(request.sandbox)
    if request.name is not None:
        checked_name(request.name)  # before anything is created
    bundle = _profile_bundle(project, request.profiles, environ)
    with _claimed_key(store, request) as reused:
        if reused is not None:
            return SessionRun(reused.record, RunEnd.COMPLETED, reused)
        session_id = _unused_id(store)
        workspace = prepare_workspace(project, session_id)
        try:
            record = store.create(_new_record(session_id, request, workspace, store))
        except BaseException:
            discard_new_workspace(project, workspace)
            raise
    return _Launch(store, request, workspace, env, watchdog, on_launch, bundle).run(
        record, resume=False)


@contextlib.contextmanager
def _claimed_key(store: SessionStore, request: SessionRequest) -> Iterator[Reused | None]:
    """Without a key: nothing. With one: its lock held while the caller creates the
    record, and the session already holding the key, if any (see gzia.sessions.idempotency)."""
    key = request.idempotency_key
    if key is None:
        yield None
        return
    # lazy: start-up speed (off the path of session list and --help)
    from gzia.sessions.idempotency import existing_session, key_lock, payload_of

    payload = payload_of(request.driver.id, request.command, request.prompt,
                         str(store.project.root), request.permission.value)
    with key_lock(store, key):
        yield existing_session(store, key, payload, request.labels)


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
    sandbox = sandbox_wanted(options.sandbox) or record.sandbox is not None
    check_sandbox(sandbox)
    request = SessionRequest(
        directory, driver_for(record.provider), _recorded_permission(record),
        command=record.command, mode=record.mode or "chat",
        output_to_stderr=options.output_to_stderr, mcp_server=server_command(options.no_mcp),
        pty=background is not None or sandbox, background=background, sandbox=sandbox,
        allow_push=push_allowed(options.allow_push) or record.allow_push is True,
        profiles=tuple(dict.fromkeys([*(record.profiles or ()), *options.profiles])),
        notify=options.notify and record.notify is not False,
    )
    watchdog = agent_watchdog(configured_watchdog(options.timeout_s, options.no_output_timeout_s),
                              request.driver)
    bundle = _profile_bundle(project, request.profiles, environ)
    workspace = _resumed_workspace(project, record)
    _launch_spec(request, Path(workspace.target_dir), env, record.conversation_id, resume=True)
    refuse_symlink(store.log_path(record.id))  # the output is appended to it
    new_name = checked_name(options.name) if options.name is not None else None
    log_path = _log_path(request, store, record.id) or record.log_path
    record = store.update(record.id, lambda r: _mark_resumed(r, request, new_name, log_path))
    return _Launch(store, request, workspace, env, watchdog, on_launch, bundle).run(
        record, resume=True)


def _not_running(record: SessionRecord) -> SessionRecord:
    """``record``, which a resume may continue: a running one is a conflict."""
    if record.is_running:
        raise ConflictError(N_("session '{id}' is already running (PID {pid})"), id=record.id,
                            pid=record.pid,
                            details={"id": record.id, "pid": record.pid}, data=record.to_json())
    return record


def _profile_bundle(project: Project, names: Sequence[str],
                    environ: Mapping[str, str] | None) -> Bundle | None:
    """The profiles, resolved before anything is created (an error leaves nothing behind)."""
    if not names:
        return None
    # lazy: start-up speed (off the path of session list and --help)
    from gzia.profiles.bundle import resolve_bundle
    from gzia.profiles.catalog import load_catalog, locations

    if not project.is_git:
        raise InvalidInputError(N_("profiles need an isolated session: '{dir}' is not in a git "
                                   "repository"),
                                dir=str(project.root),
                                details={"dir": str(project.root)})

    catalog = load_catalog(locations(project.root, project.base))
    full = os.environ if environ is None else environ
    return resolve_bundle(catalog, names, without_secrets(full), withheld=withheld_names(full))


def _recorded_permission(record: SessionRecord) -> Permission:
    return parse_permission(record.permission_level or Permission.SUPERVISED.value)


def _resumed_workspace(project: Project, record: SessionRecord) -> Workspace:
    if record.is_isolated:
        return prepare_workspace(project, record.id)  # re-created from its branch if needed
    return workspace_of(project, record)


def _mark_resumed(record: SessionRecord, request: SessionRequest,
                  name: str | None = None, log_path: str | None = None) -> None:
    record.status = Status.RUNNING
    record.log_path = log_path
    if name is not None:
        record.name = name
    if request.profiles:
        record.profiles = list(request.profiles)
    record.notify = None if request.notify else False
    record.stop_requested_at = None
    _stamp_owner(record)
    record.started_at = now_rfc3339()
    record.pid, record.pgid, record.pid_start_time = 0, None, None
    record.finished_at = record.duration_ms = record.end_reason = record.signal = None
    record.exit_code = None


def _stamp_owner(record: SessionRecord) -> None:
    """This gz-ia owns the run: while it lives, it alone writes the final status."""
    record.owner_pid = os.getpid()
    record.owner_start_time = process_start_time(record.owner_pid)


def _log_path(request: SessionRequest, store: SessionStore, session_id: str) -> str | None:
    """Every run keeps its output log, except one whose agent is handed the terminal
    itself (its output never passes through gz-ia)."""
    logged = request.background is not None or output_is_logged(request.pty)
    return str(store.log_path(session_id)) if logged else None


def _unused_id(store: SessionStore) -> str:
    while True:
        candidate = new_session_id()
        if not store.exists(candidate):
            return candidate


def _new_record(
    session_id: str, request: SessionRequest, workspace: Workspace, store: SessionStore
) -> SessionRecord:
    record = SessionRecord(
        id=session_id, provider=request.driver.id, status=Status.RUNNING,
        permission_level=request.permission.value, initial_prompt=request.prompt or None,
        started_at=now_rfc3339(), mode=request.mode,
        conversation_id=request.driver.new_conversation_id(),
    )
    _stamp_owner(record)
    workspace.apply_to(record)
    record.log_path = _log_path(request, store, session_id)
    if request.command is not None:
        record.command = list(request.command)
    if request.allow_push:
        record.allow_push = True
    record.labels = dict(request.labels) if request.labels else None
    record.idempotency_key = request.idempotency_key
    record.name = checked_name(request.name) if request.name is not None else None
    if request.profiles:
        record.profiles = list(request.profiles)
    if not request.notify:
        record.notify = False
    return record


def _launch_spec(
    request: SessionRequest,
    workdir: Path,
    env: Mapping[str, str],
    conversation_id: str | None,
    *,
    resume: bool,
    prompt: str | None = None,
    mcp_config: Path | None = None,
    hooks: StateHooks | None = None,
) -> Command:
    spec = request.driver.launch(LaunchRequest(
        workdir=workdir, permission=request.permission, prompt=prompt,
        conversation_id=conversation_id, resume=resume, env=env, mcp_config=mcp_config,
        command=list(request.command) if request.command is not None else None,
        state_hook=hooks.argv if hooks is not None else None,
        state_plugin=hooks.plugin if hooks is not None else None,
    ))
    return Command(tuple(spec.argv), workdir, spec.env, request.pty,
                   stdout_to_stderr=request.output_to_stderr)


@dataclass(frozen=True)
class _Launch:
    store: SessionStore
    request: SessionRequest
    workspace: Workspace
    env: Mapping[str, str]
    watchdog: Watchdog
    on_launch: LaunchCallback | None
    bundle: Bundle | None = None

    def run(self, record: SessionRecord, *, resume: bool) -> SessionRun:
        try:
            return self._run(record, resume)
        except BaseException as exc:  # the agent never started: the record must not stay running
            final = finalize_unstarted(self.store, record.id, exc)
            data = final.to_json() if final is not None else None
            if isinstance(exc, KeyboardInterrupt):  # Ctrl+C or SIGTERM: ``data`` is the record
                raise stopped_by_signal(exc, data) from exc
            if isinstance(exc, GzError) and exc.data is None:
                exc.data = data
            raise

    def _run(self, record: SessionRecord, resume: bool) -> SessionRun:
        store = self.store
        action = gettext(_MSG_EVENT['resumed' if resume else 'started'], mode=record.mode or "chat")
        log_lifecycle_event(store, record.id, action, "PENDING")
        record_transition(store, record.id, AgentState.STARTING)
        with stop_signals_held() as held:
            try:
                command, services = self._command(record, resume)
                _raise_if_stopped_before_start(held.inbox)
                if self.request.background is not None:  # the projection stays with the agent
                    return SessionRun(start_in_background(store, record, command,
                                                          self.watchdog,
                                                          self.request.background,
                                                          sandbox=services),
                                      RunEnd.COMPLETED)
                notifier = _unattended_notifier(store, record.id)
                with relayed_transitions(store, record.id,
                                         None if notifier is None else notifier.transition), \
                        sandbox_services(store, record.id, services):
                    outcome = run_supervised(
                        command, watchdog=self.watchdog, inbox=held.inbox,
                        on_started=lambda started: _record_started(store, record.id, started),
                        watch=detector_watch(store, record.id, self.request.driver),
                    )
            except BaseException:
                self._unproject(record)
                raise
            self._unproject(record)
            found = conversation_after_exit(self.request.driver, record,
                                            Path(self.workspace.target_dir), self.env)
            final = finalize_run(store, record.id, outcome, found,
                                 quit_signals_of(self.request.driver))
            if notifier is not None:
                notifier.run_ended(final, attached=False)
        return SessionRun(final, run_end(final, outcome, held.late_stop))

    def _command(self, record: SessionRecord,
                 resume: bool) -> tuple[Command, SandboxServices | None]:
        """The agent's command, and what its owner serves (a sandboxed one's)."""
        prompt = None if resume else self.request.prompt
        env, profile_servers = self._projected(record, self._agent_env(record))
        gzia = relay_argv() if self.request.sandbox else None  # gz-ia runs outside it
        command = _launch_spec(self.request, self.workspace.target_dir, env,
                               record.conversation_id, resume=resume, prompt=prompt,
                               mcp_config=self._mcp_config(record, profile_servers, gzia),
                               hooks=state_hooks(self.store, record.id, self.request.driver,
                                                 gzia))
        if record.log_path:  # always the store's: a record's own path is not followed
            command = command.with_log(self.store.log_path(record.id), log_max_bytes())
        services = None
        if self.request.sandbox:
            command, policy = sandboxed(command, self.workspace, self.request.driver,
                                        self.store, record.id)
            self.store.update(record.id, lambda r: setattr(r, "sandbox", policy.to_json()))
            services = policy.services
        if self.on_launch is not None:
            self.on_launch(record, self.workspace)
        return command, services

    def _projected(self, record: SessionRecord,
                   env: Mapping[str, str]) -> tuple[Mapping[str, str], Mapping[str, Any]]:
        """Project the profiles into the worktree; the agent's environment and the
        profiles' MCP servers."""
        if self.bundle is None:
            return env, {}
        # lazy: start-up speed (off the path of session list and --help)
        from gzia.sessions import projection

        project, driver = self.store.project, self.request.driver
        projection.unproject(project, record.id, self.workspace.target_dir)  # a left-over one
        manifest = projection.project_bundle(project, record.id, self.workspace.target_dir,
                                             driver.id, self.bundle)
        env = {**env, **self.bundle.env}  # gz-ia's own entries go on top of the profiles'
        return projection.agent_environment(project, record.id, manifest, env), \
            self.bundle.servers

    def _unproject(self, record: SessionRecord) -> None:
        if self.bundle is None:
            return
        # lazy: start-up speed (off the path of session list and --help)
        from gzia.sessions.projection import unproject

        with contextlib.suppress(OSError, GzError):  # merge and delete try again
            unproject(self.store.project, record.id, self.workspace.target_dir)

    def _mcp_config(self, record: SessionRecord, profile_servers: Mapping[str, Any],
                    gzia: list[str] | None) -> Path | None:
        """One ``mcpServers`` file: the profiles' servers and the session's own Orchy."""
        if self.request.driver.mcp_support == "none":
            return None
        # lazy: start-up speed (off the path of session list and --help)
        from gzia.sessions.mcp_wiring import session_servers, write_mcp_config

        project = self.store.project
        server = self.request.mcp_server
        servers = session_servers(project, record.id, gzia if server and gzia else server,
                                  profile_servers)
        return write_mcp_config(project, record.id, servers) if servers else None

    def _agent_env(self, record: SessionRecord) -> Mapping[str, str]:
        """The environment, with the git guardrails when the agent works in a worktree
        (and git is recent enough to honour them)."""
        # lazy: start-up speed (off the path of session list and --help)
        from gzia.sessions.guard import SessionGuard, git_too_old, guarded_environment

        if not self.workspace.is_isolated or git_too_old() is not None:
            return self.env

        guard = SessionGuard(record.id, self.workspace.target_dir, self.request.allow_push)
        return guarded_environment(self.store.project, guard, self.env)


def _unattended_notifier(store: SessionStore, session_id: str) -> Notifier | None:
    """A foreground run's notifications (its states, its end), only when no person is on
    the terminal it runs on (a person there sees both)."""
    if os.isatty(0):
        return None
    return notifier_for(store, session_id, lambda: False)


def _record_started(store: SessionStore, session_id: str, started: Started) -> None:
    store.update(session_id, lambda record: record_agent(record, started))


def _raise_if_stopped_before_start(inbox: SignalInbox) -> None:
    received = inbox.take_stop()
    if received is not None:
        raise stopped_by_signal(stop_request(received), None)
