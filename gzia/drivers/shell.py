"""The shell driver: runs ``$SHELL`` (else ``/bin/sh``), or a given command, in the workspace.

It is always available, so gz-ia can run real sessions on a machine without any agent.
Prompts and conversations mean nothing to a shell and are ignored; a shell cannot be
restricted to read-only, so readonly is refused.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import ClassVar

from gzia.contract import IOFailure, NotFoundError, Permission
from gzia.drivers.base import (
    DOUBLE_CTRL_C,
    ExecutableDriver,
    LaunchRequest,
    LaunchSpec,
    QuitKeys,
    readonly_unsupported,
    which,
)
from gzia.i18n import N_

FALLBACK_SHELL = "/bin/sh"
EXIT_SHELL = QuitKeys((b"\x03", b"\x15exit\r"))
"""Ctrl+C stops what the shell runs in the foreground, Ctrl+U clears the line, ``exit``."""


class ShellDriver(ExecutableDriver):
    id: ClassVar[str] = "shell"
    display_name: ClassVar[str] = "Shell (shell)"
    binary: ClassVar[str] = "sh"
    mcp_support: ClassVar[str] = "none"
    runs_commands: ClassVar[bool] = True
    takes_prompt: ClassVar[bool] = False

    def resolve(self, env: Mapping[str, str]) -> str | None:
        shell = env.get("SHELL", "")
        if shell and _is_executable_file(Path(shell)) and Path(shell).is_absolute():
            return shell
        return which(self.binary, env) or FALLBACK_SHELL

    def probe_version(self, env: Mapping[str, str], timeout: float = 3.0) -> str | None:
        return None

    def quit_keys_for(self, command: Sequence[str] | None) -> QuitKeys:
        """An interactive shell is left with ``exit``; a command (``exec``) with Ctrl+C."""
        return DOUBLE_CTRL_C if command else EXIT_SHELL

    def launch(self, request: LaunchRequest) -> LaunchSpec:
        if request.permission is Permission.READONLY:
            raise readonly_unsupported(self)
        env = self.environment(request)
        if not request.command:
            return LaunchSpec([self._shell(request.env)], env)
        program, *arguments = request.command
        path = _program_path(program, request)
        return LaunchSpec([path, *arguments], env)

    def _shell(self, env: Mapping[str, str]) -> str:
        return self.resolve(env) or FALLBACK_SHELL


def _program_path(program: str, request: LaunchRequest) -> str:
    """``program`` as an absolute path: looked up on PATH, or relative to the workspace."""
    details = {"program": program}
    if os.sep not in program:
        found = which(program, request.env)
        if found is None:
            raise NotFoundError(N_("program '{program}' not found"), program=program,
                                details=details)
        return found
    candidate = request.workdir / program
    if not candidate.is_file():
        raise NotFoundError(N_("program '{program}' not found"), program=program, details=details,
                            hint_key=N_("a path is read from the session's worktree root, not from "
                                        "the directory "
                                        "you are in") if not Path(program).is_absolute()
                            else None)
    if not os.access(candidate, os.X_OK):
        raise IOFailure(N_("program '{program}' is not executable"), program=program,
                        details=details,
                        hint_key=N_("make it executable: chmod +x {program}"))
    return str(candidate)


def _is_executable_file(path: Path) -> bool:
    return path.is_file() and os.access(path, os.X_OK)


# The gzia.drivers entry point names this instance, so every loader gets a ready driver.
driver = ShellDriver()
