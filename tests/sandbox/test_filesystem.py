"""A sandboxed agent writes only its worktree and its branch, and reads no secret."""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tests.conftest import Result
from tests.run.conftest import git
from tests.sandbox.conftest import report_of

Gz = Callable[..., Result]

TRIES = """
home = os.environ["HOME"]
attempt("write_home", lambda: write(os.path.join(home, "planted")))
attempt("write_main_checkout", lambda: write(os.path.join(os.environ["MAIN"], "planted")))
attempt("write_main_git_config", lambda: write(os.path.join(os.environ["MAIN"], ".git", "config")))
attempt("write_etc", lambda: write("/etc/planted"))
attempt("write_other_repo", lambda: write(os.path.join(os.environ["OTHER"], "planted")))
attempt("read_other_repo", lambda: read(os.path.join(os.environ["OTHER"], "README")))
attempt("read_hidden_repo", lambda: read(os.path.join(os.environ["HIDDEN"], "README")))
attempt("read_ssh_key", lambda: read(os.path.join(home, ".ssh", "id_ed25519")))
attempt("read_gzia_config", lambda: read(os.environ["GZCONFIG"]))
attempt("read_outside_environ", lambda: read(f"/proc/{os.environ['OUTSIDE_PID']}/environ"))
attempt("read_home_file", lambda: read(os.path.join(home, ".gitconfig")))
attempt("write_tmp", lambda: write("/tmp/scratch"))
seen = [n for n in os.listdir("/proc") if n.isdigit()]
results["token_in_a_visible_environ"] = str(any(
    b"gz-test-token" in open(f"/proc/{n}/environ", "rb").read() for n in seen
    if os.path.exists(f"/proc/{n}/environ")))
write("work.txt")
results["commit"] = git("add", "work.txt") + "," + git("commit", "-qm", "sandboxed work")
results["move_main"] = git("branch", "-f", "main", "HEAD")
results["move_other_session"] = git("update-ref", "refs/heads/harness/00000000", "HEAD")
results["delete_other_session"] = git("branch", "-D", "harness/00000000")
report()
"""

EXPECTED = {
    "write_home": "Read-only file system",
    "write_main_checkout": "Read-only file system",
    "write_main_git_config": "Read-only file system",
    "write_etc": "Read-only file system",
    "write_other_repo": "Read-only file system",
    "read_other_repo": "ok",
    "read_hidden_repo": "No such file or directory",
    "read_ssh_key": "No such file or directory",
    "read_gzia_config": "No such file or directory",
    "read_outside_environ": "No such file or directory",
    "read_home_file": "ok",
    "write_tmp": "ok",
    "token_in_a_visible_environ": "False",
    "commit": "ok,ok",
    "move_main": "refused",
    "move_other_session": "refused",
    "delete_other_session": "refused",
}


def _world(home: Path, repo: Path) -> dict[str, str]:
    """Secrets and other repositories in the (fake) home; the environment that names them."""
    (home / ".ssh").mkdir()
    (home / ".ssh" / "id_ed25519").write_text("PRIVATE KEY\n")
    config = home / ".xdg-config" / "gz-ia" / "config.toml"
    config.parent.mkdir(parents=True)
    config.write_text('forgejo_token = "gz-test-token"\n')
    for name in ("other", "hidden"):
        (home / "src" / name).mkdir(parents=True)
        (home / "src" / name / "README").write_text("another project\n")
    git(repo, "branch", "harness/00000000")  # another session's branch
    return {"MAIN": str(repo), "OTHER": str(home / "src" / "other"),
            "HIDDEN": str(home / "src" / "hidden"), "GZCONFIG": str(config),
            "OUTSIDE_PID": str(os.getpid()), "GZ_FORGEJO_TOKEN": "gz-test-token",
            "GZ_SANDBOX_HIDE": str(home / "src" / "hidden"), "GZ_SANDBOX_NETWORK": "none"}


def test_a_sandboxed_agent_writes_only_its_worktree_and_branch(
        gz: Gz, probe: Any, repo: Path, isolated_env: Path) -> None:
    probe("tries", TRIES)
    env = _world(isolated_env, repo)
    main_tip = git(repo, "rev-parse", "main")

    result = gz("--json", "exec", "--sandbox", "--", "tries", cwd=repo, env=env)

    assert result.exit_code == 0, result.stderr
    record = result.json["data"]
    assert report_of(repo, record) == EXPECTED
    assert git(repo, "log", "-1", "--format=%s", f"harness/{record['id']}") == "sandboxed work"
    assert git(repo, "rev-parse", "main") == main_tip
    assert git(repo, "rev-parse", "harness/00000000") == main_tip
    assert not (isolated_env / "planted").exists() and not (repo / "planted").exists()
    assert "forgejo_token" in (isolated_env / ".xdg-config" / "gz-ia" / "config.toml").read_text()
    root, worktree = Path(repo), Path(record["worktree_dir"])
    assert record["sandbox"] == {
        "network": "none",
        "rw": [str(root / ".git" / "objects"), str(root / ".git" / "worktrees" / record["id"]),
               str(root / ".git" / "refs" / "heads" / "harness"),
               str(root / ".git" / "logs" / "refs" / "heads" / "harness"), str(worktree)],
        "hidden": [str(isolated_env / ".ssh"), str(isolated_env / ".xdg-config" / "gz-ia"),
                   str(isolated_env / "src" / "hidden")],
    }
    stored = json.loads((root / ".harness" / "sessions" / f"{record['id']}.json").read_text())
    assert stored["sandbox"] == record["sandbox"]
