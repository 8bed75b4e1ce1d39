"""What a holder runs: the one message the starting command sends it, on its stdin.

Both sides use :class:`HolderSpec`: :mod:`.launch` writes it with :meth:`HolderSpec.to_json`,
the holder (:mod:`gzia.sessions.run.holder`) reads it with :meth:`HolderSpec.from_json`,
which checks every field's type, so a holder never runs half a spec.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, TypeVar

from gzia.sandbox.services import SandboxServices
from gzia.supervisor.command import Command
from gzia.supervisor.watchdog import Watchdog

T = TypeVar("T")

MAX_SPEC_BYTES = 16 << 20
"""The most a holder reads from its stdin: argv and environment fit many times over."""


@dataclass(frozen=True)
class HolderSpec:
    project: Path
    id: str
    argv: tuple[str, ...]
    cwd: Path
    env: Mapping[str, str]
    log_path: Path
    log_max_bytes: int
    window: tuple[int, int]
    socket: Path
    watchdog: Watchdog
    orchy: Path | None = None
    """Where the holder serves the session's MCP tools warm; None: the agent has none."""
    sandbox: SandboxServices | None = None
    """What a sandboxed run's owner serves: the holder runs it (docs/sandbox.md)."""

    @property
    def command(self) -> Command:
        """The agent's command, on the holder's PTY."""
        return Command(self.argv, self.cwd, dict(self.env), pty=True)

    def to_json(self) -> bytes:
        data = {
            "project": str(self.project), "id": self.id, "argv": list(self.argv),
            "cwd": str(self.cwd), "env": dict(self.env), "log_path": str(self.log_path),
            "log_max_bytes": self.log_max_bytes, "window": list(self.window),
            "socket": str(self.socket), "watchdog": asdict(self.watchdog),
            "orchy": None if self.orchy is None else str(self.orchy),
        }
        if self.sandbox is not None:
            data["sandbox"] = self.sandbox.to_json()
        return json.dumps(data).encode("utf-8")

    @classmethod
    def from_json(cls, raw: bytes) -> HolderSpec:
        """The spec :meth:`to_json` wrote; ``ValueError`` for anything else."""
        data = _object(json.loads(raw), "spec")
        return cls(
            project=Path(_typed(data, "project", str)), id=_typed(data, "id", str),
            argv=tuple(_strings(data, "argv")), cwd=Path(_typed(data, "cwd", str)),
            env=_environment(data), log_path=Path(_typed(data, "log_path", str)),
            log_max_bytes=_typed(data, "log_max_bytes", int), window=_window(data),
            socket=Path(_typed(data, "socket", str)), watchdog=_watchdog(data),
            orchy=None if data.get("orchy") is None else Path(_typed(data, "orchy", str)),
            sandbox=None if data.get("sandbox") is None else SandboxServices.from_json(
                data["sandbox"]),
        )


def _object(value: object, name: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise ValueError(f"holder spec: {name} must be an object")
    return value


def _typed(data: Mapping[str, Any], key: str, kind: type[T]) -> T:
    value = data.get(key)
    if type(value) is not kind:  # exact: a JSON true is not an integer
        raise ValueError(f"holder spec: {key} must be of type {kind.__name__}")
    return value  # checked just above


def _strings(data: Mapping[str, Any], key: str) -> list[str]:
    value = _typed(data, key, list)
    if not value or not all(isinstance(item, str) for item in value):
        raise ValueError(f"holder spec: {key} must be a list of strings")
    return value


def _environment(data: Mapping[str, Any]) -> dict[str, str]:
    env = _object(data.get("env"), "env")
    if not all(isinstance(value, str) for value in env.values()):
        raise ValueError("holder spec: env must map names to strings")
    return env


def _window(data: Mapping[str, Any]) -> tuple[int, int]:
    window = _typed(data, "window", list)
    if len(window) != 2 or not all(type(n) is int and n > 0 for n in window):
        raise ValueError("holder spec: window must be [rows, cols]")
    return window[0], window[1]


def _watchdog(data: Mapping[str, Any]) -> Watchdog:
    fields = _object(data.get("watchdog"), "watchdog")
    try:
        watchdog = Watchdog(**fields)
    except TypeError as exc:
        raise ValueError(f"holder spec: watchdog: {exc}") from None
    numbers = (watchdog.kill_grace_ms, watchdog.timeout_s, watchdog.no_output_timeout_s)
    if not all(n is None or type(n) in (int, float) for n in numbers):
        raise ValueError("holder spec: watchdog values must be numbers")
    return watchdog
