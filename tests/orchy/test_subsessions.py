"""Sub-sessions through Orchy, driven by the official MCP SDK client against a real
``gz-ia mcp`` server: children are real background sessions (holders, PTYs, process
groups) running small stand-in scripts in worktrees branched from their parent's."""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import anyio
import pytest

from gzia.sessions.project import find_project
from gzia.sessions.record import SessionRecord
from gzia.sessions.store import SessionStore
from tests.orchy.conftest import GZ_IA, mcp_session
from tests.sessions.session_testkit import commit_file, make_repo, make_session, run_git
from tests.supervisor.fakes import pid_running

PARENT = "a1b2c3d4"
DEADLINE = 60.0


@pytest.fixture
def root(tmp_path: Path) -> Iterator[Path]:
    """A project with a finished parent session whose worktree holds a commit of its own;
    every session still running at the end is killed, and must then be gone."""
    repo = make_repo(tmp_path / "repo")
    make_session(find_project(repo), PARENT)
    commit_file(repo / ".harness" / "worktrees" / PARENT, "parent.txt", "from parent\n")
    yield repo
    stop_every_running(repo)


def stop_every_running(repo: Path) -> None:
    """Stop every session still running in ``repo``; each must then end."""
    _kill_running(repo)
    deadline = time.monotonic() + DEADLINE
    while _running(repo) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not _running(repo)


def _running(repo: Path) -> list[str]:
    from gzia.sessions.reconcile import list_sessions

    store = SessionStore(find_project(repo))
    return [r.id for r in list_sessions(store).records if r.is_running]


def _kill_running(repo: Path) -> None:
    from gzia.sessions.stopping import stop_session

    store = SessionStore(find_project(repo))
    for session_id in _running(repo):
        with contextlib.suppress(Exception):
            stop_session(store, session_id)


def script(tmp_path: Path, name: str, body: str) -> str:
    path = tmp_path / name
    path.write_text("#!/bin/sh\n" + body)
    path.chmod(0o755)
    return str(path)


ECHOER = 'echo ready\nwhile read -r line; do echo "got: $line"; ' \
         '[ "$line" = quit ] && exit 0; done\n'


@asynccontextmanager
async def orchy(root: Path, session: str = PARENT,
                env: dict[str, str] | None = None) -> AsyncIterator[Any]:
    async with mcp_session(GZ_IA, "--session", session, "-d", str(root), "--tool-timeout", "120",
                           cwd=root, env=env) as client:
        yield client


async def call(client: Any, tool: str, args: dict[str, Any]) -> Any:
    result = await client.call_tool(tool, args)
    assert not result.is_error, result.content[0].text
    return json.loads(result.content[0].text)


async def refused(client: Any, tool: str, args: dict[str, Any]) -> dict[str, Any]:
    result = await client.call_tool(tool, args)
    assert result.is_error, result.content[0].text
    problem: dict[str, Any] = json.loads(result.content[0].text)
    return problem


async def until(check: Callable[[], Any], what: str) -> Any:
    deadline = time.monotonic() + DEADLINE
    while time.monotonic() < deadline:
        value = await check()
        if value:
            return value
        await anyio.sleep(0.1)
    raise AssertionError(f"timed out waiting for {what}")


def record(root: Path, session_id: str) -> SessionRecord:
    return SessionStore(find_project(root)).load(session_id)


def test_start_wait_status_output_children_and_merge_into_parent(root: Path,
                                                                  tmp_path: Path) -> None:
    worker = script(tmp_path, "worker", 'echo "child sees: $(cat parent.txt)"\n'
                                        'echo child > child.txt\n')
    parent_tree = root / ".harness" / "worktrees" / PARENT
    parent_head = run_git(parent_tree, "rev-parse", "HEAD").strip()
    main_head = run_git(root, "rev-parse", "main").strip()

    async def scenario() -> None:
        async with orchy(root) as client:
            started = await call(client, "session_start", {"command": [worker], "name": "w",
                                                           "labels": {"task": "t1"}})
            child = started["id"]
            assert (started["reused"], started["session"]["parent_id"]) == (False, PARENT)
            waited = await call(client, "session_wait", {"ids": [child], "timeout": DEADLINE})
            assert waited == {"all_succeeded": True, "timed_out": False, "sessions": [
                {"id": child, "status": "completed", "exit_code": 0,
                 "end_reason": "process_exit", "deleted": False}]}
            status = await call(client, "session_status", {"ids": [child]})
            assert status == {"sessions": [{
                "id": child, "name": "w", "status": "completed", "state": "exited",
                "exit_code": 0, "end_reason": "process_exit", "branch": f"harness/{child}",
                "files": ["child.txt"], "diff_stat": status["sessions"][0]["diff_stat"]}]}
            assert "child.txt" in status["sessions"][0]["diff_stat"]
            output = await call(client, "session_output", {"id": child})
            assert "child sees: from parent" in output["text"]
            listed = await call(client, "session_children", {})
            assert [(s["id"], s["status"]) for s in listed["sessions"]] == [(child, "completed")]
            merged = await call(client, "session_merge_into_parent", {"id": child})
            assert (merged["into"], merged["files"]) == (f"harness/{PARENT}", ["child.txt"])

    anyio.run(scenario)
    child_record = next(r for r in SessionStore(find_project(root)).list().records
                        if r.parent_id == PARENT)
    assert (child_record.base_commit, child_record.base_branch) == (parent_head,
                                                                    f"harness/{PARENT}")
    assert child_record.labels == {"task": "t1"}
    assert (parent_tree / "child.txt").read_text() == "child\n"
    assert run_git(root, "rev-parse", "main").strip() == main_head  # never touched


