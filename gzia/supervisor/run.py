"""The owner of a supervised run: spawn, report the pids, wait, stop, clean up.

``run_supervised`` is the only way gz-ia runs an agent. It

1. starts the agent as the leader of its own process group (``spawn``);
2. calls ``on_started`` with pid and pgid while the child is held before exec
   (:mod:`gzia.supervisor.startgate`): the agent runs only once the caller has recorded
   them, so a crash of gz-ia never leaves an agent running unrecorded (``NOT_STARTED``
   follows when the exec then fails);
3. waits, relaying a PTY if there is one, while noting SIGTERM/SIGHUP/SIGINT sent to gz-ia:
   those are forwarded to the group (SIGHUP as SIGTERM), and after the grace the group
   gets SIGKILL; the watchdog's timeouts stop the group the same way;
4. once the leader has exited, stops what is left of its group (grace, then SIGKILL), so
   no child or grandchild outlives the run;
5. gives the terminal back (foreground group and settings) on every exit path.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace

from gzia.supervisor.activity import ActivityWatch
from gzia.supervisor.command import Command
from gzia.supervisor.endreason import EndReason
from gzia.supervisor.logfile import RotatingLog
from gzia.supervisor.pipe_relay import PipeRelay
from gzia.supervisor.ready import wait_ready
from gzia.supervisor.relay import PtyRelay
from gzia.supervisor.signals import FORWARDED_AS, SignalInbox, signal_inbox
from gzia.supervisor.spawn import Child, Preexec, spawn_in_pty, spawn_piped, spawn_plain
from gzia.supervisor.startgate import StartGate
from gzia.supervisor.terminal import (
    JobControl,
    SavedTerminal,
    foreground_terminal_fd,
    raw_mode,
)
from gzia.supervisor.treekill import kill_process_group, signal_group, wait_group_gone
from gzia.supervisor.watchdog import DEFAULT_WATCHDOG, Watchdog

IDLE_WAKEUP_S = 0.25
Relay = PtyRelay | PipeRelay


@dataclass(frozen=True)
class Started:
    pid: int
    pgid: int


NOT_STARTED = Started(0, 0)
"""Passed to ``on_started`` when the child it named could not exec the agent."""


@dataclass(frozen=True)
class RunOutcome:
    pid: int
    pgid: int
    exit_code: int | None
    """The agent's exit status when it exited by itself; None when a signal ended it."""
    signal: int | None
    """The signal that ended the agent, if one did."""
    end_reason: EndReason
    """``PROCESS_EXIT``, ``SIGNAL``, ``CANCELED``, ``TIMEOUT`` or ``NO_OUTPUT_TIMEOUT``."""
    received_signal: int | None
    """The stop signal gz-ia itself received during the run (already forwarded)."""
    duration_ms: int
    output_error: OSError | None = None
    """Why gz-ia's stdout or stderr could not be written during the run (a full disk): the
    command ends with that I/O error once the run is recorded."""


@dataclass(frozen=True)
class DetachedPty:
    """A PTY run that is not connected to gz-ia's stdio (a background run's holder): the
    relay built by ``relay_for(master)`` decides where output and input go."""

    relay_for: Callable[[int], PtyRelay]
    window: tuple[int, int] = (24, 80)
    on_running: Callable[[], None] | None = None
    """Called once the agent has exec'd (after ``on_started``)."""


@dataclass
class _Stop:
    reason: EndReason
    deadline: float
    received: int | None = None
    escalated: bool = False


def run_supervised(
    command: Command,
    *,
    watchdog: Watchdog = DEFAULT_WATCHDOG,
    on_started: Callable[[Started], None] | None = None,
    inbox: SignalInbox | None = None,
    detached: DetachedPty | None = None,
    watch: ActivityWatch | None = None,
) -> RunOutcome:
    """Run ``command`` to its end under the watchdog; see the module's description.

    Pass ``inbox`` (from :func:`signal_inbox`) to keep noting stop signals after the run,
    while the caller records the outcome; otherwise one is installed for the run only.
    ``detached`` runs a PTY command without gz-ia's stdio (see :class:`DetachedPty`).
    ``watch`` is told, while the agent runs, whether it works or waits for input
    (:mod:`gzia.supervisor.activity`).
    """
    with contextlib.ExitStack() as stack:
        if inbox is None:
            inbox = stack.enter_context(signal_inbox())
        return _run(command, watchdog, on_started, inbox, detached, watch=watch)
    raise AssertionError("unreachable")  # pragma: no cover - for type checkers


