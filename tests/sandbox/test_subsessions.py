"""A sub-session of a sandboxed session is sandboxed, never more loosely than its parent
(docs/sandbox.md, "Sub-sessions"): real bubblewrap, a real ``gz-ia mcp`` driven by the
official MCP SDK client, children as real background sessions."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import Any

import anyio

from gzia.sessions.project import find_project
from gzia.sessions.store import SessionStore
from tests.orchy.conftest import GZ_IA
from tests.orchy.test_subsessions import (
    DEADLINE,
    PARENT,
    call,
    orchy,
    record,
    refused,
    root,
    script,
)
from tests.sandbox.test_refusal import _path_without_bwrap

__all__ = ["root"]


def _sandbox_parent(repo: Path, sandbox: dict[str, Any]) -> None:
    SessionStore(find_project(repo)).update(PARENT, lambda r: setattr(r, "sandbox", sandbox))


def _start(repo: Path, asked: dict[str, Any], env: dict[str, str] | None = None) -> str:
    """Start a child, wait for its end; its output."""
    text = ""

    async def scenario() -> None:
        nonlocal text
        async with orchy(repo, env=env) as client:
            child = (await call(client, "session_start", asked))["id"]
            await call(client, "session_wait", {"ids": [child], "timeout": DEADLINE})
            text = (await call(client, "session_output", {"id": child}))["text"]

    anyio.run(scenario)
    return text


def _child(repo: Path) -> Any:
    (child,) = [r for r in SessionStore(find_project(repo)).list().records
                if r.parent_id == PARENT]
    return child


def test_a_sandboxed_parents_child_runs_in_a_sandbox_at_least_as_strict(
        root: Path, tmp_path: Path) -> None:
    secret = root / "private"  # seen read-only with the project, unless hidden
    secret.mkdir()
    (secret / "key").write_text("hunter2\n")
    parent_tree = root / ".harness" / "worktrees" / PARENT
    _sandbox_parent(root, {"network": "none", "rw": [str(parent_tree.resolve())],
                           "hidden": [str(secret.resolve())]})
    escaped = root / "escaped.txt"
    worker = script(root, "worker",  # in the project: the sandbox's /tmp is its own
                    f'if echo x > {escaped} 2>/dev/null; then echo "outside: written"; '
                    f'else echo "outside: refused"; fi\n'
                    f'echo "secret: $(cat {secret}/key 2>/dev/null)"\n'
                    'echo child > child.txt\n')

    text = _start(root, {"command": [worker]}, env={"GZ_SANDBOX_NETWORK": "host"})

    child = _child(root)
    assert child.sandbox is not None
    assert child.sandbox["network"] == "none"  # the parent's, not the looser setting
    assert str(secret.resolve()) in child.sandbox["hidden"]
    assert "outside: refused" in text
    assert "secret:" in text and "hunter2" not in text
    assert not escaped.exists()
    assert (root / ".harness" / "worktrees" / child.id / "child.txt").read_text() == "child\n"


def test_an_allowlist_parent_gives_its_hosts_and_no_wider_writable_paths(
        root: Path, tmp_path: Path) -> None:
    parent_tree = (root / ".harness" / "worktrees" / PARENT).resolve()
    shared, other = tmp_path / "shared", tmp_path / "other"
    shared.mkdir()
    other.mkdir()
    _sandbox_parent(root, {"network": "allowlist", "hosts": ["parent.example"],
                           "rw": [str(parent_tree), str(shared.resolve())], "hidden": []})
    env = {"GZ_SANDBOX_NETWORK": "host", "GZ_SANDBOX_ALLOW_HOSTS": "child.example",
           "GZ_SANDBOX_RW": f"{shared} {other}"}

    _start(root, {"command": [script(root, "worker", "true\n")]}, env=env)

    sandbox = _child(root).sandbox
    assert (sandbox["network"], sandbox["hosts"]) == ("allowlist", ["parent.example"])
    assert str(shared.resolve()) in sandbox["rw"]
    assert str(other.resolve()) not in sandbox["rw"]


def test_an_unsandboxed_parents_child_follows_the_sandbox_setting(
        root: Path, tmp_path: Path) -> None:
    worker = script(root, "worker", "true\n")

    _start(root, {"command": [worker]})
    assert _child(root).sandbox is None

    _start(root, {"command": [worker], "name": "again"},
           env={"GZ_SANDBOX": "1", "GZ_SANDBOX_NETWORK": "none"})
    again = [r for r in SessionStore(find_project(root)).list().records if r.name == "again"]
    assert again[0].sandbox is not None and again[0].sandbox["network"] == "none"


def test_a_start_argument_cannot_lift_the_sandbox_and_no_bwrap_refuses_it(
        root: Path, tmp_path: Path) -> None:
    _sandbox_parent(root, {"network": "none", "rw": [], "hidden": []})
    worker = script(root, "worker", "true\n")

    async def scenario() -> None:
        async with orchy(root) as client:
            problem = await client.call_tool("session_start",
                                             {"command": [worker], "sandbox": False})
            assert problem.is_error
        async with orchy(root, env={"PATH": _path_without_bwrap(tmp_path)}) as client:
            refusal = await refused(client, "session_start", {"command": [worker]})
            assert (refusal["code"], refusal["details"]) == ("NOT_FOUND", {"program": "bwrap"})

    anyio.run(scenario)
    assert [r for r in SessionStore(find_project(root)).list().records
            if r.parent_id == PARENT] == []
    assert record(root, PARENT).sandbox is not None


def test_a_resumed_child_keeps_its_parents_floor(root: Path) -> None:
    _sandbox_parent(root, {"network": "none", "rw": [], "hidden": []})
    _start(root, {"command": [script(root, "worker", "true\n")]})
    child = _child(root).id

    resumed = subprocess.run([*GZ_IA, "--json", "resume", child], cwd=root, capture_output=True,
                             text=True, timeout=DEADLINE, check=False,
                             env={**os.environ, "GZ_SANDBOX_NETWORK": "host"})

    assert resumed.returncode == 0, resumed.stderr
    assert json.loads(resumed.stdout)["data"]["sandbox"]["network"] == "none"
    assert record(root, child).sandbox["network"] == "none"
