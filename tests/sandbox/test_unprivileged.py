"""A user without privileges gets the same sandbox (bubblewrap through a user namespace)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import REPO
from tests.run.conftest import git
from tests.run.test_credentials_unreadable import NOBODY, nobody_env, nobody_place
from tests.sandbox.conftest import PROBE_PRELUDE, REPORT

__all__ = ["nobody_place"]

TRIES = """
home = os.environ["HOME"]
attempt("write_home", lambda: write(os.path.join(home, "planted")))
attempt("read_ssh_key", lambda: read(os.path.join(home, ".ssh", "id_ed25519")))
write("work.txt")
results["commit"] = git("add", "work.txt") + "," + git("commit", "-qm", "sandboxed work")
results["move_main"] = git("branch", "-f", "main", "HEAD")
report()
"""


def as_nobody(*argv: str) -> list[str]:
    """``argv`` run as ``nobody``, with no capability at all (bubblewrap refuses to run
    with capabilities it was not installed with)."""
    setpriv = shutil.which("setpriv")
    if setpriv is None:
        pytest.skip("setpriv (util-linux) is not installed")
    return [setpriv, f"--reuid={NOBODY.pw_uid}", f"--regid={NOBODY.pw_gid}", "--clear-groups",
            *argv]


def system_python() -> tuple[str, dict[str, str]]:
    """An interpreter ``nobody`` may run (this one may live in root's home), with this
    checkout and its installed packages on its path."""
    version = f"python{sys.version_info.major}.{sys.version_info.minor}"
    python = Path("/usr/bin") / version
    if not python.exists():
        pytest.skip(f"no /usr/bin/{version} for an unprivileged user")
    packages = next(p for p in sys.path if p.endswith("site-packages"))
    return str(python), {"PYTHONPATH": os.pathsep.join((str(REPO), packages))}


def test_an_unprivileged_users_sandbox_confines_its_agent(nobody_place: Path) -> None:
    agent = nobody_place / "bin" / "tries"
    agent.write_text(PROBE_PRELUDE + TRIES)
    agent.chmod(0o755)
    ssh = nobody_place / "home" / ".ssh"
    ssh.mkdir()
    (ssh / "id_ed25519").write_text("PRIVATE KEY\n")
    for path in (agent, ssh, ssh / "id_ed25519"):
        shutil.chown(path, "nobody", "nogroup")
    project = nobody_place / "project"

    python, path = system_python()
    agent.write_text(PROBE_PRELUDE.replace(sys.executable, python) + TRIES)

    done = subprocess.run(
        as_nobody(python, "-m", "gzia", "--json", "exec", "--sandbox", "--", "tries"),
        cwd=project, env={**nobody_env(nobody_place), **path, "GZ_SANDBOX_NETWORK": "none"},
        capture_output=True, text=True, timeout=120, check=False)

    assert done.returncode == 0, done.stderr
    record = json.loads(done.stdout)["data"]
    worktree = project / ".harness" / "worktrees" / record["id"]
    assert json.loads((worktree / REPORT).read_text()) == {
        "write_home": "Read-only file system", "read_ssh_key": "No such file or directory",
        "commit": "ok,ok", "move_main": "refused"}
    assert git(project, "-c", "safe.directory=*", "log", "-1", "--format=%s",
               f"harness/{record['id']}") == "sandboxed work"
