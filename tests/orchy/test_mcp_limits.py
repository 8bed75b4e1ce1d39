"""Orchy's bounds: option ranges, request size, invalid ids, result and event sizes."""

from __future__ import annotations

import json
import os
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import pytest

from gzia.i18n import set_language
from gzia.orchy.limits import MAX_MESSAGE_BYTES, MAX_RESULT_BYTES
from gzia.orchy.results import bounded_result
from gzia.sessions.events import MAX_EVENT_BYTES
from tests.orchy.conftest import GZ_IA, Served, mcp_session
from tests.orchy.test_mcp_wire import INITIALIZE, Wire, call

TIMEOUT_RANGE = "--tool-timeout must be a number of seconds from 0.001 to 86400 (got {})"
FAILURES_RANGE = "--max-failures must be a whole number from 1 to 1000 (got {})"


def gz_mcp(served: Served, *args: str, lang: str = "en") -> subprocess.CompletedProcess[str]:
    return subprocess.run([*GZ_IA, "mcp", "--session", served.direct, *args], cwd=served.root,
                          capture_output=True, text=True, timeout=60, check=False,
                          stdin=subprocess.DEVNULL, env={**os.environ, "GZ_LANG": lang})


@pytest.mark.parametrize(("option", "value", "shown"), [
    ("--tool-timeout", "nan", "nan"), ("--tool-timeout", "inf", "inf"),
    ("--tool-timeout", "-inf", "-inf"), ("--tool-timeout", "1e999", "inf"),
    ("--tool-timeout", "0", "0"), ("--tool-timeout", "-1", "-1"),
    ("--tool-timeout", "0.0009", "0.0009"), ("--tool-timeout", "86400.5", "86400.5"),
    ("--max-failures", "0", "0"), ("--max-failures", "-2", "-2"),
    ("--max-failures", "1001", "1001"),
    ("--max-failures", "9" * 60, "9" * 39 + "…"),
])
def test_an_option_out_of_range_is_invalid_input_before_serving(
    served: Served, option: str, value: str, shown: str
) -> None:
    done = gz_mcp(served, "--json", option, value)
    assert done.returncode == 2, done.stderr
    template = TIMEOUT_RANGE if option == "--tool-timeout" else FAILURES_RANGE
    low, high = (0.001, 86400.0) if option == "--tool-timeout" else (1, 1000)
    assert json.loads(done.stdout) == {"ok": False, "data": None, "warnings": [], "errors": [{
        "code": "INVALID_INPUT", "message": template.format(shown), "retryable": False,
        "hint": None, "details": {"option": option, "value": shown, "min": low, "max": high}}]}


def test_option_errors_speak_spanish(served: Served) -> None:
    timeout = gz_mcp(served, "--tool-timeout", "nan", lang="es")
    assert (timeout.returncode, timeout.stdout, timeout.stderr) == (2, "", (
        "Error: --tool-timeout debe ser un número de segundos entre 0.001 y 86400 "
        "(recibido: nan)\n"))
    failures = gz_mcp(served, "--max-failures", "0", lang="es")
    assert (failures.returncode, failures.stderr) == (2, (
        "Error: --max-failures debe ser un número entero entre 1 y 1000 (recibido: 0)\n"))


@pytest.mark.parametrize("bounds", [("0.001", "1"), ("86400", "1000")])
def test_the_ends_of_each_range_are_served(served: Served, bounds: tuple[str, str]) -> None:
    async def scenario() -> None:
        async with mcp_session(GZ_IA, "--session", served.direct, "--tool-timeout", bounds[0],
                               "--max-failures", bounds[1], cwd=served.root) as client:
            answer = await client.call_tool("orchy_health", {})
            if answer.is_error:  # 1 ms can be shorter than a loaded machine's scheduling
                error = json.loads(answer.content[0].text)  # type: ignore[union-attr]
                assert (error["code"], error["message"]) == ("TIMEOUT", (
                    f"tool 'orchy_health' did not finish within {bounds[0]} s and was stopped"))
                return
            health = json.loads(answer.content[0].text)  # type: ignore[union-attr]
            info = next(t for t in health["tools"] if t["name"] == "session_info")
            assert (info["timeout_s"], info["max_failures"]) == (float(bounds[0]),
                                                                  int(bounds[1]))

    anyio.run(scenario)


