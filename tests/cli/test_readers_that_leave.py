"""A reader that closes gz-ia's stdout or stderr (``| head -c1``, ``2>&1 | true``) never
changes the outcome: the exit code stays the command's own, and the interpreter's last
flush prints nothing (``Exception ignored``, exit 120). Run as users run it: buffered
stdout (the suite clears PYTHONUNBUFFERED), from the sources and from the built pyz."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ENTRIES = [pytest.param("module", id="python-m-gzia"),
           pytest.param("pyz", id="pyz", marks=pytest.mark.pyz)]


def gz_with_gone_reader(command: list[str], gone: str, cwd: Path) -> tuple[int, str]:
    """Run ``command`` with ``gone`` (stdout or stderr) a pipe nobody reads any more; the
    exit code and what the other stream got."""
    read_end, write_end = os.pipe()
    os.close(read_end)
    streams = {"stdout": subprocess.PIPE, "stderr": subprocess.PIPE, gone: write_end}
    try:
        done = subprocess.run(command, cwd=cwd, text=True, timeout=120, check=False,
                              **streams)  # type: ignore[call-overload]
    finally:
        os.close(write_end)
    other = done.stderr if gone == "stdout" else done.stdout
    return done.returncode, other


@pytest.fixture(params=ENTRIES)
def gz_command(request: pytest.FixtureRequest) -> list[str]:
    if request.param == "pyz":
        return [sys.executable, str(request.getfixturevalue("pyz"))]
    return [sys.executable, "-m", "gzia"]


@pytest.mark.parametrize(("args", "gone", "exit_code"), [
    (["--json", "session", "show", "nope"], "stdout", 2),  # the envelope's reader left
    (["session", "show", "nope"], "stderr", 2),  # the Error: line's reader left
    (["--no-such-flag"], "stderr", 2),
    (["--json", "config", "path"], "stdout", 0),
    (["config", "path"], "stderr", 0),
    (["--help"], "stdout", 0),
    (["completion", "bash"], "stdout", 0),
])
@pytest.mark.parametrize("lang", ["en", "es"])
def test_a_reader_that_leaves_keeps_the_commands_exit_code(
    gz_command: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch, *,
    args: list[str], gone: str, exit_code: int, lang: str,
) -> None:
    monkeypatch.setenv("GZ_LANG", lang)
    code, other = gz_with_gone_reader([*gz_command, *args], gone, tmp_path)
    assert code == exit_code  # not 0 for a failure, not 120 from a last failed flush
    if gone == "stdout":
        assert other == ""  # no Error: line, no "Exception ignored"
