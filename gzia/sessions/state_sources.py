"""Where a run's agent states come from, by driver: the agent's own hooks (Claude Code's
``--settings``, opencode's plugin) or, for an agent without them, the kernel detector.
Both report through :func:`gzia.sessions.agent_state.record_transition`."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from gzia.atomic import write_atomic
from gzia.drivers.base import STATE_HOOKS, Driver, blocked_state, state_method
from gzia.selfexec import HOOK_ARG, gzia_argv
from gzia.sessions.agent_state import AgentState, record_transition
from gzia.sessions.store import SessionStore
from gzia.sessions.workspace import ensure_excluded
from gzia.supervisor.activity import Activity, ActivityWatch


@dataclass(frozen=True)
class StateHooks:
    """What a hook-reporting agent is given: the command its hooks run, and the plugin
    file written for it (``None`` for an agent that takes the command in its flags)."""

    argv: tuple[str, ...]
    plugin: Path | None = None


def hook_args(store: SessionStore, session_id: str, driver: Driver) -> tuple[str, ...]:
    """What a state hook runs gz-ia with (:mod:`gzia.sessions.agent_hooks`)."""
    return HOOK_ARG, str(store.project.root), session_id, driver.id


def state_hooks(store: SessionStore, session_id: str, driver: Driver,
                gzia: Sequence[str] | None = None) -> StateHooks | None:
    """The hooks of a driver that reports through them, else ``None``. A plugin file goes
    under ``.harness/hooks`` (mode 0600), outside the worktree: nothing reaches the
    user's branch or config. ``gzia``: what runs gz-ia (a sandbox's relay), if not this
    same gz-ia."""
    if state_method(driver) != STATE_HOOKS:
        return None
    argv = (*(gzia_argv() if gzia is None else gzia), *hook_args(store, session_id, driver))
    source = getattr(driver, "state_plugin_source", None)
    if source is None:
        return StateHooks(argv)
    if store.project.is_git:
        ensure_excluded(store.project)
    path = store.state_plugin_path(session_id)
    path.parent.mkdir(parents=True, exist_ok=True)
    write_atomic(path, source(argv).encode("utf-8"), mode=0o600)
    return StateHooks(argv, path)


def detector_watch(store: SessionStore, session_id: str, driver: Driver) -> ActivityWatch | None:
    """The kernel detector for a driver that declares it (``None`` for hook drivers):
    blocked reading the terminal is the driver's ``blocked_state``, else ``working``."""
    if state_method(driver) == STATE_HOOKS:
        return None
    blocked = AgentState(blocked_state(driver))

    def report(activity: Activity) -> None:
        state = blocked if activity is Activity.BLOCKED else AgentState.WORKING
        record_transition(store, session_id, state, source="detector")

    return ActivityWatch(report)
