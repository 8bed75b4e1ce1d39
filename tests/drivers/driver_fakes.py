"""Fake agent CLIs for driver tests: small executables named like the real binaries.

Each fake records what it was started with (argv, working directory, environment) into
the JSON file named by ``FAKE_AGENT_RECORD`` and answers ``--version`` like the real tool.
"""

from __future__ import annotations

import json
import os
import stat
import sys
import textwrap
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

FAKE_AGENT = """#!{python}
import json, os, sys, time
if sys.argv[1:] == ["--version"]:
    mode = {version_mode!r}
    if mode == "hang":
        with open(os.environ["FAKE_AGENT_PIDFILE"], "w") as f:
            f.write(str(os.getpid()))
        time.sleep(600)
    if mode == "fail":
        sys.exit(3)
    print({version_text!r})
    sys.exit(0)
with open(os.environ["FAKE_AGENT_RECORD"], "w") as f:
    json.dump({{"argv0": sys.argv[0], "args": sys.argv[1:], "cwd": os.getcwd(),
               "env": dict(os.environ)}}, f)
"""

VERSIONS = {
    "agy": "agy 1.2.6",
    "claude": "2.1.197 (Claude Code)",
    "opencode": "1.18.33",
    "pi": "0.73.1",
}


@dataclass
class FakeAgents:
    """A bin directory of fake agents, and the environment an agent would get."""

    root: Path
    bin: Path = field(init=False)

    def __post_init__(self) -> None:
        self.bin = self.root / "bin"
        self.bin.mkdir()

    @property
    def record_file(self) -> Path:
        return self.root / "record.json"

    @property
    def pid_file(self) -> Path:
        return self.root / "version.pid"

    def install(self, binary: str, *, version_mode: str = "print", version_text: str = "") -> Path:
        path = self.bin / binary
        text = version_text or VERSIONS.get(binary, f"{binary} 0.0.1")
        path.write_text(FAKE_AGENT.format(python=sys.executable, version_mode=version_mode,
                                          version_text=text))
        path.chmod(path.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
        return path

    def env(self, **extra: str) -> dict[str, str]:
        """The base environment: only the fake bin directory on PATH, plus ``extra``."""
        return {
            "PATH": str(self.bin),
            "HOME": str(self.root / "home"),
            "LANG": "C.UTF-8",
            "FAKE_AGENT_RECORD": str(self.record_file),
            "FAKE_AGENT_PIDFILE": str(self.pid_file),
            **extra,
        }

    def recorded(self) -> dict[str, Any]:
        data: dict[str, Any] = json.loads(self.record_file.read_text())
        self.record_file.unlink()
        return data


def pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def write_plugin(site: Path, dist: str, entries: dict[str, str], module: str, code: str) -> None:
    """A distribution as pip lays it out: a module plus its .dist-info with entry points."""
    (site / f"{module}.py").write_text(textwrap.dedent(code))
    info = site / f"{dist.replace('-', '_')}-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {dist}\nVersion: 1.0\n")
    lines = "".join(f"{name} = {value}\n" for name, value in entries.items())
    (info / "entry_points.txt").write_text(f"[gzia.drivers]\n{lines}")


DRIVER_CODE = """
    from gzia.drivers import ExecutableDriver

    class Good(ExecutableDriver):
        id = "good"
        display_name = "Good Agent (good)"
        binary = "good-agent"

        def arguments(self, request):
            return ["--go"]

    class Misnamed(Good):
        id = "something-else"

    class Exploding:
        def __init__(self):
            raise RuntimeError("cannot start")

    not_a_driver = object()
"""