@pytest.mark.parametrize("request_id", ['{"a": 1}', "[1]", "true", "false", "1.5", "null"])
def test_a_request_with_an_invalid_id_is_answered_with_a_null_id(
    served: Served, request_id: str
) -> None:
    """JSON-RPC ids are strings or integers (MCP: never null); any other is -32600."""
    wire = Wire(served)
    try:
        answer = wire.ask(f'{{"jsonrpc": "2.0", "id": {request_id}, "method": "ping"}}')
        assert answer == {"jsonrpc": "2.0", "id": None, "error": {
            "code": -32600, "message": "Invalid Request: the id must be a string or an integer"}}
        assert wire.ask({"jsonrpc": "2.0", "id": "next", "method": "ping"}) == {
            "jsonrpc": "2.0", "id": "next", "result": {}}
    finally:
        code, err = wire.close()
    assert code == 0, err


def test_a_program_a_tool_starts_never_reads_the_protocol(
    served: Served, example_tools: Path
) -> None:
    """While the server reads stdin itself, fd 0 is the null device: a tool's program that
    inherits it reads nothing, and the requests after it are still the server's."""
    wire = Wire(served, env={"GZ_PLUGIN_PATH": str(example_tools)})
    try:
        wire.ask(INITIALIZE)
        wire.send(json.dumps({"jsonrpc": "2.0", "method": "notifications/initialized"}))
        wire.send(json.dumps(call(2, "example_stdin", {})))
        wire.send(json.dumps({"jsonrpc": "2.0", "id": 3, "method": "ping"}))
        answers = {a["id"]: a for a in (wire.read(), wire.read())}
        assert answers[3] == {"jsonrpc": "2.0", "id": 3, "result": {}}
        assert answers[2]["result"]["structuredContent"] == {"bytes_read": 0}
    finally:
        code, err = wire.close()
    assert code == 0, err


def ping_of_size(size: int, request_id: int) -> str:
    """A ``ping`` line of exactly ``size`` bytes (its newline not counted)."""
    head = f'{{"jsonrpc": "2.0", "id": {request_id}, "method": "ping", "params": {{"pad": "'
    return head + "x" * (size - len(head) - 3) + '"}}'


def test_a_message_of_the_limit_is_served_and_one_byte_more_is_refused(served: Served) -> None:
    wire = Wire(served)
    try:
        assert wire.ask(ping_of_size(MAX_MESSAGE_BYTES, 1)) == {
            "jsonrpc": "2.0", "id": 1, "result": {}}
        assert wire.ask(ping_of_size(MAX_MESSAGE_BYTES + 1, 2)) == {
            "jsonrpc": "2.0", "id": None, "error": {"code": -32600, "message": (
                f"Invalid Request: the message is {MAX_MESSAGE_BYTES + 1} bytes, "
                f"more than the {MAX_MESSAGE_BYTES} a message may hold")}}
        assert wire.ask(INITIALIZE)["result"]["serverInfo"]["name"] == "gz-ia"
    finally:
        code, err = wire.close()
    assert code == 0, err


SERVER_MEMORY = 400 * 1024 * 1024
"""The server's address-space limit: about 260 MB is what it maps serving normally."""
HUGE = 200 * 1024 * 1024


