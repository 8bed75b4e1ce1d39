"""What a driver is: the protocol every agent driver satisfies, and what it is asked and answers.

A driver only describes an agent: how to find it, how to ask its version, and which argv and
environment start it for a given request. It never starts anything itself (the supervisor
does) and knows nothing of sessions. Third-party drivers register under the ``gzia.drivers``
entry-point group; :class:`ExecutableDriver` gives them the PATH lookup, version probe and
"not available" error for free.
"""

from __future__ import annotations

import os
import re
import shutil
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import ClassVar, Protocol, runtime_checkable

from gzia import proc
from gzia.contract import (
    DriverNotFoundError,
    GzError,
    InvalidInputError,
    Permission,
    TimeoutFailure,
)
from gzia.i18n import N_

VERSION_PATTERN = re.compile(r"\d+(?:\.\d+)+(?:[-+.][0-9A-Za-z.-]+)?")
VERSION_LINE_LIMIT = 80
STATE_HOOKS = "hooks"
STATE_DETECTOR = "detector"
STATE_METHODS = (STATE_HOOKS, STATE_DETECTOR)
CONVERSATION_ID_PATTERN = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.:-]{0,127}")


@dataclass(frozen=True)
class LaunchRequest:
    """Everything a driver needs to build the command that starts (or resumes) an agent."""

    workdir: Path
    permission: Permission
    prompt: str | None
    conversation_id: str | None
    resume: bool
    env: Mapping[str, str]
    mcp_config: Path | None = None
    command: Sequence[str] | None = None
    state_hook: Sequence[str] | None = None
    """For a driver whose ``state_method`` is ``hooks``: the command the agent's hooks
    run, with the hook's JSON payload on stdin (gz-ia's ``__hook__`` form)."""
    state_plugin: Path | None = None
    """Where the driver's ``state_plugin_source`` was written (a file outside the
    worktree), for agents that load hooks as a plugin file (opencode)."""
    preapproved_tools: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    """MCP tools a supervised agent may call without asking, by server name (gz-ia's
    own read-only tools: docs/orchy.md); every other tool of that server still asks."""


@dataclass(frozen=True)
class StatePath:
    """A place where an agent keeps its own state (conversations, login): writable in a
    sandbox (docs/sandbox.md)."""

    path: Path
    directory: bool = True
    """A directory (created if missing, so the agent can write it), else one file (bound
    only when it exists)."""


@dataclass(frozen=True)
class QuitKeys:
    """How a person ends the agent from its terminal (``session stop``): each press is
    typed in turn, ``pause_s`` apart."""

    presses: tuple[bytes, ...]
    pause_s: float = 0.15

    def to_json(self) -> dict[str, object]:
        return {"presses": [p.decode("latin-1") for p in self.presses], "pause_s": self.pause_s}


DOUBLE_CTRL_C = QuitKeys((b"\x03", b"\x03"))
"""The first Ctrl+C interrupts or clears, the second quits (Claude Code, pi, most TUIs);
for a program that does not read the terminal raw, each is a SIGINT from the terminal."""


@dataclass(frozen=True)
class LaunchSpec:
    """The command to run: ``argv[0]`` is an absolute path; ``env`` is the complete environment."""

    argv: list[str]
    env: dict[str, str]


@runtime_checkable
class Driver(Protocol):
    """An agent driver. The four data members may be class attributes, attributes or properties."""

    @property
    def id(self) -> str: ...

    @property
    def display_name(self) -> str: ...

    @property
    def binary(self) -> str:
        """The executable looked up on PATH."""

    @property
    def mcp_support(self) -> str:
        """How MCP servers reach the agent: "flag", "env" or "none" (see docs/drivers.md)."""

    def install_hint(self) -> str: ...

    def resolve(self, env: Mapping[str, str]) -> str | None: ...

    def probe_version(self, env: Mapping[str, str], timeout: float = 3.0) -> str | None:
        """The version the agent reports, or None; raises
        :class:`~gzia.contract.TimeoutFailure` when it does not answer within ``timeout``."""

    def new_conversation_id(self) -> str | None: ...

    def launch(self, request: LaunchRequest) -> LaunchSpec: ...


def which(binary: str, env: Mapping[str, str]) -> str | None:
    """Absolute path of ``binary`` looked up on the ``PATH`` of ``env`` (not gz-ia's own)."""
    search_path = env.get("PATH", os.defpath)
    found = shutil.which(binary, path=search_path)
    return str(Path(found).absolute()) if found is not None else None


def probe_version(path: str, env: Mapping[str, str], timeout: float) -> str | None:
    """Run ``<path> --version`` with a deadline; the version it reports, or None.

    An agent that outlives ``timeout`` is killed with its process group, and
    :class:`~gzia.contract.TimeoutFailure` raised.
    """
    try:
        completed = proc.run([path, "--version"], env=env, timeout=timeout)
    except TimeoutFailure:
        raise
    except (GzError, OSError):
        return None
    if not completed.ok:
        return None
    return parse_version(completed.stdout) or parse_version(completed.stderr)


