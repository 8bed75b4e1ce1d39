"""Signals gz-ia receives while it supervises a run.

While an agent runs, gz-ia does not die of SIGTERM, SIGHUP or SIGINT: it notes the signal
so the supervisor can forward it to the agent's group, wait the grace, escalate, record,
and only then exit (130/143). SIGCHLD and SIGWINCH only wake the wait loop. Every signal
writes a byte to a wakeup pipe (``signal.set_wakeup_fd``), so the loop sleeps in
``select`` and still reacts at once.

Handlers are Python-level (not ``SIG_IGN``), so the agent starts with default
dispositions after exec. Outside the main thread nothing is installed.
"""

from __future__ import annotations

import contextlib
import os
import signal
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from types import FrameType

STOP_SIGNALS = (signal.SIGTERM, signal.SIGHUP, signal.SIGINT)
WAKE_SIGNALS = (signal.SIGCHLD, signal.SIGWINCH)

FORWARDED_AS = {
    signal.SIGTERM: signal.SIGTERM,
    signal.SIGHUP: signal.SIGTERM,
    signal.SIGINT: signal.SIGINT,
}
"""What the agent's group receives when gz-ia receives the key."""


class SignalInbox:
    def __init__(self) -> None:
        self.read_fd, self._write_fd = os.pipe()
        os.set_blocking(self.read_fd, False)
        os.set_blocking(self._write_fd, False)
        self._stops: list[int] = []
        self._winch = False

    def _handle(self, signum: int, _frame: FrameType | None) -> None:
        if signum == signal.SIGWINCH:
            self._winch = True
        elif signum in STOP_SIGNALS:
            self._stops.append(signum)

    def take_stop(self) -> int | None:
        """The first stop signal received and not yet taken."""
        return self._stops.pop(0) if self._stops else None

    def raise_if_stopped(self) -> None:
        """Before the agent exists, a stop noted and not taken ends the start at once,
        raised as it would have been: Ctrl+C as ``INTERRUPTED`` (130), SIGTERM or SIGHUP
        as ``TERMINATED`` (143)."""
        received = self.take_stop()
        if received is not None:
            # lazy: the contract is needed only when a start is stopped
            from gzia.contract import stop_request, stopped_by_signal

            raise stopped_by_signal(stop_request(received), None)

    def take_winch(self) -> bool:
        winch, self._winch = self._winch, False
        return winch

    def drain(self) -> None:
        with contextlib.suppress(BlockingIOError):
            while os.read(self.read_fd, 512):
                pass

    def close(self) -> None:
        os.close(self.read_fd)
        os.close(self._write_fd)

    @contextlib.contextmanager
    def installed(self) -> Iterator[SignalInbox]:
        if threading.current_thread() is not threading.main_thread():
            yield self
            return
        previous = {s: signal.getsignal(s) for s in (*STOP_SIGNALS, *WAKE_SIGNALS)}
        old_wakeup = signal.set_wakeup_fd(self._write_fd, warn_on_full_buffer=False)
        try:
            for signum in previous:
                signal.signal(signum, self._handle)
            yield self
        finally:
            for signum, handler in previous.items():
                signal.signal(signum, signal.SIG_DFL if handler is None else handler)
            signal.set_wakeup_fd(old_wakeup)


@contextlib.contextmanager
def signal_inbox() -> Iterator[SignalInbox]:
    inbox = SignalInbox()
    try:
        with inbox.installed():
            yield inbox
    finally:
        inbox.close()


@dataclass
class HeldStops:
    """What :func:`stop_signals_held` yields: the inbox noting the signals while they are
    held and, once the handlers are back, the stop that nobody took."""

    inbox: SignalInbox
    late_stop: int | None = None
    """Set when the block ends normally: the first stop signal left in the inbox."""


@contextlib.contextmanager
def stop_signals_held() -> Iterator[HeldStops]:
    """Hold stop signals while the block writes what must not be cut short.

    A stop that arrives meanwhile is noted, not acted on; ``late_stop`` reads it after the
    previous handlers are restored, so no signal arrives unseen between the two.
    """
    with signal_inbox() as inbox:
        held = HeldStops(inbox)
        yield held
    held.late_stop = inbox.take_stop()
