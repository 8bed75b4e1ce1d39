"""Hold a new agent before it runs until its identity is recorded.

The agent is forked, and waits in the child (before ``exec``) until the owner has
written its pid, start time and process group where every other gz-ia can read them.
Only then may it run. If the owner dies meanwhile (SIGKILL, the OOM killer), the child
reads end-of-file instead of the go-ahead and exits without ever running the agent: so
an agent can never outlive an owner that did not record it.

:class:`subprocess.Popen` returns only once the child has exec'd (it reports exec
errors), so the fork happens on a helper thread while the calling thread reads the
child's pid from a pipe, records it, and lets it go.
"""

from __future__ import annotations

import contextlib
import os
import threading
from collections.abc import Callable
from typing import Generic, TypeVar

T = TypeVar("T")
Preexec = Callable[[], None]
GATE_ABORTED = 127
"""The exit status of a held child whose owner went away before letting it run."""
GO = b"1"


class StartGate(Generic[T]):
    """One held start: ``spawn(hold)`` runs on a helper thread; ``hold`` goes into the
    child's pre-exec step."""

    def __init__(self, spawn: Callable[[Preexec], T]) -> None:
        self._pid_r, self._pid_w = os.pipe()  # not inherited across exec
        self._go_r, self._go_w = os.pipe()  # not inherited across exec
        self._result: list[T] = []
        self._error: list[BaseException] = []
        self._thread = threading.Thread(target=self._spawn, args=(spawn,), daemon=True)
        self._thread.start()

    def _spawn(self, spawn: Callable[[Preexec], T]) -> None:
        try:
            self._result.append(spawn(self.hold))
        except BaseException as exc:  # re-raised by the calling thread
            self._error.append(exc)
        finally:
            os.close(self._pid_w)  # a start that failed before its pre-exec: end-of-file

    def hold(self) -> None:
        """In the child, before exec: say who it is, then wait for the go-ahead."""
        os.close(self._pid_r)
        os.close(self._go_w)
        os.write(self._pid_w, b"%d\n" % os.getpid())
        os.close(self._pid_w)
        if os.read(self._go_r, 1) != GO:  # the owner is gone: the agent never runs
            os._exit(GATE_ABORTED)
        os.close(self._go_r)

    def child_pid(self) -> int | None:
        """The held child's pid; None when the start failed before holding it."""
        line = b""
        while not line.endswith(b"\n"):
            chunk = os.read(self._pid_r, 32)
            if not chunk:
                return None
            line += chunk
        return int(line)

    def release(self) -> T:
        """Let the child run; the spawn's result (or its error, raised)."""
        with contextlib.suppress(OSError):  # the child may be gone already
            os.write(self._go_w, GO)
        return self.finish()

    def finish(self) -> T:
        """Without a go-ahead the child exits unstarted. The spawn's result or error."""
        os.close(self._go_w)
        self._thread.join()
        os.close(self._pid_r)
        os.close(self._go_r)
        if self._error:
            raise self._error[0]
        return self._result[0]