def parse_version(text: str) -> str | None:
    """The version number in a ``--version`` output, else its first line (bounded)."""
    first_line = next((line.strip() for line in text.splitlines() if line.strip()), "")
    if not first_line:
        return None
    match = VERSION_PATTERN.search(first_line)
    return match.group(0) if match else first_line[:VERSION_LINE_LIMIT]


def without(env: Mapping[str, str], names: Sequence[str]) -> dict[str, str]:
    """A copy of ``env`` without the variables in ``names``."""
    return {key: value for key, value in env.items() if key not in names}


AGENT_FLUSH_GRACE_MS = 2000
"""The grace Claude Code and opencode declare: both are Node/Bun programs that write their
conversation (a JSONL transcript, a SQLite database) and stop their MCP servers on
SIGTERM; 100 ms cuts that short. 2 s is what peer harnesses give agents between SIGTERM
and SIGKILL (docs/drivers.md, "Stopping")."""


class ExecutableDriver:
    """Shared behaviour of drivers that run one executable found on PATH.

    Subclasses set the class attributes and implement :meth:`arguments` (the argv after the
    binary); they may override :meth:`environment` and :meth:`install_hint`.
    """

    id: ClassVar[str]
    display_name: ClassVar[str]
    binary: ClassVar[str]
    mcp_support: ClassVar[str] = "none"
    unset_env: ClassVar[tuple[str, ...]] = ()
    updates_off_env: ClassVar[dict[str, str]] = {}
    """The variables that switch off the agent's own updater (docs/drivers.md, "Updates"):
    sessions set them unless the ``agent_autoupdate`` setting is true."""
    other_binaries: ClassVar[tuple[str, ...]] = ()
    """Other names the agent's executable goes by, looked up after ``binary``."""
    runs_commands: ClassVar[bool] = False
    """Whether ``LaunchRequest.command`` means something to this driver (``gz-ia exec``)."""
    takes_prompt: ClassVar[bool] = True
    """Whether the agent is given ``LaunchRequest.prompt`` (``chat`` asks for one)."""
    quit_keys: ClassVar[QuitKeys] = DOUBLE_CTRL_C
    """What ``session stop`` types to end the agent as a person would."""

    def quit_keys_for(self, command: Sequence[str] | None) -> QuitKeys:
        """The keys that end this agent (``command``: what an ``exec`` session runs)."""
        return self.quit_keys
    state_method: ClassVar[str] = STATE_DETECTOR
    """How gz-ia learns the agent's state: ``hooks`` (the agent reports it through
    ``LaunchRequest.state_hook``; the driver maps payloads with ``hook_state``) or
    ``detector`` (the kernel's view of its terminal, docs/sessions.md)."""
    blocked_state: ClassVar[str] = "idle"
    """What the detector calls an agent blocked reading its terminal: ``idle`` (its
    turn is over) or ``waiting`` (it asks the person)."""
    kill_grace_ms: ClassVar[int | None] = None
    """A longer grace between SIGTERM and SIGKILL its agent needs to save its state (``None``:
    the ``kill_grace_ms`` setting's; see :func:`kill_grace_of`)."""
    sandbox_hosts: ClassVar[tuple[str, ...]] = ()
    """The hosts the agent's model API answers on: a sandbox in allowlist mode lets it reach
    these (docs/sandbox.md)."""

    def sandbox_state(self, env: Mapping[str, str]) -> tuple[StatePath, ...]:
        """Where the agent keeps its conversations and login: writable in a sandbox."""
        return ()

    quit_signals: ClassVar[frozenset[int]] = frozenset()
    """Signals the agent dies of when the person quits it its own way (opencode's Ctrl+C):
    such an end is a completed session, not a killed one (:func:`quit_signals_of`)."""

    def install_hint(self) -> str:
        return ""

    def resolve(self, env: Mapping[str, str]) -> str | None:
        found = (which(name, env) for name in (self.binary, *self.other_binaries))
        return next((path for path in found if path is not None), None)

    def probe_version(self, env: Mapping[str, str], timeout: float = 3.0) -> str | None:
        path = self.resolve(env)
        return probe_version(path, env, timeout) if path is not None else None

    def new_conversation_id(self) -> str | None:
        return None

    def launch(self, request: LaunchRequest) -> LaunchSpec:
        path = self.resolve(request.env)
        if path is None:
            raise self.not_available()
        return LaunchSpec([path, *self.arguments(request)], self.environment(request))

    def arguments(self, request: LaunchRequest) -> list[str]:
        raise NotImplementedError

    def environment(self, request: LaunchRequest) -> dict[str, str]:
        return without(request.env, self.unset_env)

    def not_available(self) -> DriverNotFoundError:
        return driver_not_found(self)


