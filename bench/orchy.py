"""Orchy from the pyz: what an agent pays to reach the session's warm server through the
relay, and what the relay adds to a tool call.

Usage: python bench/orchy.py [path/to/gz-ia.pyz] [--runs N] [--calls N]

Makes a throwaway repository with one session and starts its warm server from the pyz
the way a run's owner does (a private socket in a 0700 directory, ``gz-ia __orchy__``
handed the listening socket). Then, on the raw wire (one JSON-RPC line each way):

1. relay start → ``initialize`` answered: ``gz-ia __relay__`` started N times, against
   ``python3 -c pass`` (this Python) in turns, in the same run. Goal: at most 3x.
2. ``tools/call`` round trip of ``session_info``, N calls through one relay connection
   against N calls to ``gz-ia mcp`` over stdio (the same server code, no relay), taking
   turns call by call. Goal: the relay adds at most 2 ms to the median.
The start of ``gz-ia mcp`` over stdio to ``initialize`` (what an agent paid before the
server was warm, and still pays without an owner) is shown for reference.
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

START_GOAL_RATIO = 3.0
CALL_GOAL_MS = 2.0
INITIALIZE = {"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
    "protocolVersion": "2025-06-18", "capabilities": {},
    "clientInfo": {"name": "bench", "version": "1"}}}
INITIALIZED = '{"jsonrpc":"2.0","method":"notifications/initialized"}\n'


def make_session(pyz: str, root: Path) -> str:
    for args in (["init", "-q", "-b", "main"], ["commit", "-q", "--allow-empty", "-m", "init"]):
        subprocess.run(["git", "-c", "user.name=b", "-c", "user.email=b@b", *args], cwd=root,
                       check=True)
    done = subprocess.run([sys.executable, pyz, "--json", "exec", "--", "true"],
                          cwd=root, capture_output=True, text=True, check=True)
    return str(json.loads(done.stdout)["data"]["id"])


@contextmanager
def warm_server(pyz: str, root: Path, session: str, private: Path) -> Iterator[Path]:
    """The session's warm server, as a run's owner starts it; its socket."""
    sock = private / "orchy.sock"
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(str(sock))
    sock.chmod(0o600)
    listener.listen(64)
    server = subprocess.Popen(
        [sys.executable, pyz, "__orchy__", session, str(root), str(listener.fileno())],
        pass_fds=(listener.fileno(),), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL, cwd=root)
    listener.close()
    assert server.stdout is not None and server.stdin is not None
    assert server.stdout.readline() == b"ready\n"
    try:
        yield sock
    finally:
        server.stdin.close()
        server.wait(60)


def start(command: list[str], root: Path) -> tuple[subprocess.Popen[str], float]:
    """The started server (or relay), and the seconds from its start to the
    ``initialize`` answer."""
    started = time.perf_counter()
    child = subprocess.Popen(command, cwd=root, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                             stderr=subprocess.DEVNULL, text=True, bufsize=1)
    assert child.stdin is not None and child.stdout is not None
    child.stdin.write(json.dumps(INITIALIZE) + "\n")
    child.stdin.flush()
    assert "result" in json.loads(child.stdout.readline())
    return child, time.perf_counter() - started


def end(child: subprocess.Popen[str]) -> None:
    assert child.stdin is not None
    child.stdin.close()
    child.wait(30)


def python_pass() -> float:
    started = time.perf_counter()
    subprocess.run([sys.executable, "-c", "pass"], check=True)
    return time.perf_counter() - started


def round_trips(children: list[subprocess.Popen[str]], calls: int) -> list[list[float]]:
    """``calls`` calls to each child, taking turns (the machine's load falls on both)."""
    trips: list[list[float]] = [[] for _ in children]
    for child in children:
        assert child.stdin is not None
        child.stdin.write(INITIALIZED)
    for number in range(1, calls + 1):
        request = json.dumps({"jsonrpc": "2.0", "id": number, "method": "tools/call",
                              "params": {"name": "session_info", "arguments": {}}}) + "\n"
        for child, times in zip(children, trips, strict=True):
            assert child.stdin is not None and child.stdout is not None
            sent = time.perf_counter()
            child.stdin.write(request)
            child.stdin.flush()
            answer = json.loads(child.stdout.readline())
            times.append((time.perf_counter() - sent) * 1000)
            assert answer["id"] == number and not answer["result"].get("isError"), answer
    return trips


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("pyz", nargs="?", default="dist/gz-ia.pyz")
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--calls", type=int, default=500)
    args = parser.parse_args()
    pyz = str(Path(args.pyz).resolve())
    subprocess.run([sys.executable, pyz, "--version"], capture_output=True, check=True)
    with tempfile.TemporaryDirectory(prefix="gzia-bench-orchy-") as scratch:
        root, private = Path(scratch) / "repo", Path(scratch) / "run"
        root.mkdir()
        private.mkdir(mode=0o700)
        session = make_session(pyz, root)
        direct = [sys.executable, pyz, "mcp", "--session", session, "-d", str(root)]
        with warm_server(pyz, root, session, private) as sock:
            relay = [sys.executable, pyz, "__relay__", str(sock), *direct]
            end(start(relay, root)[0])  # warm the page cache
            relay_starts, bare = [], []
            for _ in range(args.runs):
                child, took = start(relay, root)
                relay_starts.append(took)
                end(child)
                bare.append(python_pass())
            via_relay, _ = start(relay, root)
            stdio, stdio_start = start(direct, root)
            relayed, direct_trips = round_trips([via_relay, stdio], args.calls)
            end(via_relay)
            end(stdio)
    report(relay_starts, bare, relayed, direct_trips, stdio_start)
    return 0


def report(relay_starts: list[float], bare: list[float], relayed: list[float],
           direct: list[float], stdio_start: float) -> None:
    start_s, bare_s = statistics.median(relay_starts), statistics.median(bare)
    relayed_ms, direct_ms = statistics.median(relayed), statistics.median(direct)
    ratio, added = start_s / bare_s, relayed_ms - direct_ms
    print(f"python3 -c pass          median {bare_s * 1000:7.1f} ms   1.00x")
    print(f"relay → initialize       median {start_s * 1000:7.1f} ms  {ratio:5.2f}x"
          f"  (min {min(relay_starts) * 1000:.1f})")
    print(f"gz-ia mcp (stdio) → initialize  {stdio_start * 1000:7.1f} ms  (reference, one run)")
    print(f"session_info direct      median {direct_ms:7.2f} ms  p95 {p95(direct):.2f} ms")
    print(f"session_info via relay   median {relayed_ms:7.2f} ms  p95 {p95(relayed):.2f} ms"
          f"  (+{added:.2f} ms)")
    print(f"goal: relay start ≤ {START_GOAL_RATIO:g}x python3 -c pass: "
          f"{'met' if ratio <= START_GOAL_RATIO else 'NOT met'}; relay adds ≤ {CALL_GOAL_MS:g} ms"
          f" a call: {'met' if added <= CALL_GOAL_MS else 'NOT met'}")


def p95(values: list[float]) -> float:
    return statistics.quantiles(values, n=20)[-1]


if __name__ == "__main__":
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    sys.exit(main())
