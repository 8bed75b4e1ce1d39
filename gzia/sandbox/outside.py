"""gz-ia's own commands an agent runs from inside its sandbox, run outside it instead.

Orchy (``gz-ia mcp``) and the agent's state hooks (``gz-ia __hook__``) write the project's
``.harness/`` (records, events, worktrees), which the sandbox keeps read-only. So inside,
the agent's MCP configuration and hooks name a relay (:func:`relay_argv`: a few lines of
Python, no gz-ia import) that connects to a Unix socket the session's owner binds into
the sandbox at :data:`OUTSIDE_IN_SANDBOX`, sends its arguments and then relays its stdin
and stdout. The owner (:func:`outside_service`) runs ``gz-ia <arguments>`` outside, with
that connection as its stdin and stdout, only when the arguments are exactly one of the
plan's (this session's ``mcp`` and ``__hook__`` forms): the agent reaches nothing else
through it, and the tools keep their own checks. Nothing of the sandbox becomes writable.
"""

from __future__ import annotations

import contextlib
import json
import os
import socket
import subprocess
import sys
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from gzia import proc
from gzia.credentials import without_secrets
from gzia.selfexec import gzia_argv

OUTSIDE_IN_SANDBOX = "/tmp/.gz-ia-outside"  # noqa: S108 - in the sandbox's own /tmp
MAX_REQUEST_BYTES = 64 << 10
REQUEST_TIMEOUT_S = 30.0
CHILD_GRACE_S = 5.0
_RELAY = """\
import json, os, socket, sys, threading
sock = socket.socket(socket.AF_UNIX)
try:
    sock.connect(sys.argv[1])
except OSError as exc:
    sys.stderr.write(f"gz-ia sandbox: gz-ia is not reachable: {exc.strerror}\\n")
    sys.exit(1)
sock.sendall(json.dumps(sys.argv[2:]).encode() + b"\\n")
def inward():
    while data := os.read(0, 65536):
        sock.sendall(data)
    sock.shutdown(socket.SHUT_WR)
threading.Thread(target=inward, daemon=True).start()
while data := sock.recv(65536):
    os.write(1, data)
"""


def relay_argv() -> list[str]:
    """What stands for ``gz-ia`` inside the sandbox (its arguments follow)."""
    return [sys.executable, "-I", "-S", "-c", _RELAY, OUTSIDE_IN_SANDBOX]


@dataclass(frozen=True)
class OutsidePlan:
    """The owner's socket and the gz-ia argument lists it runs for the sandbox."""

    socket: Path
    commands: tuple[tuple[str, ...], ...]
    cwd: Path

    def to_json(self) -> dict[str, Any]:
        return {"socket": str(self.socket), "commands": [list(c) for c in self.commands],
                "cwd": str(self.cwd)}

    @classmethod
    def from_json(cls, data: object) -> OutsidePlan:
        """``ValueError`` for anything :meth:`to_json` did not write."""
        if not isinstance(data, dict) or not all(
                isinstance(data.get(key), str) for key in ("socket", "cwd")):
            raise ValueError("holder spec: outside: socket and cwd must be paths")
        commands = data.get("commands")
        if not isinstance(commands, list) or not all(
                isinstance(c, list) and all(isinstance(a, str) for a in c) for c in commands):
            raise ValueError("holder spec: outside: commands must be lists of strings")
        return cls(Path(data["socket"]), tuple(tuple(c) for c in commands), Path(data["cwd"]))


@contextlib.contextmanager
def outside_service(plan: OutsidePlan) -> Iterator[None]:
    """Serve the plan's socket for the length of a run."""
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    old_umask = os.umask(0o177)
    try:
        listener.bind(str(plan.socket))
        listener.listen(16)
    finally:
        os.umask(old_umask)
    listener.settimeout(0.25)
    service = _Service(listener, plan)
    try:
        yield
    finally:
        service.close()
        with contextlib.suppress(OSError):
            plan.socket.unlink()


class _Service:
    def __init__(self, listener: socket.socket, plan: OutsidePlan) -> None:
        self.listener, self.plan = listener, plan
        self.stop = threading.Event()
        self.children: list[subprocess.Popen[bytes]] = []
        self.thread = threading.Thread(target=self._serve, daemon=True, name="sandbox-outside")
        self.thread.start()

    def close(self) -> None:
        """Stop serving; a command still running (its agent is gone) gets SIGTERM."""
        self.stop.set()
        self.thread.join(timeout=5)
        self.listener.close()
        for child in self.children:
            if child.poll() is None:
                child.terminate()
            with contextlib.suppress(subprocess.TimeoutExpired):
                child.wait(CHILD_GRACE_S)

    def _serve(self) -> None:
        while not self.stop.is_set():
            try:
                conn, _ = self.listener.accept()
            except TimeoutError:
                continue
            except OSError:
                return
            threading.Thread(target=self._run_one, args=(conn,), daemon=True).start()

    def _run_one(self, conn: socket.socket) -> None:
        with conn:
            args = _request(conn)
            if args is None or tuple(args) not in self.plan.commands or self.stop.is_set():
                return
            conn.settimeout(None)
            self.children.append(proc.start(
                gzia_argv(*args), cwd=self.plan.cwd, env=without_secrets(os.environ),
                stdin=conn.fileno(), stdout=conn.fileno(), stderr=subprocess.DEVNULL,
                start_new_session=True))


def _request(conn: socket.socket) -> list[str] | None:
    """The first line: a JSON list of arguments (bounded, within a deadline)."""
    conn.settimeout(REQUEST_TIMEOUT_S)
    data = b""
    try:
        while b"\n" not in data and len(data) <= MAX_REQUEST_BYTES:
            chunk = conn.recv(1)  # byte by byte: what follows the line is the child's
            if not chunk:
                return None
            data += chunk
        args = json.loads(data)
    except (OSError, ValueError):
        return None
    return args if isinstance(args, list) and all(isinstance(a, str) for a in args) else None
