"""gz-ia's own secrets never reach the project's git hooks it runs: a real ``session merge``
(plain and ``--squash``) with hooks that write down the environment they were given."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import Result
from tests.run.conftest import git
from tests.run.test_agent_environment import KEPT, SECRETS, assert_no_secret

Gz = Callable[..., Result]

HOOK = f"""#!{sys.executable}
import json, os, sys
name = os.path.basename(sys.argv[0])
with open(os.path.join(os.environ["HOOK_DUMPS"], name + ".json"), "w") as handle:
    json.dump(dict(os.environ), handle)
"""
HOOKS = ("pre-commit", "pre-merge-commit", "prepare-commit-msg", "commit-msg", "post-commit",
         "post-merge")


def install_hooks(repo: Path) -> None:
    hooks = repo / ".git" / "hooks"
    for name in HOOKS:
        (hooks / name).write_text(HOOK)
        (hooks / name).chmod(0o755)


@pytest.mark.parametrize(("options", "ran"), [
    # the worktree's uncommitted file is committed first: the commit hooks run there too
    ([], sorted(HOOKS)),
    (["--squash"], ["commit-msg", "post-commit", "post-merge", "pre-commit",
                    "prepare-commit-msg"]),
], ids=["merge", "squash"])
def test_the_project_hooks_of_a_merge_get_no_gz_ia_secret(
    gz: Gz, repo: Path, tmp_path: Path, options: list[str], ran: list[str]
) -> None:
    dumps = tmp_path / "dumps"
    dumps.mkdir()
    env = {**SECRETS, **KEPT, "HOOK_DUMPS": str(dumps)}
    started = gz("--json", "exec", "--", "sh", "-c", "echo work > work.txt", cwd=repo, env=env)
    assert started.exit_code == 0, started.stderr
    session_id = started.json["data"]["id"]
    (repo / "base.txt").write_text("the user's own work\n")  # the merge is not a fast-forward
    git(repo, "add", "base.txt")
    git(repo, "commit", "-qm", "user: base work", "--no-verify")
    install_hooks(repo)

    merged = gz("--json", "session", "merge", session_id, *options, cwd=repo, env=env)

    assert merged.exit_code == 0, merged.stdout + merged.stderr
    assert sorted(p.stem for p in dumps.iterdir()) == ran
    for dump in dumps.iterdir():
        environment = json.loads(dump.read_text())
        assert_no_secret(environment)
        assert {name: environment.get(name) for name in KEPT} == KEPT
