"""ToolProxy: the circuit breaker around every tool.

``HEALTHY`` → ``DEGRADED`` after 2 consecutive failures → ``DEAD`` after
``max_failures`` (default 5); a success → ``HEALTHY``, unless the tool is DEAD: only
:meth:`ToolProxy.reset` brings a DEAD tool back, so a call that was in flight when the
tool died and succeeds later leaves it DEAD. A call started before a reset does not
count after it. A call to a DEAD tool fails at once with :class:`CircuitOpen` (the
server's JSON-RPC ``-32603``), without running it. A call that outlives its timeout is
a failure: the caller gets the timeout at once, and every program the tool started
through :func:`gzia.proc.run` is killed with its process group, so the abandoned work
stops instead of leaking; the same when the client cancels the call. A cancelled call
is not the tool's failure. Neither is a refusal (:data:`REFUSALS`): arguments that do
not match the schema are refused before the tool runs, and an error the tool raises to
refuse what it was asked (bad or over-limit input, a safety rule or a cap, a state that
does not allow it: ``INVALID_INPUT``, ``SAFETY_BLOCK``, ``CONFLICT``, ...) says the tool
works; it neither counts as a failure nor clears one. A tool made with
``guarded=False`` (the breaker's own controls, ``orchy_health`` and ``orchy_reset``) is
never tripped: nothing could reset the breaker if they were.
"""

from __future__ import annotations

import contextlib
import os
import signal
import time
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

import anyio
import anyio.to_thread

from gzia import proc
from gzia.contract import ErrorCode, GzError, TimeoutFailure
from gzia.i18n import N_
from gzia.orchy.limits import DEFAULT_MAX_FAILURES, DEFAULT_TIMEOUT, MAX_ERROR_CHARS
from gzia.orchy.tool import Tool, ToolContext, validate_arguments

DEGRADED_AFTER = 2

REFUSALS = frozenset({
    ErrorCode.INVALID_INPUT, ErrorCode.MISSING_REQUIRED, ErrorCode.UNKNOWN_FLAG,
    ErrorCode.UNKNOWN_COMMAND, ErrorCode.SAFETY_BLOCK, ErrorCode.CONFLICT,
    ErrorCode.IDEMPOTENCY_CONFLICT,
})
"""The codes of a tool that refused what it was asked, rather than failed: the caller's
input, a safety rule or cap (sub-session caps, a looser permission), a state that does
not allow it yet (a child still running). Everything else (``NOT_FOUND``, ``IO``,
``LOCKED``, ``TIMEOUT``, any exception) is the tool's failure."""


class Health(StrEnum):
    HEALTHY = "HEALTHY"
    DEGRADED = "DEGRADED"
    DEAD = "DEAD"


class CircuitOpen(Exception):
    """A call refused because the tool is DEAD."""


@dataclass
class ToolStats:
    total_calls: int = 0
    failed_calls: int = 0
    consecutive_failures: int = 0
    last_error: str | None = None
    last_duration_ms: float | None = None


class ToolProxy:
    def __init__(self, tool: Tool, *, max_failures: int = DEFAULT_MAX_FAILURES,
                 timeout: float = DEFAULT_TIMEOUT) -> None:
        self.tool = tool
        self.max_failures = max_failures
        self.timeout = timeout
        self.health = Health.HEALTHY
        self.stats = ToolStats()
        self._generation = 0
        """Resets so far: a call's outcome counts only in the generation it started in."""

    async def call(self, context: ToolContext, arguments: object) -> Any:
        if self.health is Health.DEAD:
            raise CircuitOpen(self.tripped_message())
        values = validate_arguments(self.tool.input_schema, arguments)
        self.stats.total_calls += 1
        generation, started = self._generation, time.perf_counter()
        try:
            result = await self._run_bounded(context, values)
        except GzError as exc:
            if exc.code not in REFUSALS:
                self._failed(exc, generation)
            raise
        except Exception as exc:
            self._failed(exc, generation)
            raise
        finally:
            self.stats.last_duration_ms = (time.perf_counter() - started) * 1000
        self._succeeded(generation)
        return result

    def reset(self) -> None:
        """ResetCircuitBreaker: back to HEALTHY with no failures counted."""
        self._generation += 1
        self.health = Health.HEALTHY
        self.stats.consecutive_failures = 0

    def tripped_message(self) -> str:
        return (f'[ToolProxy] circuit breaker tripped for tool "{self.tool.name}": '
                f"status is DEAD after {self.max_failures} consecutive failures")

    def to_json(self) -> dict[str, Any]:
        return {"name": self.tool.name, "status": self.health.value,
                "guarded": self.tool.guarded,
                "consecutive_failures": self.stats.consecutive_failures,
                "max_failures": self.max_failures, "timeout_s": self.timeout,
                "total_calls": self.stats.total_calls, "failed_calls": self.stats.failed_calls,
                "last_error": self.stats.last_error,
                "last_duration_ms": _rounded(self.stats.last_duration_ms)}

    async def _run_bounded(self, context: ToolContext, values: dict[str, Any]) -> Any:
        children: set[int] = set()

        def work() -> Any:
            with proc.watch_children(children):
                return self.tool.function(context, values)

        try:
            with anyio.fail_after(self.timeout):
                return await anyio.to_thread.run_sync(work, abandon_on_cancel=True)
        except TimeoutError:
            _kill_groups(children)
            raise TimeoutFailure(N_("tool '{name}' did not finish within {seconds} s and was "
                                    "stopped"),
                                 name=self.tool.name,
                                 seconds=self.timeout) from None
        except anyio.get_cancelled_exc_class():
            _kill_groups(children)  # the client cancelled the call: its programs stop too
            raise

    def _counts(self, generation: int) -> bool:
        """Whether a call's outcome moves the breaker: guarded tool, no reset since."""
        return self.tool.guarded and generation == self._generation

    def _failed(self, exc: Exception, generation: int) -> None:
        self.stats.failed_calls += 1
        self.stats.last_error = (str(exc) or type(exc).__name__)[:MAX_ERROR_CHARS]
        if not self._counts(generation):
            return
        self.stats.consecutive_failures += 1
        if self.stats.consecutive_failures >= self.max_failures:
            self.health = Health.DEAD
        elif self.stats.consecutive_failures >= DEGRADED_AFTER:
            self.health = Health.DEGRADED

    def _succeeded(self, generation: int) -> None:
        if self.health is Health.DEAD or not self._counts(generation):
            return  # only reset brings a DEAD tool back
        self.stats.consecutive_failures = 0
        self.health = Health.HEALTHY


def _kill_groups(pids: set[int]) -> None:
    for pid in list(pids):
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(pid, signal.SIGKILL)


def _rounded(value: float | None) -> float | None:
    return None if value is None else round(value, 3)