def state_method(driver: Driver) -> str:
    """``hooks`` or ``detector`` (optional member; default: the detector)."""
    method = getattr(driver, "state_method", STATE_DETECTOR)
    return method if method in STATE_METHODS else STATE_DETECTOR


def blocked_state(driver: Driver) -> str:
    """``idle`` or ``waiting`` (optional member; default: idle)."""
    state = getattr(driver, "blocked_state", "idle")
    return state if state in ("idle", "waiting") else "idle"


def runs_commands(driver: Driver) -> bool:
    """Whether ``driver`` runs a given command (optional member; default: no)."""
    return bool(getattr(driver, "runs_commands", False))


def is_agent(driver: Driver) -> bool:
    """Whether ``driver`` runs an agent: every driver but a command driver (one that runs
    a given command, :func:`runs_commands`, like ``shell``)."""
    return not runs_commands(driver)


def kill_grace_of(driver: Driver) -> int | None:
    """The grace (ms) a driver declares for its agent, if it asks for one."""
    grace = getattr(driver, "kill_grace_ms", None)
    return grace if isinstance(grace, int) and grace >= 0 else None


def sandbox_state_of(driver: Driver, env: Mapping[str, str]) -> tuple[StatePath, ...]:
    """Where ``driver``'s agent keeps its state (optional member; default: nowhere)."""
    declared = getattr(driver, "sandbox_state", None)
    found = declared(env) if callable(declared) else ()
    return tuple(item for item in found if isinstance(item, StatePath))


def sandbox_hosts_of(driver: Driver) -> tuple[str, ...]:
    """The model API hosts ``driver``'s agent talks to (optional member; default: none)."""
    hosts = getattr(driver, "sandbox_hosts", ()) or ()
    return tuple(host for host in hosts if isinstance(host, str))


def quit_signals_of(driver: Driver) -> frozenset[int]:
    """The signals a driver's agent dies of when the person quits it (see ExecutableDriver)."""
    return frozenset(getattr(driver, "quit_signals", ()) or ())
def quit_keys(driver: Driver, command: Sequence[str] | None) -> QuitKeys:
    """What ``session stop`` types to end ``driver``'s agent (optional member; default:
    :data:`DOUBLE_CTRL_C`)."""
    declared = getattr(driver, "quit_keys_for", None)
    keys = declared(command) if callable(declared) else None
    return keys if isinstance(keys, QuitKeys) else DOUBLE_CTRL_C


def takes_prompt(driver: Driver) -> bool:
    """Whether ``driver`` gives a prompt to its agent (optional member; default: yes)."""
    return bool(getattr(driver, "takes_prompt", True))


def driver_not_found(driver: Driver) -> DriverNotFoundError:
    """The error for an agent that is not on PATH (exit 1, ``DRIVER_NOT_FOUND``)."""
    hint = driver.install_hint()
    names = (driver.binary, *getattr(driver, "other_binaries", ()))
    named = driver.display_name.endswith(f"({', '.join(names)})")  # 'Claude Code (claude)'
    return DriverNotFoundError(
        N_("agent '{name}' is not available on PATH.") if named
        else N_("agent '{name}' ({binary}) is not available on PATH."),
        hint_key=N_("Install: {hint}") if hint else None,
        details={"provider": driver.id, "binary": driver.binary, "install_hint": hint or None},
        name=driver.display_name,
        binary=", ".join(names),
        hint=hint,
    )



def checked_conversation_id(driver_id: str, conversation_id: str) -> str:
    """Refuse ids that could be read as something else (an option, a path, a second word)."""
    if CONVERSATION_ID_PATTERN.fullmatch(conversation_id) is None:
        raise InvalidInputError(
            N_("invalid conversation id for {provider}: '{conversation_id}'"),
            details={"provider": driver_id, "conversation_id": conversation_id},
            provider=driver_id,
            conversation_id=conversation_id,
        )
    return conversation_id


def readonly_unsupported(driver: Driver) -> GzError:
    """Read-only is a promise: a driver that cannot keep it refuses (exit 2)."""
    return InvalidInputError(
        N_("agent '{name}' cannot be restricted to read-only; choose supervised or autonomous"),
        details={"provider": driver.id, "permission": Permission.READONLY.value},
        name=driver.display_name,
    )


def guarded_positional(prompt: str, reserved: frozenset[str], markers: tuple[str, ...]) -> str:
    """A prompt given as a positional argument that the agent cannot mistake for anything else.

    A prompt equal to one of the agent's subcommands, or starting with one of ``markers``
    (``-`` for an option, ``@`` for a file include), gets one leading space: the agent
    then reads it as text, and the model sees the same words.
    """
    if prompt.strip() in reserved or prompt.startswith(markers):
        return " " + prompt
    return prompt