def _run(
    command: Command,
    watchdog: Watchdog,
    on_started: Callable[[Started], None] | None,
    inbox: SignalInbox,
    detached: DetachedPty | None,
    *,
    watch: ActivityWatch | None = None,
) -> RunOutcome:
    with _attached(command, detached) as attach:
        began = time.monotonic()
        try:
            child, relay = _spawn_recorded(attach, on_started)
        except BaseException:  # the child may have taken the terminal before its exec failed
            attach.close(None)
            raise
        try:
            if detached is not None and detached.on_running is not None:
                detached.on_running()
            stop = _Waiter(child, inbox, watchdog, relay=relay, began=began,
                           job_control=attach.job_control(child), watch=watch).wait()
        except BaseException:
            kill_process_group(child.pid, watchdog.kill_grace_s, reap=child.poll)
            child.wait()
            raise
        finally:
            attach.close(relay)
    outcome = _outcome(child, stop, began)
    return replace(outcome, output_error=relay.output_error) if relay is not None else outcome


def _spawn_recorded(
    attach: _Attachment, on_started: Callable[[Started], None] | None
) -> tuple[Child, Relay | None]:
    """Spawn; with ``on_started``, the child is held before exec until it has returned
    (:mod:`gzia.supervisor.startgate`): no agent runs that its owner did not record."""
    if on_started is None:
        return attach.spawn(None)
    gate = StartGate(attach.spawn)
    try:
        pid = gate.child_pid()
        if pid is not None:
            on_started(Started(pid, pid))
    except BaseException:
        with contextlib.suppress(BaseException):
            child, relay = gate.finish()  # it exits unstarted
            child.wait()
            if relay is not None:
                relay.close()
        raise
    try:
        return gate.release()
    except BaseException:
        if pid is not None:  # its exec failed: the recorded child never ran the agent
            on_started(NOT_STARTED)
        raise


def _outcome(child: Child, stop: _Stop | None, began: float) -> RunOutcome:
    code = child.returncode
    died_of = -code if code is not None and code < 0 else None
    if stop is not None:
        reason = stop.reason
    else:
        reason = EndReason.SIGNAL if died_of is not None else EndReason.PROCESS_EXIT
    return RunOutcome(
        pid=child.pid,
        pgid=child.pid,
        exit_code=None if died_of is not None else code,
        signal=died_of,
        end_reason=reason,
        received_signal=stop.received if stop is not None else None,
        duration_ms=int((time.monotonic() - began) * 1000),
    )


class _Attachment:
    """How the agent is connected to gz-ia's stdio: plain, terminal handoff, or PTY."""

    def __init__(self, command: Command, detached: DetachedPty | None) -> None:
        self.command = command
        self.detached = detached
        self.terminal_fd = None if detached is not None else foreground_terminal_fd()
        self.saved: SavedTerminal | None = None
        self._raw: contextlib.ExitStack = contextlib.ExitStack()

    def spawn(self, hold: Preexec | None) -> tuple[Child, Relay | None]:
        if self.command.pty:
            return self._spawn_pty(hold)
        if self.terminal_fd is not None:
            self.saved = SavedTerminal.capture(self.terminal_fd)
        elif self.command.log_path is not None:
            return self._spawn_piped(hold)
        return spawn_plain(self.command, self.terminal_fd, hold), None

    def _spawn_piped(self, hold: Preexec | None) -> tuple[Child, PipeRelay]:
        child = spawn_piped(self.command, hold)
        pipes = {}
        for stream, target in ((child.stdout, self.command.output_fd), (child.stderr, 2)):
            if stream is not None:  # always, with pipes asked for: for type checkers
                pipes[os.dup(stream.fileno())] = target
                stream.close()
        return child, PipeRelay(pipes, _log_of(self.command))

    def _spawn_pty(self, hold: Preexec | None) -> tuple[Child, PtyRelay]:
        if self.detached is not None:
            child, master = spawn_in_pty(self.command, None, self.detached.window, hold)
            return child, self.detached.relay_for(master)
        stdin_fd = 0 if _is_open(0) else None
        out_fd = self.command.output_fd
        size_fd = out_fd if os.isatty(out_fd) else stdin_fd
        child, master = spawn_in_pty(self.command, size_fd, hold=hold)
        if self.terminal_fd is not None:
            self._raw.enter_context(raw_mode(self.terminal_fd))
        return child, PtyRelay(master, stdin_fd, out_fd, _log_of(self.command))

    def job_control(self, child: Child) -> JobControl | None:
        return JobControl(self.saved, child.pid) if self.saved is not None else None

    def close(self, relay: Relay | None) -> None:
        if relay is not None:
            relay.drain()
            relay.close()
        self._raw.close()
        if self.saved is not None:
            self.saved.restore()


