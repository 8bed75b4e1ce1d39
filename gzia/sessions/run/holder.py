"""The holder of a background run: a small detached gz-ia process that owns the run.

Started by :mod:`gzia.sessions.background` as ``gz-ia __holder__`` in a new session (no
controlling terminal), it reads what to run from its stdin, then

1. ignores SIGHUP (the terminal that started it may close) — the agent still starts with
   every signal at its default (:func:`gzia.supervisor.spawn.default_signal_dispositions`);
2. takes the run over (``owner_pid``: itself, ``holder`` in the record), and binds the
   control socket (mode 0600, in the per-user runtime directory) after
   removing sockets whose holders are gone; starts the session's warm MCP server
   (gzia.sessions.warm_orchy) when the agent has one, and stops it when the run ends;
3. runs the agent on a PTY under :func:`gzia.supervisor.run.run_supervised`, the same
   owner as a foreground run (watchdogs, signal forwarding, group clean-up), with a
   relay that appends output to the rotating log and serves the socket;
4. records the agent's pid, group and start time while the agent is held before exec
   (it runs only once that write is durable); once it runs, answers the starting
   command on its stdout (one JSON line) and lets go of it;
5. writes the final record once (:func:`gzia.sessions.run.finalize_run`), and only
   then closes the socket;
6. notifies the end of the run (:mod:`gzia.sessions.notify`: unless a person was attached
   when it ended), within the notification settings' deadline;
7. kills the run's running sub-sessions, unless ``session kill``/``stop`` ended it (that
   command sees to them: :func:`gzia.sessions.stopping.stop_children_of_ended_run`), then
   exits.

It never ends the run for a failure of its own: a log it cannot write any more is given
up, connections past :data:`gzia.supervisor.control.MAX_CONNECTIONS` are refused, a
request that breaks a handler gets an error reply. Each such degradation is noted
(:mod:`gzia.sessions.background.notes`) in ``.harness/logs/<id>.holder.log`` (opened anew
for each note, so it survives the logs directory being deleted), in the record's
``holder_warnings`` and as an event; a crash's traceback goes there too.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import sys
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import Any

from gzia.contract import GzError, problem_from
from gzia.drivers.base import Driver, quit_signals_of
from gzia.drivers.registry import get_driver
from gzia.sessions.agent_state import Transition, relayed_transitions
from gzia.sessions.background import MAX_SPEC_BYTES, HolderNotes, HolderSpec, holder_log_path
from gzia.sessions.idle_stop import idle_stop_for
from gzia.sessions.notify import Notifier, notifier_for
from gzia.sessions.parent_watch import watching_parent
from gzia.sessions.project import find_project
from gzia.sessions.record import HolderRef, SessionRecord
from gzia.sessions.run.finish import (
    conversation_after_exit,
    finalize_run,
    finalize_unstarted,
    record_agent,
)
from gzia.sessions.sandbox_network import sandbox_services
from gzia.sessions.state_sources import detector_watch
from gzia.sessions.stopping import stop_children_of_ended_run
from gzia.sessions.store import SessionStore
from gzia.sessions.warm_orchy import warm_orchy
from gzia.supervisor.activity import ActivityWatch
from gzia.supervisor.control import ControlServer, Reply, Request
from gzia.supervisor.holder_relay import HolderRelay
from gzia.supervisor.logfile import RotatingLog
from gzia.supervisor.procinfo import process_start_time
from gzia.supervisor.run import DetachedPty, Started, run_supervised
from gzia.supervisor.runtime_dir import bind_private_socket, clean_stale_sockets
from gzia.supervisor.signals import stop_signals_held


def holder_main() -> int:
    """The whole life of a holder; its exit code matters to nobody (it is detached)."""
    spec = HolderSpec.from_json(sys.stdin.buffer.read(MAX_SPEC_BYTES))
    _redirect(0, os.devnull)
    store = SessionStore(find_project(spec.project))
    session_id = spec.id
    _redirect(2, str(holder_log_path(store, session_id)))
    try:
        return _Holder(store, spec).run()
    except BaseException:
        HolderNotes(store, session_id).crash(traceback.format_exc())
        raise


def _redirect(fd: int, path: str) -> None:
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    target = os.open(path, os.O_RDWR | os.O_CREAT | os.O_APPEND, 0o600)
    os.dup2(target, fd)
    os.close(target)


class _Holder:
    def __init__(self, store: SessionStore, spec: HolderSpec) -> None:
        self.store = store
        self.session_id = spec.id
        self.spec = spec
        self.watchdog = spec.watchdog
        self.socket_path = spec.socket
        self.reported = False
        self.agent_pid = 0
        self.notes = HolderNotes(store, spec.id)
        self.notifier: Notifier | None = None

    def run(self) -> int:
        with stop_signals_held() as held:  # a late stop changes nothing: the record is final
            signal.signal(signal.SIGHUP, signal.SIG_IGN)
            server: ControlServer | None = None
            try:
                server = self._serve()
                self.notifier = self._notifier(server)
                record = self.store.update(self.session_id, self._take_over)
                with relayed_transitions(self.store, self.session_id,
                                         self._listener(record)), \
                        warm_orchy(self.store, self.session_id, self.spec.orchy, self.spec.cwd,
                                   self.spec.env, inbox=held.inbox), \
                        sandbox_services(self.store, self.session_id, self.spec.sandbox), \
                        watching_parent(self.store, record):
                    outcome = run_supervised(
                        self.spec.command, watchdog=self.watchdog, inbox=held.inbox,
                        on_started=self._started, detached=self._detached(server),
                        watch=self._watch(record.provider),
                    )
            except BaseException as exc:
                if not isinstance(exc, GzError):  # not the agent's own start error
                    self.notes.crash(traceback.format_exc())
                finalize_unstarted(self.store, self.session_id, exc)
                self._report(_error_report(exc))
                if server is not None:
                    server.close()
                return 1
            final = None
            if self.notifier is not None:
                self.notifier.prepare()  # while the final record is written
            try:
                driver = self._driver()
                final = finalize_run(self.store, self.session_id, outcome,
                                     self._conversation(driver),
                                     quit_signals_of(driver) if driver is not None else frozenset())
            except GzError:  # the record was deleted meanwhile (session delete --force)
                traceback.print_exc()
            finally:
                attached = server.attached() > 0
                server.close()
            if final is not None and self.notifier is not None:
                self.notifier.run_ended(final, attached=attached)
            if final is not None:
                stop_children_of_ended_run(self.store, final)
        return 0

    def _driver(self) -> Driver | None:
        try:
            return get_driver(self.store.load(self.session_id).provider)
        except GzError:  # deleted meanwhile, or its driver is no longer installed
            return None

    def _conversation(self, driver: Driver | None) -> str | None:
        """The id of a conversation the agent chose itself (pi, opencode), for metrics."""
        try:
            record = self.store.load(self.session_id)
        except GzError:  # deleted meanwhile
            return None
        if driver is None:
            return None
        return conversation_after_exit(driver, record, self.spec.cwd, self.spec.env)

    def _notifier(self, server: ControlServer) -> Notifier | None:
        """The run's notifications; the agent's state transitions go to its
        ``transition``, the end of the run to its ``run_ended``."""
        return notifier_for(self.store, self.session_id, lambda: server.attached() > 0)

    def _listener(self, record: SessionRecord) -> Callable[[Transition], None] | None:
        """Where the agent's state transitions go: the notifications, and a sub-session's
        idle timeout (:mod:`gzia.sessions.idle_stop`)."""
        idle = idle_stop_for(self.store, record)
        listeners = [listener for listener in (
            None if self.notifier is None else self.notifier.transition,
            None if idle is None else idle.transition) if listener is not None]
        if not listeners:
            return None

        def each(transition: Transition) -> None:
            for listener in listeners:
                listener(transition)

        return each

    def _watch(self, provider: str) -> ActivityWatch | None:
        """The kernel detector, for an agent that does not report its state itself."""
        try:
            return detector_watch(self.store, self.session_id, get_driver(provider))
        except GzError:  # its driver is no longer installed: the state stays as it is
            return None

    def _serve(self) -> ControlServer:
        clean_stale_sockets(self.socket_path.parent)
        listener = bind_private_socket(self.socket_path)
        return ControlServer(listener, self.socket_path, {"kill": self._kill},
                             warn=self.notes.warn)

    def _detached(self, server: ControlServer) -> DetachedPty:
        log = RotatingLog(self.spec.log_path, self.spec.log_max_bytes, warn=self.notes.warn)
        return DetachedPty(lambda master: HolderRelay(master, log, server, self.notes.warn),
                           self.spec.window, on_running=self._running)

    def _take_over(self, record: SessionRecord) -> None:
        """Before the agent exists: this holder owns the run (it alone writes how it
        ends; kill and reconcile ask it, not the command that started it)."""
        me = os.getpid()
        record.owner_pid, record.owner_start_time = me, process_start_time(me)
        if record.owner_start_time is not None:  # without it a pid proves nothing
            record.holder = HolderRef(me, record.owner_start_time, self.socket_path)

    def _started(self, started: Started) -> None:
        """The agent is held before exec until this write is durable."""
        self.store.update(self.session_id, lambda record: record_agent(record, started))
        self.agent_pid = started.pid

    def _running(self) -> None:
        self._report({"ok": True, "pid": self.agent_pid})

    def _report(self, report: dict[str, Any]) -> None:
        """Answer the starting command once, then let go of its pipe."""
        if self.reported:
            return
        self.reported = True
        with contextlib.suppress(OSError):  # it was killed meanwhile: nobody to tell
            os.write(1, json.dumps(report).encode("utf-8") + b"\n")
        _redirect(1, os.devnull)

    def _kill(self, request: Request) -> Reply:
        """``session kill`` asked the owner: the same protocol, from here."""
        # lazy: start-up speed (off the path of session list and --help)
        from gzia.sessions.kill import kill_session

        grace_s = float(request.get("grace_s", self.watchdog.kill_grace_s))
        try:
            result = kill_session(self.store, self.session_id, grace_s)
        except GzError as exc:
            return {"ok": False, "error": problem_from(exc).to_json()}
        target = result.target.to_json() if result.target is not None else None
        return {"ok": True, "signal": result.signal, "target": target}


def _error_report(exc: BaseException) -> dict[str, Any]:
    """Why the agent did not start, in the contract's problem shape (:func:`error_from`)."""
    return {"ok": False, "error": problem_from(exc).to_json()}
