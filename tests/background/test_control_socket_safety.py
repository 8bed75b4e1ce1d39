"""Control sockets: a starting holder never removes a live one; a vanished one is named.

A socket is published under its ``*.sock`` name only once it listens, so a stale-socket
sweep (a connection refused) can never hit one that is being set up. And when a running
holder's socket (or the runtime directory) is deleted, input and attach say exactly that.
"""

from __future__ import annotations

import shutil
import socket
import subprocess
import sys
import tempfile
from collections import deque
from collections.abc import Callable
from pathlib import Path

import pytest

from gzia.supervisor.runtime_dir import bind_private_socket
from tests.background.conftest import start_background, wait_final
from tests.conftest import Result
from tests.shared_fixtures import trials
from tests.supervisor.fakes import COOPERATIVE, wait_for_note

CLOSED_LATER = 64
"""How many unpublished sockets stay open (listening) before the oldest is closed."""

PROBE = """
import socket, sys, time
path, until = sys.argv[1], time.monotonic() + float(sys.argv[2])
refused = 0
while time.monotonic() < until:
    probe = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    probe.settimeout(1)  # a socket whose backlog is full (nobody accepts) would block it
    try:
        probe.connect(path)
    except ConnectionRefusedError:
        refused += 1
    except OSError:
        pass
    probe.close()
print(refused)
"""


def test_a_published_socket_never_refuses_a_connection() -> None:
    """What a stale-socket sweep sees at any moment of a holder's bind: no socket, or one
    that accepts; never one that refuses (the sweep would delete a live holder's)."""
    with tempfile.TemporaryDirectory(dir="/tmp", prefix="gzsock") as short:
        _bind_while_probed(Path(short) / "abcd1234-000000.sock")


def _bind_while_probed(path: Path) -> None:
    directory = path.parent
    prober = subprocess.Popen([sys.executable, "-c", PROBE, str(path), "4"],
                              stdout=subprocess.PIPE, text=True)
    unpublished: deque[socket.socket] = deque()
    for _ in range(trials(3000, 20000)):
        if prober.poll() is not None:
            break
        unpublished.append(bind_private_socket(path))
        path.unlink()  # gone before it stops listening, as the holder's close does
        # A probe's connect that found the name just before the unlink may reach the socket
        # a moment later: close each one only a while after, or the test would time the
        # close, not the bind it is about.
        if len(unpublished) > CLOSED_LATER:
            unpublished.popleft().close()
    out, _ = prober.communicate(timeout=30)
    for server in unpublished:
        server.close()
    assert int(out) == 0
    assert list(directory.iterdir()) == []  # no staging name left behind


@pytest.mark.parametrize("lang", ["en", "es"])
def test_a_deleted_socket_is_named_by_input_and_attach(
    gz: Callable[..., Result], repo: Path, agent: Callable[[str, str], Path], notes: Path,
    lang: str,
) -> None:
    agent("idle", COOPERATIVE)
    data = start_background(gz, repo, "idle")
    wait_for_note(notes, "ready")
    sock = Path(data["holder"]["socket"])
    sock.unlink()
    poll = gz("--json", "session", "poll", data["id"], cwd=repo).json["data"]
    assert (poll["status"], poll["holder"]) == ("running", "running")
    messages = {
        "en": (f"the holder of session '{data['id']}' runs (PID {data['holder']['pid']}) but "
               f"its control socket {sock} is gone (deleted, or its directory was): it can no "
               "longer take input or be attached to"),
        "es": (f"el proceso que sostiene la sesión '{data['id']}' sigue en ejecución (PID "
               f"{data['holder']['pid']}), pero su socket de control {sock} ya no existe (se "
               "borró, o se borró su directorio): ya no puede recibir entrada ni conexiones "
               "de attach"),
    }
    hints = {"en": f"stop it with: gz-ia session kill {data['id']}",
             "es": f"detenlo con: gz-ia session kill {data['id']}"}
    for command in (("send-keys", data["id"], "x"), ("paste", data["id"], "text"),
                    ("attach", data["id"])):
        result = gz("--json", "session", *command, cwd=repo, env={"GZ_LANG": lang})
        assert result.exit_code == 1, result
        error = result.json["errors"][0]
        assert (error["code"], error["message"], error["hint"]) == (
            "IO", messages[lang], hints[lang]), command
        assert error["details"] == {"id": data["id"], "holder": "running",
                                    "socket": str(sock)}
    killed = gz("--json", "session", "kill", data["id"], cwd=repo)
    assert killed.exit_code == 0, killed
    assert wait_final(repo, data["id"])["status"] == "killed"


def test_a_deleted_runtime_directory_is_named_by_input_and_attach(
    gz: Callable[..., Result], repo: Path, agent: Callable[[str, str], Path], notes: Path,
) -> None:
    """The whole runtime directory gone (a tmp cleaner, a logout) is the same case as the
    socket alone: the holder still runs, input and attach say its socket is gone."""
    with tempfile.TemporaryDirectory(dir="/tmp", prefix="gzrt") as runtime:
        env = {"XDG_RUNTIME_DIR": runtime}
        agent("idle", COOPERATIVE)
        started = gz("--json", "exec", "-b", "--", "idle", cwd=repo, env=env)
        assert started.exit_code == 0, started
        data = started.json["data"]
        try:
            wait_for_note(notes, "ready")
            sock = Path(data["holder"]["socket"])
            assert sock.parent == Path(runtime) / "gz-ia"
            shutil.rmtree(sock.parent)
            for command in (("send-keys", data["id"], "x"), ("attach", data["id"])):
                result = gz("--json", "session", *command, cwd=repo, env=env)
                assert result.exit_code == 1, result
                error = result.json["errors"][0]
                assert (error["code"], error["details"]) == (
                    "IO", {"id": data["id"], "holder": "running", "socket": str(sock)}), command
        finally:
            killed = gz("--json", "session", "kill", data["id"], cwd=repo, env=env)
        assert killed.exit_code == 0, killed
        assert wait_final(repo, data["id"])["status"] == "killed"