def output_is_logged(pty: bool) -> bool:
    """Whether a foreground run keeps an output log: on a PTY, or without a terminal (its
    output then comes through pipes). An agent handed the terminal itself writes to it
    directly, unseen."""
    return pty or foreground_terminal_fd() is None


def _log_of(command: Command) -> RotatingLog | None:
    if command.log_path is None:
        return None
    return RotatingLog(command.log_path, command.log_max_bytes)


@contextlib.contextmanager
def _attached(command: Command, detached: DetachedPty | None) -> Iterator[_Attachment]:
    sys.stdout.flush()
    sys.stderr.flush()
    yield _Attachment(command, detached)


def _is_open(fd: int) -> bool:
    try:
        os.fstat(fd)
    except OSError:
        return False
    return True


class _Waiter:
    def __init__(
        self,
        child: Child,
        inbox: SignalInbox,
        watchdog: Watchdog,
        *,
        relay: Relay | None,
        began: float,
        job_control: JobControl | None,
        watch: ActivityWatch | None = None,
    ) -> None:
        self.job_control = job_control
        self.watch = watch
        self.child = child
        self.inbox = inbox
        self.watchdog = watchdog
        self.relay = relay
        self.began = began
        self.stop: _Stop | None = None

    def wait(self) -> _Stop | None:
        while self.child.poll() is None:
            if self.job_control is not None:
                self.job_control.check()
            self._check_stop_conditions()
            if self.watch is not None and self.stop is None:
                last_output = self.relay.last_output if self.relay is not None else None
                self.watch.tick(self.child.pid, last_output, time.monotonic())
            self._sleep()
        self._clean_up_group()
        return self.stop

    def _check_stop_conditions(self) -> None:
        received = self.inbox.take_stop()
        if received is not None and (self.stop is None or self.stop.received is None):
            self._begin_stop(EndReason.CANCELED, FORWARDED_AS[signal.Signals(received)], received)
        now = time.monotonic()
        timeout = self.watchdog.timeout_s
        if self.stop is None and timeout is not None and now - self.began >= timeout:
            self._begin_stop(EndReason.TIMEOUT, signal.SIGTERM, None)
        silence = self.watchdog.no_output_timeout_s
        if (
            self.stop is None
            and silence is not None
            and self.relay is not None
            and now - self.relay.last_output >= silence
        ):
            self._begin_stop(EndReason.NO_OUTPUT_TIMEOUT, signal.SIGTERM, None)
        if self.stop is not None and not self.stop.escalated and now >= self.stop.deadline:
            self.stop.escalated = True
            signal_group(self.child.pid, signal.SIGKILL)

    def _begin_stop(self, reason: EndReason, forward: int, received: int | None) -> None:
        self.stop = _Stop(reason, time.monotonic() + self.watchdog.kill_grace_s, received)
        if signal_group(self.child.pid, forward):
            signal_group(self.child.pid, signal.SIGCONT)  # a stopped agent must run to see it

    def _sleep(self) -> None:
        timeout = IDLE_WAKEUP_S
        if self.stop is not None and not self.stop.escalated:
            timeout = max(0.0, min(timeout, self.stop.deadline - time.monotonic()))
        readable = [self.inbox.read_fd]
        writable: list[int] = []
        if self.relay is not None:
            readable += self.relay.readable()
            writable = self.relay.writable()
        ready_r, ready_w = wait_ready(readable, writable, timeout)
        if self.inbox.read_fd in ready_r:  # not on every pass: bench/background.py
            self.inbox.drain()
        if self.relay is not None:
            if self.inbox.take_winch():
                self.relay.follow_window()
            self.relay.handle(ready_r, ready_w)

    def _clean_up_group(self) -> None:
        """The leader is gone: whatever is left of its group gets the grace, then SIGKILL."""
        pgid = self.child.pid
        if self.stop is not None and not self.stop.escalated:
            if not wait_group_gone(pgid, self.stop.deadline):
                signal_group(pgid, signal.SIGKILL)
            wait_group_gone(pgid, time.monotonic() + 5.0)
            return
        kill_process_group(pgid, self.watchdog.kill_grace_s)
