"""The circuit breaker's edges: its own controls never trip, a caller's mistakes and a
tool's refusals are not its failures, and only ``orchy_reset`` brings a DEAD tool back."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp.shared.exceptions import MCPError

from gzia.contract import (
    ConflictError,
    IdempotencyConflictError,
    InvalidInputError,
    IOFailure,
    LockedError,
    NotFoundError,
    SafetyBlockError,
)
from gzia.orchy.proxy import CircuitOpen, Health, ToolProxy
from gzia.orchy.tool import Tool, ToolContext, object_schema
from tests.orchy.conftest import GZ_IA, Served, mcp_session
from tests.shared_fixtures import trials

TRIPPED = ('[ToolProxy] circuit breaker tripped for tool "{name}": '
           "status is DEAD after {n} consecutive failures")


def payload(result: Any) -> Any:
    return json.loads(result.content[0].text)


def breaker(health: Any, name: str) -> dict[str, Any]:
    found: dict[str, Any] = next(t for t in payload(health)["tools"] if t["name"] == name)
    return found


def test_typos_to_orchy_reset_never_trip_it_and_it_still_heals(served: Served) -> None:
    """Any number of unknown names: each is INVALID_INPUT, none is a failure, and the
    reset still brings a DEAD tool back."""

    async def scenario() -> None:
        async with mcp_session(GZ_IA, "--session", served.direct, "--max-failures", "2",
                               cwd=served.root) as client:
            for attempt in range(12):
                typo = await client.call_tool("orchy_reset", {"tool": "wrokspace_commit"})
                assert typo.is_error, attempt
                assert payload(typo)["code"] == "INVALID_INPUT"
                assert payload(typo)["message"].startswith(
                    "no tool named 'wrokspace_commit' (tools: session_log, session_info, ")
            for _ in range(2):  # an unknown session: NOT_FOUND, a real failure
                missing = await client.call_tool("worktree_read", {"session_id": "deadbeef"})
                assert missing.is_error
            with pytest.raises(MCPError) as tripped:
                await client.call_tool("worktree_read", {"session_id": "deadbeef"})
            assert tripped.value.message == TRIPPED.format(name="worktree_read", n=2)
            health = await client.call_tool("orchy_health", {})
            assert breaker(health, "orchy_reset") == {
                **breaker(health, "orchy_reset"), "status": "HEALTHY", "guarded": False,
                "consecutive_failures": 0, "failed_calls": 0, "total_calls": 12}
            healed = payload(await client.call_tool("orchy_reset", {"tool": "worktree_read"}))
            assert (healed["status"], healed["consecutive_failures"]) == ("HEALTHY", 0)

    anyio.run(scenario)


def test_an_invalid_input_a_tool_raises_is_not_its_failure(served: Served) -> None:
    """``worktree_read`` refusing a malformed id (INVALID_INPUT) counts for nothing;
    an unknown one (NOT_FOUND) still counts."""

    async def scenario() -> None:
        async with mcp_session(GZ_IA, "--session", served.direct, "--max-failures", "2",
                               cwd=served.root) as client:
            for _ in range(5):
                bad = await client.call_tool("worktree_read", {"session_id": "../etc"})
                assert payload(bad)["code"] == "INVALID_INPUT"
            read = breaker(await client.call_tool("orchy_health", {}), "worktree_read")
            assert (read["status"], read["failed_calls"]) == ("HEALTHY", 0)
            missing = await client.call_tool("worktree_read", {"session_id": "deadbeef"})
            assert payload(missing)["code"] == "NOT_FOUND"
            read = breaker(await client.call_tool("orchy_health", {}), "worktree_read")
            assert (read["consecutive_failures"], read["failed_calls"]) == (1, 1)

    anyio.run(scenario)


def failing(context: ToolContext, args: dict[str, Any]) -> None:
    raise RuntimeError("always fails")


@pytest.mark.parametrize("guarded", [True, False])
def test_an_unguarded_tool_fails_as_often_as_it_may_and_is_never_dead(
    served: Served, guarded: bool
) -> None:
    """The breaker's own controls are built ``guarded=False``: however often such a tool
    fails, it keeps running (a guarded one dies after max_failures)."""
    proxy = ToolProxy(Tool("t", "d", object_schema({}), failing, guarded=guarded),
                      max_failures=3)
    context = ToolContext(None, served.direct)  # type: ignore[arg-type]  # unused by the tool

    async def scenario() -> list[str]:
        outcomes = []
        for _ in range(10):
            try:
                await proxy.call(context, {})
            except CircuitOpen:
                outcomes.append("refused")
            except RuntimeError:
                outcomes.append("ran")
        return outcomes

    outcomes = anyio.run(scenario)
    if guarded:
        assert outcomes == ["ran"] * 3 + ["refused"] * 7
        assert proxy.health is Health.DEAD
    else:
        assert outcomes == ["ran"] * 10
        assert (proxy.health, proxy.stats.failed_calls) == (Health.HEALTHY, 10)


def test_a_success_in_flight_when_the_tool_died_does_not_revive_it(
    served: Served, example_tools: Path, tmp_path: Path
) -> None:
    """A held call runs while five others fail and kill the tool; it succeeds after: the
    tool stays DEAD (only orchy_reset revives it), every trial."""
    gate = tmp_path / "gate"
    gate.mkdir()
    env = {"GZ_PLUGIN_PATH": str(example_tools), "EXAMPLE_TOOLS_GATE": str(gate)}

    async def trial(client: Any, number: int) -> None:
        async with anyio.create_task_group() as group:
            answers: list[Any] = []

            async def held() -> None:
                answers.append(await client.call_tool("example_hold", {"id": number}))

            group.start_soon(held)
            await _wait_for(gate / f"held-{number}")
            for _ in range(5):
                assert (await client.call_tool("example_hold", {"fail": True})).is_error
            assert breaker(await client.call_tool("orchy_health", {}), "example_hold")[
                "status"] == "DEAD"
            (gate / f"release-{number}").touch()
        assert answers[0].is_error is False
        assert answers[0].content[0].text == f"released {number}"
        hold = breaker(await client.call_tool("orchy_health", {}), "example_hold")
        assert (hold["status"], hold["consecutive_failures"]) == ("DEAD", 5)
        with pytest.raises(MCPError) as refused:
            await client.call_tool("example_hold", {"fail": True})
        assert refused.value.code == -32603
        assert refused.value.message == TRIPPED.format(name="example_hold", n=5)
        assert payload(await client.call_tool("orchy_reset", {"tool": "example_hold"}))[
            "status"] == "HEALTHY"

    async def scenario() -> None:
        async with mcp_session(GZ_IA, "--session", served.isolated, cwd=served.root,
                               env=env) as client:
            for number in range(trials(5, 50)):
                await trial(client, number)

    anyio.run(scenario)


async def _wait_for(path: Path) -> None:
    deadline = time.monotonic() + 30
    while not path.exists():
        assert time.monotonic() < deadline, f"{path.name} never appeared"
        await anyio.sleep(0.01)


def raising(error: Exception) -> Tool:
    def function(context: ToolContext, args: dict[str, Any]) -> None:
        raise error

    return Tool("t", "d", object_schema({}), function)


REFUSED = [InvalidInputError("bad input"), SafetyBlockError("over a cap"),
           ConflictError("still running"), IdempotencyConflictError("another payload")]
FAILED = [NotFoundError("gone"), IOFailure("disk"), LockedError("held"), RuntimeError("bug")]


@pytest.mark.parametrize("error", REFUSED, ids=lambda e: type(e).__name__)
def test_a_refusal_never_trips_the_breaker_nor_clears_a_failure(served: Served,
                                                                 error: Exception) -> None:
    """A tool refusing what it was asked (bad or over-limit input, a safety rule or cap, a
    state that does not allow it) works: however often, it stays HEALTHY; the failures
    before a refusal still count after it."""
    context = ToolContext(None, served.direct)  # type: ignore[arg-type]  # unused by the tool
    refuses = ToolProxy(raising(error), max_failures=2)
    fails = ToolProxy(raising(IOFailure("disk")), max_failures=3)

    async def scenario() -> None:
        for _ in range(10):
            with pytest.raises(type(error)):
                await refuses.call(context, {})
        await _fail(fails, context)
        fails.tool = raising(error)
        with pytest.raises(type(error)):
            await fails.call(context, {})
        fails.tool = raising(IOFailure("disk"))
        await _fail(fails, context)

    anyio.run(scenario)
    assert (refuses.health, refuses.stats.failed_calls) == (Health.HEALTHY, 0)
    assert refuses.stats.consecutive_failures == 0
    assert (fails.health, fails.stats.consecutive_failures) == (Health.DEGRADED, 2)


@pytest.mark.parametrize("error", FAILED, ids=lambda e: type(e).__name__)
def test_a_real_failure_trips_the_breaker(served: Served, error: Exception) -> None:
    context = ToolContext(None, served.direct)  # type: ignore[arg-type]  # unused by the tool
    proxy = ToolProxy(raising(error), max_failures=2)

    async def scenario() -> None:
        for _ in range(2):
            with pytest.raises(type(error)):
                await proxy.call(context, {})
        with pytest.raises(CircuitOpen):
            await proxy.call(context, {})

    anyio.run(scenario)
    assert proxy.health is Health.DEAD


async def _fail(proxy: ToolProxy, context: ToolContext) -> None:
    with pytest.raises(IOFailure):
        await proxy.call(context, {})
