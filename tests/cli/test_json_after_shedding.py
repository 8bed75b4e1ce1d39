"""A command that sheds gz-ia's credentials runs itself again (``execve``); in JSON mode
the run that answers must still find stdout where the user put it, so the one document
reaches stdout, not stderr."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest


@pytest.mark.parametrize("argv", [("session", "list"), ("session", "show", "zzz")])
def test_the_document_reaches_stdout_when_credentials_are_shed(
        tmp_path: Path, argv: tuple[str, ...]) -> None:
    env = {**os.environ, "GZ_NEXUS_PASSWORD": "s3cret-value"}
    done = subprocess.run([sys.executable, "-m", "gzia", "--json", *argv], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=60, check=False)
    document = json.loads(done.stdout)
    assert set(document) == {"ok", "data", "errors", "warnings"}
    assert "{" not in done.stderr  # nothing of the document strayed to stderr
    assert "s3cret-value" not in done.stdout + done.stderr
