"""What a run is asked to do (:class:`SessionRequest`) and what it returns
(:class:`SessionRun`, :class:`RunEnd`): the types callers of :mod:`.runner` hold."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING

from gzia.contract import Permission, TerminationRequested, stop_request
from gzia.drivers.base import Driver
from gzia.sessions.background import BackgroundOptions
from gzia.sessions.record import SessionRecord
from gzia.sessions.workspace import Workspace

if TYPE_CHECKING:
    from gzia.sessions.idempotency import Reused
    from gzia.sessions.merge import ConflictHandoff

LaunchCallback = Callable[[SessionRecord, Workspace], None]


@dataclass(frozen=True)
class SessionRequest:
    directory: str | Path | None
    driver: Driver
    permission: Permission
    prompt: str | None = None
    command: Sequence[str] | None = None
    mode: str = "chat"
    pty: bool = False
    output_to_stderr: bool = False
    """Send the agent's stdout to gz-ia's stderr (JSON mode keeps stdout for the envelope)."""
    mcp_server: Sequence[str] | None = None
    """How to start this gz-ia: when set, agents that accept MCP configuration get the
    session's ``gz-ia mcp`` server (:mod:`gzia.sessions.mcp_wiring`)."""
    background: BackgroundOptions | None = None
    """Run under a detached holder and return once the agent runs (``-b``)."""
    allow_push: bool = False
    """Lift the guardrail's refusal of ``git push`` (:mod:`gzia.sessions.guard`)."""
    labels: Mapping[str, str] | None = None
    idempotency_key: str | None = None
    """While a session holding this key exists, the start returns it instead."""
    profiles: tuple[str, ...] = ()
    """Profiles projected into the worktree for this run (:mod:`gzia.sessions.projection`)."""
    name: str | None = None
    """``--name``: what a person calls the session (checked: :mod:`gzia.sessions.naming`)."""
    direct: bool = False
    """``--direct``: outside a git work tree, run in the directory itself (the ``direct``
    setting allows it too: :func:`gzia.sessions.run_settings.direct_allowed`)."""
    notify: bool = True
    """False: ``--no-notify``, the session sends no notification (kept on resume)."""
    sandbox: bool = False
    """Run the agent in a bubblewrap sandbox (:mod:`gzia.sessions.sandboxing`)."""
    base: str | None = None
    """``--base``: what a new session branches from (:mod:`gzia.sessions.base_ref`)."""
    fetch: bool = False
    """``--fetch``: fetch the base branch first and branch from the fetched one."""
    conflict: ConflictHandoff | None = None
    """``--resolve-with-agent``: this session resolves a session's conflict with its base
    (it branches from that session and starts with the base merged in)."""
    skip_setup: bool = False
    """``--skip-setup``: the new worktree's set-up is not run (:mod:`..worktree_setup`)."""
    preapproved_tools: tuple[str, ...] = ()
    """gz-ia's own tools a supervised agent calls without asking (gzia.orchy.preapproved)."""
    parent_id: str | None = None
    """A sub-session's parent (:mod:`gzia.sessions.children`), kept in the record."""
    base_dir: Path | None = None
    """The work tree whose current commit the new worktree branches from (a sub-session:
    its parent's worktree); ``None``: the project's base (:mod:`gzia.sessions.project`)."""


class RunEnd(Enum):
    """How a foreground run ended for gz-ia; the exit code for each is the contract's
    (:func:`gzia.contract.classify` of the error :mod:`gzia.cli.run_report` raises)."""

    COMPLETED = "completed"
    """The agent completed (or a background start, or the idempotency key's session)."""
    AGENT_FAILED = "agent_failed"
    """The agent exited with a non-zero code, or died of a signal nobody asked for."""
    TIMED_OUT = "timed_out"
    """A watchdog stopped it; which one is the record's ``end_reason``."""
    INTERRUPTED = "interrupted"
    """SIGINT: Ctrl+C to gz-ia (during the run or while it recorded), or to the agent."""
    TERMINATED = "terminated"
    """SIGTERM/SIGHUP to gz-ia, SIGTERM to the agent, or ``gz-ia session kill``."""

    @classmethod
    def stopped_by(cls, signum: int) -> RunEnd:
        """gz-ia's own stop signal: the same split as :func:`gzia.contract.stop_request`."""
        stop = stop_request(signum)
        return cls.TERMINATED if isinstance(stop, TerminationRequested) else cls.INTERRUPTED


@dataclass(frozen=True)
class SessionRun:
    record: SessionRecord
    end: RunEnd
    """How the run ended (the agent's own code is in the record)."""
    reused: Reused | None = None
    """Set when the idempotency key's existing session answered instead of a new run."""