def test_send_types_into_a_child_and_stop_ends_it(root: Path, tmp_path: Path) -> None:
    echoer = script(tmp_path, "echoer", ECHOER)

    async def scenario() -> None:
        async with orchy(root) as client:
            child = (await call(client, "session_start", {"command": [echoer]}))["id"]

            async def said(text: str) -> bool:
                output = await call(client, "session_output", {"id": child, "tail": 20})
                return text in output["text"]

            await until(lambda: said("ready"), "the child to start")
            sent = await call(client, "session_send", {"id": child, "text": "hello"})
            assert sent == {"id": child, "bytes": 6}
            await until(lambda: said("got: hello"), "the child to read the text")
            stopped = await call(client, "session_stop", {"id": child})
            assert (stopped["id"], stopped["status"] != "running") == (child, True)

    anyio.run(scenario)


def test_tools_act_on_the_sessions_own_children_only(root: Path) -> None:
    other = "0f0f0f0f"
    make_session(find_project(root), other)

    async def scenario() -> None:
        async with orchy(root) as client:
            for tool, args in (("session_status", {"ids": [other]}),
                               ("session_output", {"id": other}),
                               ("session_stop", {"id": PARENT}),
                               ("session_merge_into_parent", {"id": other})):
                problem = await refused(client, tool, args)
                assert (problem["code"], problem["details"]) == (
                    "INVALID_INPUT", {"id": problem["details"]["id"], "parent_id": PARENT})
            for bad, message in (
                ({}, "give either provider (an agent) or command (a program and its "
                     "arguments), not both and not neither"),
                ({"command": []}, "argument 'command' must be a list of 1 to 4096 non-empty "
                                  "strings"),
                ({"command": ["true"], "timeout": -1},
                 "argument 'timeout' must be a number of seconds greater than 0 and at most "
                 "86400"),
                ({"command": ["true"], "labels": {"k": 1}},
                 "argument 'labels' must map names to strings")):
                problem = await refused(client, "session_start", bad)
                assert (problem["code"], problem["message"]) == ("INVALID_INPUT", message)
            assert (await call(client, "session_children", {})) == {"sessions": []}

    anyio.run(scenario)


def test_caps_refuse_fan_out_project_total_and_depth(root: Path, tmp_path: Path) -> None:
    echoer = script(tmp_path, "echoer", ECHOER)
    caps = {"GZ_SUBSESSION_MAX_CHILDREN": "2", "GZ_SUBSESSION_MAX_RUNNING": "3",
            "GZ_SUBSESSION_MAX_DEPTH": "1"}

    async def scenario() -> None:
        async with orchy(root, env=caps) as client:
            first = (await call(client, "session_start", {"command": [echoer]}))["id"]
            await call(client, "session_start", {"command": [echoer]})
            problem = await refused(client, "session_start", {"command": [echoer]})
            assert problem == {
                "code": "SAFETY_BLOCK", "retryable": False,
                "message": f"session '{PARENT}' already has 2 sub-sessions running, the most it "
                           "may have (subsession_max_children: 2)",
                "hint": "wait for a sub-session to end (session_wait), or stop one "
                        "(session_stop)",
                "details": {"cap": "children", "id": PARENT, "limit": 2, "current": 2}}
        async with orchy(root, session=first, env=caps) as child_client:
            problem = await refused(child_client, "session_start", {"command": [echoer]})
            assert (problem["code"], problem["details"]) == (
                "SAFETY_BLOCK", {"cap": "depth", "id": first, "limit": 1, "current": 1})
        make_session(find_project(root), "5e5e5e5e")
        async with orchy(root, session="5e5e5e5e", env=caps) as other:
            await call(other, "session_start", {"command": [echoer]})
            problem = await refused(other, "session_start", {"command": [echoer]})
            assert (problem["code"], problem["details"]) == (
                "SAFETY_BLOCK", {"cap": "project", "id": "5e5e5e5e", "limit": 3, "current": 3})

    anyio.run(scenario)


