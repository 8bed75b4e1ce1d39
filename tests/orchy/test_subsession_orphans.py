"""A sub-session whose parent died unseen (its holder killed with SIGKILL from outside) is
stopped by its own holder, its own children first (docs/orchy.md, "Sub-sessions"): real
background sessions in process groups, started through the official MCP SDK client."""

from __future__ import annotations

import json
import os
import signal
import time
from collections.abc import Callable
from pathlib import Path

import anyio
import pytest

from tests.orchy.test_subsessions import (
    DEADLINE,
    _group_alive,
    _start_parent,
    call,
    orchy,
    record,
    root,
    script,
)
from tests.supervisor.fakes import pid_running

__all__ = ["root"]

MESSAGE = {"en": "parent session {parent} was lost: stopping its sub-session",
           "es": "la sesión padre {parent} se perdió: se detiene su sub-sesión"}


def _wait_until(check: Callable[[], bool], what: str) -> None:
    deadline = time.monotonic() + DEADLINE
    while time.monotonic() < deadline:
        if check():
            return
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what}")


@pytest.mark.parametrize("lang", ["en", "es"])
def test_a_parent_killed_unseen_takes_its_children_down(root: Path, tmp_path: Path,
                                                        lang: str) -> None:
    parent = _start_parent(root, tmp_path)
    forker = script(tmp_path, "forker", "sleep 300 &\nwait\n")
    env = {"GZ_STOP_TIMEOUT": "2", "GZ_LANG": lang}
    children: list[str] = []

    async def scenario() -> None:
        async with orchy(root, session=parent, env=env) as client:
            children.append((await call(client, "session_start", {"command": [forker]}))["id"])
        async with orchy(root, session=children[0], env=env) as client:
            children.append((await call(client, "session_start", {"command": [forker]}))["id"])

    anyio.run(scenario)
    groups = [record(root, child).pgid for child in children]
    assert all(groups)
    holder = record(root, parent).holder
    assert holder is not None

    os.kill(holder.pid, signal.SIGKILL)  # nobody is told: no kill, no stop, no watchdog

    for child, group in zip(children, groups, strict=True):
        _wait_until(lambda c=child: not record(root, c).is_running, f"{child} to end")
        _wait_until(lambda g=group: not _group_alive(g), f"{child}'s process group to end")
        child_holder = record(root, child).holder
        assert child_holder is not None
        _wait_until(lambda p=child_holder.pid: not pid_running(p), f"{child}'s holder to end")
    assert record(root, parent).status == "lost"
    events = [json.loads(line) for line in (
        root / ".harness" / "sessions" / f"{children[0]}.events.jsonl").read_text().splitlines()]
    assert MESSAGE[lang].format(parent=parent) in [event.get("action") for event in events]

