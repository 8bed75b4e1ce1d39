"""The kernel: tool plugins booted in registration order, shut down in reverse.

A plugin is the object a ``gzia.tools`` entry point names: ``boot(context)`` returns its
tools, and an optional ``shutdown()`` releases what ``boot`` took. Built-in plugins come
first (pyproject.toml order), then third-party ones in ``sys.path`` order.

States: ``IDLE → BOOTING → RUNNING → SHUTTING_DOWN → STOPPED``. Boot is all or nothing:
when a plugin fails to boot, the plugins already booted are shut down in reverse order,
no tool stays registered, the kernel is ``STOPPED`` and :attr:`Kernel.boot_failure` says
which plugin failed and why (the server reports it and keeps answering).
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from gzia.contract import ErrorCode, GzError, Problem, error_from
from gzia.orchy.limits import DEFAULT_MAX_FAILURES, DEFAULT_TIMEOUT
from gzia.orchy.proxy import ToolProxy
from gzia.orchy.tool import Tool, ToolContext, failure_problem
from gzia.plugins import load_group

GROUP = "gzia.tools"


class KernelState(StrEnum):
    IDLE = "IDLE"
    BOOTING = "BOOTING"
    RUNNING = "RUNNING"
    SHUTTING_DOWN = "SHUTTING_DOWN"
    STOPPED = "STOPPED"


@dataclass(frozen=True)
class PluginProblem:
    """A tool plugin that failed to load, boot or shut down, and its problem in the
    contract's one shape (``orchy_health`` sends it to the MCP client as
    ``{"plugin", "code", "message", "retryable", "hint", "details"}``)."""

    plugin: str
    problem: Problem

    @classmethod
    def of(cls, plugin: str, exc: BaseException) -> PluginProblem:
        return cls(plugin, failure_problem(exc))

    @property
    def error(self) -> str:
        """The problem's message, as logs and the server's texts name it."""
        return self.problem.message

    def as_error(self) -> GzError:
        """The error class the problem's code names, as every problem crossing a process
        boundary comes back (:func:`gzia.contract.error_from`)."""
        return error_from(self.problem)

    def to_json(self) -> dict[str, Any]:
        return {"plugin": self.plugin, **self.problem.to_json()}

    @classmethod
    def from_json(cls, data: object) -> PluginProblem:
        """The problem :meth:`to_json` wrote; ``ValueError`` else."""
        if not isinstance(data, dict) or not isinstance(data.get("plugin"), str):
            raise ValueError("a plugin problem names its plugin")
        rest = {key: value for key, value in data.items() if key != "plugin"}
        return cls(data["plugin"], Problem.from_json(rest))


class Kernel:
    def __init__(self, context: ToolContext, plugins: Sequence[tuple[str, Any]], *,
                 max_failures: int = DEFAULT_MAX_FAILURES,
                 timeout: float = DEFAULT_TIMEOUT) -> None:
        self.context = context
        self.plugins = list(plugins)
        self.max_failures = max_failures
        self.timeout = timeout
        self.state = KernelState.IDLE
        self.proxies: dict[str, ToolProxy] = {}
        self.booted: list[tuple[str, Any]] = []
        self.boot_failure: PluginProblem | None = None
        self.shutdown_errors: list[PluginProblem] = []

    def boot(self) -> bool:
        """Boot every plugin; False (and everything rolled back) when one fails."""
        if self.state is not KernelState.IDLE:
            return self.state is KernelState.RUNNING
        self.state = KernelState.BOOTING
        for name, plugin in self.plugins:
            try:
                self._register(name, list(plugin.boot(self.context)))
            except Exception as exc:
                self.boot_failure = PluginProblem.of(name, exc)
                self.booted.append((name, plugin))  # its own half-done boot is undone too
                self.shutdown()
                return False
            self.booted.append((name, plugin))
        self.state = KernelState.RUNNING
        return True

    def shutdown(self) -> None:
        if self.state not in (KernelState.BOOTING, KernelState.RUNNING):
            return
        self.state = KernelState.SHUTTING_DOWN
        for name, plugin in reversed(self.booted):
            stop = getattr(plugin, "shutdown", None)
            if stop is None:
                continue
            try:
                stop()
            except Exception as exc:
                self.shutdown_errors.append(PluginProblem.of(name, exc))
        self.booted.clear()
        self.proxies.clear()
        self.context.proxies.clear()
        self.state = KernelState.STOPPED

    def to_json(self) -> dict[str, Any]:
        failure = self.boot_failure.to_json() if self.boot_failure else None
        return {"state": self.state.value, "plugins": [name for name, _ in self.booted],
                "boot_failure": failure,
                "tools": [proxy.to_json() for proxy in self.proxies.values()]}

    def _register(self, plugin: str, tools: list[Tool]) -> None:
        for tool in tools:
            if not isinstance(tool, Tool):
                raise TypeError(f"plugin {plugin!r} returned {type(tool).__name__}, not a Tool")
            if tool.name in self.proxies:
                raise ValueError(f"tool {tool.name!r} is already registered")
            proxy = ToolProxy(tool, max_failures=self.max_failures, timeout=self.timeout)
            self.proxies[tool.name] = self.context.proxies[tool.name] = proxy


def load_plugins() -> tuple[list[tuple[str, Any]], list[PluginProblem]]:
    """Every ``gzia.tools`` plugin that imports; the others as problems (never fatal)."""
    with contextlib.redirect_stdout(sys.stderr):  # stdout carries only the protocol
        result = load_group(GROUP)
    problems = [PluginProblem(f.info.name, Problem(ErrorCode.INTERNAL, f.error))
                for f in result.failures]
    return list(result.loaded.items()), problems
