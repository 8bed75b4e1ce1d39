"""Running a session: record, workspace, driver, supervisor, final record — in that order.

:func:`start_session` (and :func:`gzia.sessions.run.resume.resume_session`, through
:class:`Launch`) are the whole life of a foreground run:

1. the driver is checked first (an agent missing from PATH touches nothing);
2. the workspace is prepared (worktree or direct mode), then the ``running`` record is
   written; the launch callback sees the real workspace mode;
3. the agent runs under :func:`gzia.supervisor.run_supervised`; pid, pgid and the pid's
   start time are recorded before gz-ia starts waiting;
4. the record is finalized exactly once, under the store's lock: ``completed``/``failed``
   with the exit code, or ``killed`` with ``end_reason`` and ``signal``. A record that
   ``session kill`` marked ``killed`` meanwhile stays ``killed``; then the run's running
   sub-sessions are killed (:func:`gzia.sessions.stopping.stop_children_of_ended_run`).

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
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from gzia.contract import (
    GzError,
    InvalidInputError,
    stopped_by_signal,
)
from gzia.credentials import withheld_names, without_secrets
from gzia.drivers.base import LaunchRequest, quit_signals_of
from gzia.i18n import N_, gettext
from gzia.sessions.agent_state import AgentState, record_transition, relayed_transitions
from gzia.sessions.agent_versions import refuse_outside_policy, with_updates_off
from gzia.sessions.background import start_in_background
from gzia.sessions.base_ref import choose_base
from gzia.sessions.events import log_lifecycle_event
from gzia.sessions.ids import new_session_id
from gzia.sessions.mcp_wiring import agent_mcp_config, preapproved, wires_orchy
from gzia.sessions.merge import merge_base_into
from gzia.sessions.naming import checked_name
from gzia.sessions.notify import Notifier, notifier_for
from gzia.sessions.project import Project, find_project
from gzia.sessions.record import SessionRecord, Status, now_rfc3339
from gzia.sessions.run.finish import (
    conversation_after_exit,
    finalize_run,
    finalize_unstarted,
    record_agent,
    run_end,
)
from gzia.sessions.run.request import LaunchCallback, RunEnd, SessionRequest, SessionRun
from gzia.sessions.run_settings import (
    agent_watchdog,
    direct_allowed,
    log_max_bytes,
)
from gzia.sessions.sandbox_network import sandbox_services
from gzia.sessions.sandboxing import check_sandbox, relay_argv, sandboxed
from gzia.sessions.state_sources import StateHooks, detector_watch, state_hooks
from gzia.sessions.stopping import stop_children_of_ended_run
from gzia.sessions.store import SessionStore
from gzia.sessions.warm_orchy import relay_socket, warm_orchy
from gzia.sessions.workspace import (
    Workspace,
    discard_new_workspace,
    prepare_workspace,
    refuse_unasked_direct,
)
from gzia.sessions.worktree_setup import ready_new_session
from gzia.supervisor.command import Command
from gzia.supervisor.procinfo import process_start_time
from gzia.supervisor.run import Started, output_is_logged, run_supervised
from gzia.supervisor.signals import stop_signals_held
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
    if request.base_dir is not None:
        project = replace(project, base_root=request.base_dir)
    refuse_unasked_direct(project, direct_allowed(request.direct))
    watchdog = agent_watchdog(watchdog, request.driver)
    store = SessionStore(project)
    launch_spec(request, project.root, env, conversation_id=None, resume=False)  # PATH check
    refuse_outside_policy(request.driver, env)
    check_sandbox(request.sandbox)
    if request.name is not None:
        checked_name(request.name)  # before anything is created
    bundle = profile_bundle(project, request.profiles, environ)
    base = (request.conflict.start_point if request.conflict is not None
            else choose_base(project, request.base, request.fetch))
    with _claimed_key(store, request) as reused:
        if reused is not None:
            return SessionRun(reused.record, RunEnd.COMPLETED, reused)
        session_id = _unused_id(store)
        workspace = prepare_workspace(project, session_id, base)
        try:
            if request.conflict is not None:
                merge_base_into(workspace.target_dir, request.conflict)
            record = store.create(_new_record(session_id, request, workspace, store))
        except BaseException:
            discard_new_workspace(project, workspace)
            raise
        ready_new_session(store, workspace, skip_setup=request.skip_setup)
    return Launch(store, request, workspace, env, watchdog, on_launch, bundle).run(
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


def profile_bundle(project: Project, names: Sequence[str],
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


def stamp_owner(record: SessionRecord) -> None:
    """This gz-ia owns the run: while it lives, it alone writes the final status."""
    record.owner_pid = os.getpid()
    record.owner_start_time = process_start_time(record.owner_pid)


def run_log_path(request: SessionRequest, store: SessionStore, session_id: str) -> str | None:
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
    stamp_owner(record)
    workspace.apply_to(record)
    record.log_path = run_log_path(request, store, session_id)
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
    record.parent_id = request.parent_id
    return record


def launch_spec(
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
        conversation_id=conversation_id, resume=resume, env=with_updates_off(request.driver, env),
        mcp_config=mcp_config,
        command=list(request.command) if request.command is not None else None,
        state_hook=hooks.argv if hooks is not None else None,
        state_plugin=hooks.plugin if hooks is not None else None,
        preapproved_tools=preapproved(request.driver, request.mcp_server,
                                      request.preapproved_tools) if mcp_config else {},
    ))
    return Command(tuple(spec.argv), workdir, spec.env, request.pty,
                   stdout_to_stderr=request.output_to_stderr)


@dataclass(frozen=True)
class Launch:
    """One run of a record already marked ``running`` (a start or a resume): its agent
    launched in its workspace, then its end recorded."""

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
                # a sandboxed agent reaches gz-ia through its sandbox's relay, not the warm one
                warm = relay_socket(record.id) if wires_orchy(
                    self.request.driver, self.request.mcp_server) \
                    and not self.request.sandbox else None
                command, services = self._command(record, resume, warm)
                held.inbox.raise_if_stopped()
                if self.request.background is not None:  # the projection stays with the agent
                    return SessionRun(start_in_background(store, record, command,
                                                          self.watchdog,
                                                          self.request.background,
                                                          orchy=warm, sandbox=services),
                                      RunEnd.COMPLETED)
                notifier = _unattended_notifier(store, record.id)
                with relayed_transitions(store, record.id,
                                         None if notifier is None else notifier.transition), \
                        warm_orchy(store, record.id, warm, command.cwd, command.env,
                                   inbox=held.inbox), \
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
            stop_children_of_ended_run(store, final)
        if outcome.output_error is not None:  # the run is recorded; its output was not written
            raise outcome.output_error
        return SessionRun(final, run_end(final, outcome, held.late_stop))

    def _command(self, record: SessionRecord, resume: bool,
                 warm_socket: Path | None) -> tuple[Command, SandboxServices | None]:
        """The agent's command, and what its owner serves (a sandboxed one's)."""
        prompt = None if resume else self.request.prompt
        env, profile_servers = self._projected(record, self._agent_env(record))
        gzia = relay_argv() if self.request.sandbox else None  # gz-ia runs outside it
        server = self.request.mcp_server
        command = launch_spec(self.request, self.workspace.target_dir, env,
                              record.conversation_id, resume=resume, prompt=prompt,
                              mcp_config=agent_mcp_config(
                                  self.store, record.id, self.request.driver,
                                  gzia if server and gzia else server, profile_servers,
                                  warm_socket=warm_socket),
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
