"""No gz-ia process an agent can see holds gz-ia's credentials: not as an unprivileged
user either, not in the commands that run for long beside an agent (``session wait``,
``session attach``, ``mcp``, the TUI). The commands that use them (``update``) keep them
but cannot be read by the user's other processes."""

from __future__ import annotations

import contextlib
import os
import pwd
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import Result
from tests.run.credentials_kit import (
    READ_ANCESTORS,
    SECRET_TEXTS,
    SECRETS,
    ancestors_read,
    parent_environment,
)
from tests.supervisor.fakes import COOPERATIVE, write_agent
from tests.supervisor.terminal_session import TerminalSession

Gz = Callable[..., Result]
NOBODY = pwd.getpwnam("nobody")


def as_nobody(*argv: str) -> list[str]:
    """``argv`` run as ``nobody``, which keeps only the right to pass through directories
    (the interpreter may live under root's home): no right over other users' processes."""
    setpriv = shutil.which("setpriv")
    if setpriv is None:
        pytest.skip("setpriv (util-linux) is not installed")
    return [setpriv, f"--reuid={NOBODY.pw_uid}", f"--regid={NOBODY.pw_gid}", "--clear-groups",
            "--inh-caps=+dac_read_search", "--ambient-caps=+dac_read_search", *argv]


@pytest.fixture
def nobody_place(tmp_path: Path, repo: Path) -> Iterator[Path]:
    """A directory of ``nobody``'s in /tmp (which every user may reach): a copy of the
    project, a home with a git identity, a PATH directory and a notes directory."""
    place = Path(tempfile.mkdtemp(prefix="gz-ia-nobody-"))
    shutil.copytree(repo, place / "project", symlinks=True)
    (place / "home").mkdir()
    shutil.copy(Path(os.environ["HOME"]) / ".gitconfig", place / "home" / ".gitconfig")
    (place / "bin").mkdir()
    (place / "notes").mkdir()
    for path in (place, *place.rglob("*")):
        os.lchown(path, NOBODY.pw_uid, NOBODY.pw_gid)
    place.chmod(0o755)
    yield place
    shutil.rmtree(place, ignore_errors=True)


def nobody_env(place: Path) -> dict[str, str]:
    home = place / "home"
    return {**os.environ, **SECRETS, "HOME": str(home), "FAKE_NOTES": str(place / "notes"),
            "PATH": f"{place / 'bin'}{os.pathsep}{os.environ['PATH']}",
            **{f"XDG_{kind}_HOME": str(home / kind.lower())
               for kind in ("CONFIG", "DATA", "CACHE", "STATE")}}


def test_no_ancestor_holds_a_secret_for_an_unprivileged_user(nobody_place: Path) -> None:
    agent = write_agent(nobody_place / "bin" / "read-ancestors", READ_ANCESTORS)
    os.lchown(agent, NOBODY.pw_uid, NOBODY.pw_gid)

    done = subprocess.run(
        as_nobody(sys.executable, "-m", "gzia", "--json", "exec", "--", "read-ancestors"),
        cwd=nobody_place / "project", env=nobody_env(nobody_place),
        capture_output=True, text=True, timeout=60, check=False)

    assert done.returncode == 0, done.stderr
    parent_environment(nobody_place / "notes", parent="exec\0--\0read-ancestors")


@pytest.fixture
def running_session(gz: Gz, agent: Any, repo: Path) -> Iterator[str]:
    """A background session whose agent runs until it is killed (started without secrets)."""
    agent("wait-forever", COOPERATIVE)
    result = gz("--json", "exec", "-b", "--", "wait-forever", cwd=repo)
    assert result.exit_code == 0, result.stderr
    session_id: str = result.json["data"]["id"]
    yield session_id
    assert gz("session", "kill", session_id, cwd=repo).exit_code == 0


def environment_once_running(terminal: TerminalSession, deadline_s: float = 20.0) -> str:
    """The environment of ``terminal``'s program once it holds no withheld value (it may
    still be starting); it must get there while it runs."""
    pid = terminal.process.pid
    deadline = time.monotonic() + deadline_s
    while True:
        terminal.read_for(0.05)
        assert terminal.process.poll() is None, terminal.output
        environ = Path(f"/proc/{pid}/environ").read_bytes().decode("latin-1")
        # Read during the execve that sheds the credentials, it is empty for a moment.
        if environ and not any(secret in environ for secret in SECRET_TEXTS):
            return environ
        assert time.monotonic() < deadline, "it kept gz-ia's credentials"


