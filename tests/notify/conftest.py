"""Fixtures for notifications: a webhook receiver on 127.0.0.1, a hook program that
writes what it got, the user's settings file, and the background-run fixtures."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.background.conftest import (
    agent,
    bin_dir,
    gz,
    gz_start,
    no_holder_left,
    notes,
    repo,
    run_env,
)
from tests.fakes.fixtures import http_proxy, tls_ca, tls_ca_file
from tests.fakes.http import FakeServer, Request, Response

__all__ = ["agent", "bin_dir", "gz", "gz_start", "http_proxy", "no_holder_left",
           "notes", "repo", "run_env", "tls_ca", "tls_ca_file"]

HOOK = """import json, os, sys
document = json.load(sys.stdin)
variables = {k: v for k, v in os.environ.items() if k.startswith("GZ_SESSION_")}
with open(sys.argv[1], "a") as out:
    out.write(json.dumps({"stdin": document, "env": variables}) + "\\n")
"""


@pytest.fixture
def receiver() -> Iterator[FakeServer]:
    """A webhook receiver: answers 200 to every POST and records it."""
    server = FakeServer(lambda _request: Response(200, b"ok")).start()
    yield server
    server.stop()


def posts(server: FakeServer) -> list[dict[str, Any]]:
    return [json.loads(r.body) for r in server.requests if r.method == "POST"]


def post_requests(server: FakeServer) -> list[Request]:
    return [r for r in server.requests if r.method == "POST"]


@pytest.fixture
def hook(tmp_path: Path) -> tuple[list[str], Path]:
    """A notify_command (argv) and the file it appends each call's stdin and env to."""
    script = tmp_path / "hook.py"
    script.write_text(HOOK)
    return [sys.executable, str(script), str(tmp_path / "hook.jsonl")], tmp_path / "hook.jsonl"


def hook_calls(out: Path) -> list[dict[str, Any]]:
    if not out.exists():
        return []
    return [json.loads(line) for line in out.read_text().splitlines()]


@pytest.fixture
def settings_file(isolated_env: Path, monkeypatch: pytest.MonkeyPatch,
                  tmp_path: Path) -> Callable[..., Path]:
    """``settings_file(notify_webhook=..., ...)``: the user's config file with these values
    (how a background run gets its webhook: the holder never holds credentials from its
    environment)."""
    path = tmp_path / "config.toml"
    monkeypatch.setenv("GZ_CONFIG_FILE", str(path))

    def write(**values: Any) -> Path:
        path.write_text("".join(f"{key} = {json.dumps(value)}\n" for key, value in values.items()))
        return path

    return write


def start_in_background(gz: Callable[..., Any], repo: Path, *command: str,
                        env: dict[str, str], options: tuple[str, ...] = ()) -> dict[str, Any]:
    """``gz-ia exec -b [options] -- command`` with ``env``; the new session's record."""
    result = gz("--json", "exec", "-b", *options, "--", *command, cwd=repo, env=env)
    assert result.exit_code == 0, result
    data: dict[str, Any] = result.json["data"]
    return data