def huge_request() -> Iterator[bytes]:
    """A 200 MB ``session_log`` request, made as it is sent (never held whole)."""
    yield (b'{"jsonrpc": "2.0", "id": 5, "method": "tools/call", "params": {'
           b'"name": "session_log", "arguments": {"action": "')
    chunk = b"a" * (1024 * 1024)
    for _ in range(HUGE // len(chunk)):
        yield chunk
    yield b'"}}}\n'


def test_a_200_mb_request_is_refused_in_bounded_memory_and_the_server_answers_on(
    served: Served,
) -> None:
    child = subprocess.Popen(["prlimit", f"--as={SERVER_MEMORY}", "--", *GZ_IA, "mcp",
                              "--session", served.direct], cwd=served.root,
                             stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE)
    assert child.stdin is not None and child.stdout is not None
    started, sent = time.monotonic(), 0
    try:
        for piece in huge_request():
            child.stdin.write(piece)
            sent += len(piece)
        child.stdin.write(json.dumps(INITIALIZE).encode() + b"\n")
        child.stdin.flush()
        refused = json.loads(child.stdout.readline())
        answered = json.loads(child.stdout.readline())
    finally:
        child.stdin.close()
        child.wait(timeout=60)
    err = child.stderr.read() if child.stderr else b""
    assert refused == {"jsonrpc": "2.0", "id": None, "error": {"code": -32600, "message": (
        f"Invalid Request: the message is {sent - 1} bytes, "
        f"more than the {MAX_MESSAGE_BYTES} a message may hold")}}
    assert (answered["id"], answered["result"]["serverInfo"]["name"]) == (1, "gz-ia")
    assert child.returncode == 0, err
    assert time.monotonic() - started < 60


def test_a_tool_result_over_the_limit_is_cut_and_says_so(served: Served) -> None:
    (served.worktree / "big.txt").write_text("line of text\n" * 300_000)  # ~4 MB of diff

    async def scenario() -> Any:
        async with mcp_session(GZ_IA, "--session", served.isolated, cwd=served.root) as client:
            return await client.call_tool("worktree_read", {"session_id": served.isolated})

    result = anyio.run(scenario)
    text = result.content[0].text
    assert len(text.encode()) <= MAX_RESULT_BYTES and not result.is_error
    read = json.loads(text)
    assert read == result.structured_content
    mark = read["truncated"]
    assert mark["size"] > 3_900_000 and mark["limit"] == MAX_RESULT_BYTES
    assert mark["note"] == (f"[result truncated: {mark['size']} bytes, more than the "
                            f"{MAX_RESULT_BYTES} a tool may return]")
    assert read["files"] == ["big.txt"] and read["id"] == served.isolated
    assert read["diff"].startswith("diff --git a/big.txt b/big.txt\n")


@pytest.mark.parametrize("lang", ["en", "es"])
def test_bounded_result_cuts_texts_objects_and_lists(lang: str) -> None:
    set_language(lang)
    try:
        note = {"en": "[result truncated: 2502 bytes, more than the 1000 a tool may return]",
                "es": "[resultado truncado: 2502 bytes, más que los 1000 que puede devolver "
                      "una herramienta]"}[lang]
        text, structured = bounded_result("é" * 1251, limit=1000)
        assert structured is None and text.endswith("\n" + note)
        assert len(text.encode()) <= 1000 and set(text.removesuffix("\n" + note)) == {"é"}
        value = {"files": [f"f{n}" for n in range(500)], "diff": "d" * 5000, "n": 1}
        text, structured = bounded_result(value, limit=1000)
        assert structured is not None and json.loads(text) == structured
        assert len(text.encode()) <= 1000 and structured["n"] == 1
        assert structured["files"] == value["files"][:len(structured["files"])]
        assert structured["truncated"]["size"] == len(json.dumps(value))
        listed, structured = bounded_result(list(range(1000)), limit=1000)
        assert structured is not None and len(listed) <= 1000
        assert structured["value"] == list(range(len(structured["value"])))
        assert bounded_result({"small": True}, limit=1000) == ('{"small": true}',
                                                              {"small": True})
    finally:
        set_language(None)


def test_an_event_over_the_limit_is_refused_and_is_not_a_failure(served: Served) -> None:
    action = "a" * MAX_EVENT_BYTES

    async def scenario() -> tuple[Any, Any]:
        async with mcp_session(GZ_IA, "--session", served.direct, cwd=served.root) as client:
            refused = await client.call_tool("session_log", {"action": action})
            health = await client.call_tool("orchy_health", {})
            return refused, health

    refused, health = anyio.run(scenario)
    error = json.loads(refused.content[0].text)
    assert refused.is_error and error["code"] == "INVALID_INPUT"
    size = int(error["message"].split()[3])
    assert size > MAX_EVENT_BYTES
    assert error["message"] == (f"the event is {size} bytes; an event may hold at most "
                                f"{MAX_EVENT_BYTES} bytes")
    logged = next(t for t in json.loads(health.content[0].text)["tools"]
                  if t["name"] == "session_log")
    assert (logged["failed_calls"], logged["status"]) == (0, "HEALTHY")
    assert not (served.root / ".harness" / "sessions" / f"{served.direct}.events.jsonl").exists()


def test_session_log_refuses_an_event_over_the_limit_in_spanish(served: Served) -> None:
    done = subprocess.run([*GZ_IA, "session", "log", served.direct, "-a", "b" * MAX_EVENT_BYTES,
                           "-s", "READ"], cwd=served.root, capture_output=True, text=True,
                          timeout=60, check=False, env={**os.environ, "GZ_LANG": "es"})
    size = int(done.stderr.split()[4])
    assert (done.returncode, done.stderr) == (2, (
        f"Error: el evento ocupa {size} bytes; un evento puede ocupar como máximo "
        f"{MAX_EVENT_BYTES} bytes\n"))