@pytest.mark.parametrize(("lang", "message"), [
    ("en", f"session '{PARENT}' already has 0 sub-sessions running, the most it may have "
           "(subsession_max_children: 0)"),
    ("es", f"la sesión '{PARENT}' ya tiene 0 sub-sesiones en ejecución, el máximo que puede "
           "tener (subsession_max_children: 0)"),
])
def test_a_refused_start_speaks_the_users_language(root: Path, lang: str, message: str) -> None:
    async def scenario() -> None:
        env = {"GZ_SUBSESSION_MAX_CHILDREN": "0", "GZ_LANG": lang}
        async with orchy(root, env=env) as client:
            problem = await refused(client, "session_start", {"command": ["true"]})
            assert (problem["code"], problem["message"]) == ("SAFETY_BLOCK", message)

    anyio.run(scenario)


def test_a_child_is_never_looser_than_its_parent(root: Path, tmp_path: Path) -> None:
    worker = script(tmp_path, "worker", "true\n")

    async def scenario() -> None:
        async with orchy(root) as client:
            problem = await refused(client, "session_start",
                                    {"command": [worker], "permission": "autonomous"})
            assert (problem["code"], problem["details"]) == (
                "SAFETY_BLOCK", {"cap": "permission", "asked": "autonomous",
                                 "parent": "supervised"})
            started = await call(client, "session_start", {"command": [worker]})
            assert started["session"]["permission_level"] == "supervised"
            await call(client, "session_wait", {"ids": [started["id"]], "timeout": DEADLINE})

    anyio.run(scenario)


def test_a_retried_start_with_the_same_key_returns_the_same_child(root: Path,
                                                                   tmp_path: Path) -> None:
    echoer = script(tmp_path, "echoer", ECHOER)
    asked = {"command": [echoer], "idempotency_key": "build-1"}

    async def scenario() -> None:
        async with orchy(root) as client:
            first = await call(client, "session_start", asked)
        async with orchy(root) as again:  # a new server: the key lives in the record
            second = await call(again, "session_start", asked)
            assert (second["id"], second["reused"]) == (first["id"], True)
            listed = await call(again, "session_children", {})
            assert [s["id"] for s in listed["sessions"]] == [first["id"]]

    anyio.run(scenario)
    assert record(root, _only_child(root)).idempotency_key == f"{PARENT}/build-1"


def _only_child(root: Path) -> str:
    (child,) = [r.id for r in SessionStore(find_project(root)).list().records
                if r.parent_id == PARENT]
    return child


def test_orchy_starts_children_from_inside_a_guarded_agent(root: Path, tmp_path: Path) -> None:
    """The server inherits the parent agent's git guardrail; a child's branch is still
    made (Orchy's own git runs without it)."""
    from gzia.sessions.guard import SessionGuard, guarded_environment

    project = find_project(root)
    guard = SessionGuard(PARENT, root / ".harness" / "worktrees" / PARENT, allow_push=False)
    env = guarded_environment(project, guard, dict(os.environ))
    worker = script(tmp_path, "worker", "true\n")

    async def scenario() -> None:
        async with orchy(root, env=env) as client:
            child = (await call(client, "session_start", {"command": [worker]}))["id"]
            await call(client, "session_wait", {"ids": [child], "timeout": DEADLINE})
            assert run_git(root, "branch", "--list", f"harness/{child}").strip()

    anyio.run(scenario)


def _group_alive(pgid: int) -> bool:
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return False
    return True


def _start_parent(root: Path, tmp_path: Path, *options: str) -> str:
    waiter = script(tmp_path, "parent-agent", "while read -r line; do :; done\n")
    done = subprocess.run([*GZ_IA, "--json", "exec", "-b", *options, "--", waiter], cwd=root,
                          capture_output=True, text=True, timeout=DEADLINE, check=False)
    assert done.returncode == 0, done.stderr
    parent: str = json.loads(done.stdout)["data"]["id"]
    return parent


