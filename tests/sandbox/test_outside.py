"""The owner's side of gz-ia's commands run outside a sandbox: exactly the plan's argument
lists are run (with the connection as their stdin and stdout), anything else is closed."""

from __future__ import annotations

import json
import socket
from pathlib import Path

import pytest

from gzia.sandbox.outside import OutsidePlan, outside_service


def ask(path: Path, args: list[str]) -> bytes:
    with socket.socket(socket.AF_UNIX) as sock:
        sock.settimeout(60)
        sock.connect(str(path))
        sock.sendall(json.dumps(args).encode() + b"\n")
        sock.shutdown(socket.SHUT_WR)
        answer = b""
        while chunk := sock.recv(65536):
            answer += chunk
    return answer


@pytest.mark.parametrize(("args", "answered"), [
    (["--version"], True),
    (["--version", "--json"], False),
    (["update"], False),
])
def test_only_the_plans_commands_run(tmp_path: Path, args: list[str], answered: bool) -> None:
    plan = OutsidePlan(tmp_path / "out.sock", (("--version",),), tmp_path)
    with outside_service(plan):
        assert oct(plan.socket.stat().st_mode & 0o777) == "0o600"
        answer = ask(plan.socket, args)
    assert answer.startswith(b"gz-ia v") is answered
    assert answered or answer == b""
    assert not plan.socket.exists()
