"""Orchy from the pyz: process start → completed ``initialize``, and the ``tools/call``
round trip of ``session_info``.

Usage: python bench/orchy.py [path/to/gz-ia.pyz] [--runs N] [--calls N]
Makes a throwaway repository with one session, then starts ``gz-ia mcp`` N times (warm:
the zipapp's dependencies extracted by a first run) and times, on the raw wire (one
JSON-RPC line each way), the first ``initialize`` answer and N ``session_info`` calls.
Baseline in the same run, taking turns with gz-ia: the smallest stdio server on the same
SDK (a low-level ``Server`` imported the usual way, no tools), started by this Python,
which must have the SDK installed (the project's environment has it).
Goals: initialize under 1.0 s, round trip under 10 ms.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

INIT_GOAL_S = 1.0
CALL_GOAL_MS = 10.0
INITIALIZE = {"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
    "protocolVersion": "2025-06-18", "capabilities": {},
    "clientInfo": {"name": "bench", "version": "1"}}}


BARE_SERVER = """
import anyio
from mcp.server.lowlevel.server import Server
from mcp.server.stdio import stdio_server


async def main():
    server = Server("bare")
    async with stdio_server() as (read, write):
        await server.run(read, write, server.create_initialization_options())

anyio.run(main)
"""


def make_session(pyz: str, root: Path) -> str:
    for args in (["init", "-q", "-b", "main"], ["commit", "-q", "--allow-empty", "-m", "init"]):
        subprocess.run(["git", "-c", "user.name=b", "-c", "user.email=b@b", *args], cwd=root,
                       check=True)
    done = subprocess.run([sys.executable, pyz, "--json", "exec", "--", "true"],
                          cwd=root, capture_output=True, text=True, check=True)
    return str(json.loads(done.stdout)["data"]["id"])


def time_initialize(command: list[str], root: Path) -> tuple[subprocess.Popen[str], float]:
    """The started server, and the seconds from its start to the ``initialize`` answer."""
    started = time.perf_counter()
    child = subprocess.Popen(command, cwd=root, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                             stderr=subprocess.DEVNULL, text=True, bufsize=1)
    assert child.stdin is not None and child.stdout is not None
    child.stdin.write(json.dumps(INITIALIZE) + "\n")
    child.stdin.flush()
    assert "result" in json.loads(child.stdout.readline())
    return child, time.perf_counter() - started


def bare_run(root: Path) -> float:
    child, initialized = time_initialize([sys.executable, "-c", BARE_SERVER], root)
    assert child.stdin is not None
    child.stdin.close()
    child.wait(timeout=30)
    return initialized


def one_run(pyz: str, root: Path, session: str, calls: int) -> tuple[float, list[float]]:
    child, initialized = time_initialize([sys.executable, pyz, "mcp", "--session", session],
                                         root)
    assert child.stdin is not None and child.stdout is not None
    child.stdin.write('{"jsonrpc":"2.0","method":"notifications/initialized"}\n')
    round_trips = []
    for number in range(1, calls + 1):
        request = {"jsonrpc": "2.0", "id": number, "method": "tools/call",
                   "params": {"name": "session_info", "arguments": {}}}
        sent = time.perf_counter()
        child.stdin.write(json.dumps(request) + "\n")
        child.stdin.flush()
        answer = json.loads(child.stdout.readline())
        round_trips.append((time.perf_counter() - sent) * 1000)
        assert answer["id"] == number and not answer["result"].get("isError"), answer
    child.stdin.close()
    child.wait(timeout=30)
    return initialized, round_trips


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("pyz", nargs="?", default="dist/gz-ia.pyz")
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--calls", type=int, default=200)
    args = parser.parse_args()
    pyz = str(Path(args.pyz).resolve())
    subprocess.run([sys.executable, pyz, "--version"], capture_output=True, check=True)
    with tempfile.TemporaryDirectory(prefix="gzia-bench-orchy-") as scratch:
        root = Path(scratch)
        session = make_session(pyz, root)
        one_run(pyz, root, session, 5)  # warm the page cache and the compiled bytecode
        bare_run(root)
        inits, trips, bare = [], [], []
        for _ in range(args.runs):
            initialized, round_trips = one_run(pyz, root, session, args.calls)
            inits.append(initialized)
            trips.extend(round_trips)
            bare.append(bare_run(root))
    init_s = statistics.median(inits)
    trip_ms = statistics.median(trips)
    p95 = statistics.quantiles(trips, n=20)[-1]
    bare_s = statistics.median(bare)
    print(f"bare SDK server      median {bare_s * 1000:7.1f} ms  (min {min(bare) * 1000:.1f})"
          "   1.00x")
    print(f"start → initialize   median {init_s * 1000:7.1f} ms  (min {min(inits) * 1000:.1f})"
          f"  {init_s / bare_s:5.2f}x")
    print(f"session_info call    median {trip_ms:7.2f} ms  p95 {p95:.2f} ms")
    print(f"goal: initialize < {INIT_GOAL_S} s: {'met' if init_s < INIT_GOAL_S else 'NOT met'}; "
          f"round trip < {CALL_GOAL_MS} ms: {'met' if trip_ms < CALL_GOAL_MS else 'NOT met'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