@pytest.mark.parametrize("command", [
    ("session", "wait", "{id}"),
    ("session", "attach", "{id}"),
    ("mcp", "--session", "{id}"),
    ("start",),
])
def test_a_command_running_beside_an_agent_holds_no_secret(
    command: tuple[str, ...], running_session: str, repo: Path, run_env: dict[str, str]
) -> None:
    args = [arg.format(id=running_session) for arg in command]
    terminal = TerminalSession([sys.executable, "-m", "gzia", *args],
                               env={**run_env, **SECRETS, "TERM": "xterm"}, cwd=str(repo))
    try:
        environ = environment_once_running(terminal)
        assert f"FAKE_NOTES={run_env['FAKE_NOTES']}" in environ.split("\0")
    finally:
        terminal.close()


def test_config_keeps_the_credentials_it_shows(gz: Gz, repo: Path) -> None:
    result = gz("--json", "config", "get", "forgejo_token", cwd=repo, env=SECRETS)

    assert result.exit_code == 0, result.stderr
    assert result.json["data"] == {"key": "forgejo_token", "value": "****", "source": "env",
                                   "env": "GZ_FORGEJO_TOKEN", "secret": True}


@pytest.fixture
def silent_registry() -> Iterator[tuple[str, threading.Event]]:
    """A search URL on 127.0.0.1 whose server takes the connection and never answers;
    the event is set once a client connected."""
    server = socket.create_server(("127.0.0.1", 0))
    connected = threading.Event()
    accepted: list[socket.socket] = []

    def accept() -> None:
        with contextlib.suppress(OSError):
            accepted.append(server.accept()[0])
            connected.set()

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.getsockname()[1]}/service/rest/v1/search", connected
    server.close()
    for connection in accepted:
        connection.close()
    thread.join(5)


def test_update_keeps_the_credentials_out_of_reach_of_the_users_other_processes(
    nobody_place: Path, silent_registry: tuple[str, threading.Event]
) -> None:
    url, connected = silent_registry
    env = {**nobody_env(nobody_place), "GZ_NEXUS_SEARCH_URL": url, "GZ_UPDATE_TIMEOUT": "30"}
    env.pop("GZ_NEXUS_USER")
    env.pop("GZ_NEXUS_PASSWORD")  # the token stays: update holds it while it asks the registry
    update = subprocess.Popen(as_nobody(sys.executable, "-m", "gzia", "update", "--check"),
                              cwd=nobody_place, env=env, stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL)
    try:
        assert connected.wait(30), "update never asked the registry"
        environ = f"/proc/{update.pid}/environ"
        assert "forgejo-token-value" in Path(environ).read_text("latin-1")  # it keeps it...
        reader = subprocess.run(  # ...but another process of the same user cannot read it
            as_nobody(sys.executable, "-c", f"open({environ!r}, 'rb').read()"),
            capture_output=True, text=True, timeout=30, check=False)
        assert reader.returncode == 1
        assert "PermissionError" in reader.stderr
    finally:
        update.kill()
        update.wait(10)


def test_a_gz_ia_that_cannot_start_again_drops_them_and_hides_itself(
    nobody_place: Path,
) -> None:
    """Where the interpreter cannot be started again (removed under a running gz-ia),
    gz-ia drops them from what it passes on and makes itself unreadable instead."""
    agent = write_agent(nobody_place / "bin" / "read-ancestors", READ_ANCESTORS)
    os.lchown(agent, NOBODY.pw_uid, NOBODY.pw_gid)
    gone = ("import sys; sys.executable = '/nonexistent/python'; "
            "from gzia.cli import main; sys.exit(main())")

    done = subprocess.run(
        as_nobody(sys.executable, "-c", gone, "exec", "--", "read-ancestors"),
        cwd=nobody_place / "project", env=nobody_env(nobody_place),
        capture_output=True, text=True, timeout=60, check=False)

    assert done.returncode == 0, done.stderr
    parent = ancestors_read(nobody_place / "notes")[1]
    assert "exec\0--\0read-ancestors" in parent["cmdline"]
    assert parent["environ"] is None
