"""The agent's own hooks report its state: ``gz-ia __hook__ <root> <id> <agent>``.

The agent (Claude Code's settings hooks, opencode's plugin) starts this with the hook's
JSON payload on stdin. It imports little (no click, no registry scan, no git: the
project root is given), maps the payload to a state through the driver
(``driver.hook_state(payload)``), and records it with
:func:`gzia.sessions.agent_state.record_transition`. It prints nothing (a
``UserPromptSubmit`` hook's output would reach the model) and always exits 0: a report
that fails never disturbs the agent.
"""

from __future__ import annotations

import importlib
import json
import sys
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

MAX_PAYLOAD_BYTES = 256 * 1024
_BUILT_IN = {"claude": "gzia.drivers.claude", "opencode": "gzia.drivers.opencode"}


def hook_main(args: Sequence[str]) -> int:
    try:
        report(args, sys.stdin.buffer.read(MAX_PAYLOAD_BYTES))
    except Exception:  # the agent must never see a failed hook
        return 0
    return 0


def report(args: Sequence[str], raw: bytes) -> str | None:
    """Record what the payload says; the state recorded, else ``None``."""
    root, session_id, agent = args
    payload = json.loads(raw or b"{}")
    if not isinstance(payload, Mapping):
        return None
    found = _driver(agent).hook_state(payload)
    if found is None:
        return None
    state, reason = found
    at = _acted_at(payload.get("at"))
    # lazy: the hook's start-up (it runs once per agent action, and reads first)
    from gzia.sessions.agent_state import record_transition
    from gzia.sessions.project import Project
    from gzia.sessions.store import SessionStore

    store = SessionStore(Project(root=Path(root), is_git=False))
    done = record_transition(store, session_id, state, reason=reason, source="hook", at=at)
    return done.state.value if done is not None else None


def _acted_at(value: object) -> float | None:
    """When the agent acted, where its hook says (opencode's plugin), if plausible."""
    if not isinstance(value, int | float) or isinstance(value, bool):
        return None
    return float(value) if 0 < value < time.time() + 60 else None


def _driver(agent: str) -> Any:
    module = _BUILT_IN.get(agent)
    if module is not None:
        return importlib.import_module(module).driver
    from gzia.drivers.registry import get_driver  # lazy: the hook's start-up

    return get_driver(agent)