@pytest.mark.parametrize("keep", [False, True], ids=["killed", "keep-children"])
def test_a_killed_parent_leaves_no_running_child(root: Path, tmp_path: Path, keep: bool) -> None:
    parent = _start_parent(root, tmp_path)
    forker = script(tmp_path, "forker", "sleep 300 &\necho $! > grandchild.pid\nwait\n")
    children: list[str] = []

    async def scenario() -> None:
        async with orchy(root, session=parent) as client:
            child = (await call(client, "session_start", {"command": [forker]}))["id"]
            children.append(child)
        async with orchy(root, session=child) as child_client:  # the child's own child
            grandchild = await call(child_client, "session_start", {"command": [forker]})
            children.append(grandchild["id"])

    anyio.run(scenario)
    groups = [record(root, c).pgid for c in children]
    assert all(groups)
    killed = subprocess.run([*GZ_IA, "--json", "session", "kill", parent,
                             *(["--keep-children"] if keep else [])],
                            cwd=root, capture_output=True, text=True, timeout=DEADLINE,
                            check=False)
    assert killed.returncode == 0, killed.stderr
    if keep:
        assert all(record(root, c).is_running for c in children)
        assert all(_group_alive(g) for g in groups if g)
        return  # the fixture kills them
    for child, group in zip(children, groups, strict=True):
        final = record(root, child)
        assert (final.status, final.end_reason) == ("killed", "killed")
        deadline = time.monotonic() + DEADLINE
        while group and _group_alive(group) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert group and not _group_alive(group)
        holder = final.holder
        assert holder is not None
        deadline = time.monotonic() + DEADLINE
        while pid_running(holder.pid) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not pid_running(holder.pid)


def test_a_parent_its_watchdog_stops_leaves_no_running_child(root: Path,
                                                              tmp_path: Path) -> None:
    parent = _start_parent(root, tmp_path, "--timeout", "15")
    forker = script(tmp_path, "forker", "sleep 300 &\nwait\n")

    async def scenario() -> str:
        async with orchy(root, session=parent) as client:
            child: str = (await call(client, "session_start", {"command": [forker]}))["id"]
            return child

    child = anyio.run(scenario)
    group = record(root, child).pgid
    deadline = time.monotonic() + DEADLINE
    while record(root, parent).is_running and time.monotonic() < deadline:
        time.sleep(0.1)
    assert record(root, parent).end_reason == "timeout"
    while record(root, child).is_running and time.monotonic() < deadline:
        time.sleep(0.05)
    assert (record(root, child).status, record(root, child).end_reason) == ("killed", "killed")
    while group and _group_alive(group) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert group and not _group_alive(group)


def test_an_idle_child_is_stopped_after_the_idle_timeout(root: Path, tmp_path: Path) -> None:
    echoer = script(tmp_path, "echoer", ECHOER)
    env = {"GZ_SUBSESSION_IDLE_TIMEOUT": "1", "GZ_STOP_TIMEOUT": "2"}

    async def scenario() -> None:
        async with orchy(root, env=env) as client:
            child = (await call(client, "session_start", {"command": [echoer]}))["id"]
            waited = await call(client, "session_wait", {"ids": [child], "timeout": DEADLINE})
            assert waited["timed_out"] is False

    anyio.run(scenario)
    child = _only_child(root)
    events = (root / ".harness" / "sessions" / f"{child}.events.jsonl").read_text()
    assert "sub-session idle for 1 s: stopping it" in events


@pytest.mark.pyz
def test_the_pyz_starts_and_merges_a_child(pyz: Path, root: Path, tmp_path: Path) -> None:
    """From the archive, the child's holder is the archive too."""
    worker = script(tmp_path, "worker", "echo child > child.txt\n")

    async def scenario() -> None:
        async with mcp_session([sys.executable, str(pyz)], "--session", PARENT, "-d", str(root),
                               "--tool-timeout", "120", cwd=root) as client:
            child = (await call(client, "session_start", {"command": [worker]}))["id"]
            waited = await call(client, "session_wait", {"ids": [child], "timeout": DEADLINE})
            assert waited["all_succeeded"] is True
            merged = await call(client, "session_merge_into_parent", {"id": child})
            assert merged["files"] == ["child.txt"]

    anyio.run(scenario)


def test_old_records_without_parent_load_and_parent_id_round_trips() -> None:
    plain = SessionRecord.from_json({"id": "12345678", "status": "completed"})
    assert plain.parent_id is None and "parent_id" not in plain.to_json()
    child = SessionRecord.from_json({"id": "12345678", "parent_id": PARENT})
    assert child.parent_id == PARENT and child.to_json()["parent_id"] == PARENT
    odd = SessionRecord.from_json({"id": "12345678", "parent_id": "../x"})
    assert odd.parent_id is None and odd.to_json()["parent_id"] == "../x"


if __name__ == "__main__":  # pragma: no cover
    sys.exit(pytest.main([__file__]))
