"""Session guardrails with a real git: a stand-in agent tries to move the user's branch and
to push, does its normal work, and the project's own hooks still run."""

from __future__ import annotations

import json
import os
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import Result
from tests.run.conftest import git, stored_record

Gz = Callable[..., Result]

# Each git step is noted as "<name>=<exit code>"; git's messages go to the agent's stderr.
AGENT = """
import json
def step(name, *args):
    done = subprocess.run(["git", *args])
    note(name, done.returncode)
with open("work.txt", "w") as handle:
    handle.write("agent work\\n")
step("add", "add", "work.txt")
step("commit", "commit", "-qm", "agent work")
step("update_ref", "update-ref", "refs/heads/main", "HEAD")
step("push", "push", "-q", os.environ["REMOTE"], "HEAD:refs/heads/main")
step("new_branch", "branch", "other")
step("tag", "tag", "v1")
step("amend", "commit", "-q", "--amend", "--no-verify", "-m", "agent work, amended")
"""

HOOK = """#!/bin/sh
echo "$PWD $*" >> "{log}/{name}"
printf '%s %s [%s]\n' "$PWD" "$1" "$(tr '\n' ';')" >> "{log}/{name}.input"
"""


def project_hook(hooks_dir: Path, name: str, log: Path) -> None:
    hooks_dir.mkdir(parents=True, exist_ok=True)
    path = hooks_dir / name
    path.write_text(HOOK.format(log=log, name=name))
    path.chmod(0o755)


def hook_runs(log: Path, name: str) -> list[str]:
    path = log / name
    return path.read_text().splitlines() if path.exists() else []


def noted(notes: Path) -> dict[str, int]:
    return {path.name: int(path.read_text()) for path in notes.iterdir()
            if not path.name.endswith((".pid", ".tmp"))}


@pytest.fixture
def remote(tmp_path: Path) -> Path:
    path = tmp_path / "remote.git"
    subprocess.run(["git", "init", "-q", "--bare", str(path)], check=True)
    return path


@pytest.fixture
def hook_log(tmp_path: Path) -> Path:
    path = tmp_path / "hook-log"
    path.mkdir()
    return path


@pytest.fixture
def hooked_repo(repo: Path, hook_log: Path) -> Path:
    """The project with its own pre-commit, commit-msg, pre-push and reference-transaction."""
    for name in ("pre-commit", "commit-msg", "pre-push", "reference-transaction"):
        project_hook(repo / ".git" / "hooks", name, hook_log)
    return repo


def repo_config(repo: Path) -> str:
    return git(repo, "config", "--list", "--local", "--show-origin")


def test_the_agent_cannot_move_the_users_branch_or_push_and_its_work_and_hooks_run(  # noqa: PLR0917 - pytest fixtures
    gz: Gz, agent: Any, hooked_repo: Path, remote: Path, notes: Path, hook_log: Path
) -> None:
    repo = hooked_repo
    agent("agent", AGENT)
    main_before, config_before = git(repo, "rev-parse", "main"), repo_config(repo)

    result = gz("--json", "exec", "--", "agent", cwd=repo, env={"REMOTE": str(remote)})

    assert result.exit_code == 0, result.stderr
    record = result.json["data"]
    assert noted(notes) == {"add": 0, "commit": 0, "update_ref": 128, "push": 1,
                            "new_branch": 128, "tag": 128, "amend": 0}
    assert git(repo, "rev-parse", "main") == main_before
    assert git(repo, "status", "--porcelain") == ""  # no staged deletions in the main tree
    assert git(repo, "log", "-1", "--format=%s", record["branch_name"]) == "agent work, amended"
    assert git(repo, "branch", "--list", "other") == "" and git(repo, "tag") == ""
    assert git(remote, "for-each-ref") == ""
    assert repo_config(repo) == config_before  # nothing was written to the user's config
    assert not (repo / ".git" / "config.worktree").exists()
    worktree = record["worktree_dir"]
    assert hook_runs(hook_log, "pre-commit") == [f"{worktree} "]  # --no-verify skipped one
    assert len(hook_runs(hook_log, "commit-msg")) == 1
    assert hook_runs(hook_log, "pre-push") == []  # refused before the project's pre-push
    transactions = hook_runs(hook_log, "reference-transaction")
    assert f"{worktree} prepared" in transactions and f"{worktree} committed" in transactions
    assert f"{worktree} aborted" in transactions  # told that the refused update was undone
    given = hook_runs(hook_log, "reference-transaction.input")  # the input, passed on
    branch = f"refs/heads/{record['branch_name']}"
    prepared = [run for run in given if run.startswith(f"{worktree} prepared ")]
    # the agent's commit and amend: gz-ia's hook buffered the input and passed it on
    assert [run.count(f" {branch};") for run in prepared[-2:]] == [1, 1]
    assert [run for run in given if " refs/heads/main;" in run] == [
        f"{worktree} aborted [0000000000000000000000000000000000000000 "
        f"{git(repo, 'rev-parse', record['branch_name'] + '@{1}')} refs/heads/main;]"]
    assert ("[gz-ia GUARD] Forbidden change: the reference 'refs/heads/main' cannot be "
            "modified from this worktree.") in result.stderr
    assert (f"[gz-ia GUARD] Commit the session's work on harness/{record['id']}; the operator "
            f"merges it with 'gz-ia session merge {record['id']}'.") in result.stderr
    assert ("[gz-ia GUARD] 'git push' is strictly forbidden from a gz-ia session worktree."
            in result.stderr)


def test_guard_messages_are_in_spanish(gz: Gz, agent: Any, repo: Path, remote: Path) -> None:
    agent("agent", AGENT)

    result = gz("exec", "--", "agent", cwd=repo, env={"REMOTE": str(remote), "GZ_LANG": "es"})

    assert result.exit_code == 0, result.stderr
    assert ("[gz-ia GUARD] Modificación prohibida: la referencia 'refs/heads/main' no puede "
            "ser modificada desde este worktree.") in result.stderr
    assert ("[gz-ia GUARD] 'git push' está estrictamente prohibido desde un worktree de sesión "
            "de gz-ia.\n[gz-ia GUARD] La integración y publicación al remoto deben realizarse "
            "por el operador humano en el repositorio principal.\n") in result.stderr


PUSH_ONLY = """
done = subprocess.run(["git", "push", "-q", os.environ["REMOTE"], "HEAD:refs/heads/session"])
note("push", done.returncode)
"""


@pytest.mark.parametrize("how", ["flag", "env", "config"])
def test_pushes_can_be_allowed(  # noqa: PLR0917 - pytest fixtures
    how: str, gz: Gz, agent: Any, hooked_repo: Path, remote: Path, notes: Path, hook_log: Path
) -> None:
    agent("agent", PUSH_ONLY)
    env = {"REMOTE": str(remote)}
    args = ["exec", "--allow-push", "--", "agent"] if how == "flag" else ["exec", "--", "agent"]
    if how == "env":
        env["GZ_ALLOW_PUSH"] = "1"
    if how == "config":
        assert gz("config", "set", "allow_push", "true", cwd=hooked_repo).exit_code == 0

    result = gz("--json", *args, cwd=hooked_repo, env=env)

    assert result.exit_code == 0, result.stderr
    assert noted(notes) == {"push": 0}
    assert git(remote, "rev-parse", "session") == git(hooked_repo, "rev-parse", "main")
    worktree = result.json["data"]["worktree_dir"]
    assert [run.split(" ")[0] for run in hook_runs(hook_log, "pre-push")] == [worktree]
    assert result.json["data"]["allow_push"] is True  # kept for a resume


def test_a_resumed_session_keeps_its_push_permission(
    gz: Gz, agent: Any, repo: Path, remote: Path, notes: Path
) -> None:
    agent("agent", PUSH_ONLY)
    first = gz("--json", "exec", "--allow-push", "--", "agent", cwd=repo,
               env={"REMOTE": str(remote)})
    assert first.exit_code == 0, first.stderr
    git(remote, "update-ref", "-d", "refs/heads/session")

    resumed = gz("--json", "resume", first.json["data"]["id"], cwd=repo,
                 env={"REMOTE": str(remote)})

    assert resumed.exit_code == 0, resumed.stderr
    assert noted(notes) == {"push": 0}
    assert git(remote, "rev-parse", "session") == git(repo, "rev-parse", "main")


def test_the_users_own_git_config_entries_are_kept(
    gz: Gz, agent: Any, repo: Path, remote: Path, notes: Path
) -> None:
    agent("agent", AGENT)
    user_entries = {"GIT_CONFIG_COUNT": "1", "GIT_CONFIG_KEY_0": "user.name",
                    "GIT_CONFIG_VALUE_0": "Entry From The Environment"}

    result = gz("--json", "exec", "--", "agent", cwd=repo,
                env={"REMOTE": str(remote), **user_entries})

    assert result.exit_code == 0, result.stderr
    assert noted(notes)["update_ref"] == 128
    branch = result.json["data"]["branch_name"]
    assert git(repo, "log", "-1", "--format=%an", branch) == "Entry From The Environment"


def test_a_project_hooks_path_of_its_own_still_runs(  # noqa: PLR0917 - pytest fixtures
    gz: Gz, agent: Any, repo: Path, remote: Path, hook_log: Path, notes: Path
) -> None:
    project_hook(repo / ".githooks", "pre-commit", hook_log)
    project_hook(repo / ".githooks", "post-commit", hook_log)
    git(repo, "add", ".githooks")
    git(repo, "commit", "-qm", "hooks")
    git(repo, "config", "core.hooksPath", ".githooks")  # relative: each work tree's own copy
    agent("agent", AGENT)

    result = gz("--json", "exec", "--", "agent", cwd=repo, env={"REMOTE": str(remote)})

    assert result.exit_code == 0, result.stderr
    assert noted(notes)["update_ref"] == 128
    worktree = result.json["data"]["worktree_dir"]
    assert hook_runs(hook_log, "pre-commit") == [f"{worktree} "]
    assert hook_runs(hook_log, "post-commit") == [f"{worktree} ", f"{worktree} "]


CLONE_AND_COMMIT = """
other = os.environ["OTHER"]
note("clone", subprocess.run(["git", "clone", "-q", "--template", os.environ["TEMPLATE"],
                              os.environ["SOURCE"], other]).returncode)
with open(os.path.join(other, "file.txt"), "w") as handle:
    handle.write("elsewhere\\n")
subprocess.run(["git", "-C", other, "add", "file.txt"], check=True)
note("commit", subprocess.run(["git", "-C", other, "commit", "-qm", "elsewhere"]).returncode)
note("branch", subprocess.run(["git", "-C", other, "branch", "topic"]).returncode)
"""


def test_a_clone_made_by_the_agent_is_not_restricted(  # noqa: PLR0917 - pytest fixtures
    gz: Gz, agent: Any, hooked_repo: Path, tmp_path: Path, notes: Path, hook_log: Path
) -> None:
    source = tmp_path / "source"
    subprocess.run(["git", "init", "-q", str(source)], check=True)
    subprocess.run(["git", "-C", str(source), "commit", "-q", "--allow-empty", "-m", "s"],
                   check=True)
    template, other_log = tmp_path / "template", tmp_path / "other-log"
    other_log.mkdir()
    project_hook(template / "hooks", "pre-commit", other_log)  # the clone's own hook
    agent("agent", CLONE_AND_COMMIT)
    other = tmp_path / "other"

    result = gz("--json", "exec", "--", "agent", cwd=hooked_repo,
                env={"SOURCE": str(source), "OTHER": str(other), "TEMPLATE": str(template)})

    assert result.exit_code == 0, result.stderr
    assert noted(notes) == {"clone": 0, "commit": 0, "branch": 0}
    assert git(other, "log", "-1", "--format=%s") == "elsewhere"
    assert hook_runs(other_log, "pre-commit") == [f"{other} "]
    assert hook_runs(hook_log, "pre-commit") == []  # the project's hooks stay with the project
    assert "GUARD" not in result.stderr


def test_the_guard_environment_is_written_down_for_the_agent(
    gz: Gz, agent: Any, repo: Path, tmp_path: Path
) -> None:
    dump = tmp_path / "env.json"
    agent("agent", f"import json\njson.dump(dict(os.environ), open({str(dump)!r}, 'w'))\n")

    result = gz("--json", "exec", "--", "agent", cwd=repo)

    assert result.exit_code == 0, result.stderr
    record = result.json["data"]
    env = json.loads(dump.read_text())
    hooks = env["GIT_CONFIG_VALUE_0"]
    assert {k: v for k, v in env.items() if k.startswith(("GIT_CONFIG", "GZ_"))} == {
        "GIT_CONFIG_COUNT": "3",
        "GIT_CONFIG_KEY_0": "core.hooksPath", "GIT_CONFIG_VALUE_0": hooks,
        "GIT_CONFIG_KEY_1": "gc.auto", "GIT_CONFIG_VALUE_1": "0",
        "GIT_CONFIG_KEY_2": "maintenance.auto", "GIT_CONFIG_VALUE_2": "false",
        "GZ_SESSION_ID": record["id"], "GZ_GUARD_ALLOW_PUSH": "0",
        "GZ_GUARD_CONFIG_INDEX": "0", "GZ_GUARD_COMMON_DIR": str(repo / ".git"),
        "GZ_GUARD_GIT_DIR": str(repo / ".git" / "worktrees" / record["id"]),
    }
    assert Path(hooks).parent == repo / ".harness" / "hooks"
    assert "reference-transaction" in os.listdir(hooks)
    assert stored_record(repo, record["id"]).get("allow_push") is None


def test_hooks_are_never_written_through_a_symlink(
    gz: Gz, agent: Any, repo: Path, tmp_path: Path, notes: Path
) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (repo / ".harness").mkdir()
    (repo / ".harness" / "hooks").symlink_to(elsewhere)
    agent("agent", "note('started', 1)\n")

    result = gz("--json", "exec", "--", "agent", cwd=repo)

    assert result.exit_code == 1
    error = result.json["errors"][0]
    path = str(repo / ".harness" / "hooks")
    assert (error["code"], error["message"], error["details"]) == (
        "IO", f"{path} is a symbolic link: gz-ia writes no session hooks through it",
        {"path": path})
    assert list(elsewhere.iterdir()) == [] and not (notes / "started").exists()
    assert result.json["data"]["status"] == "failed"


OLD_GIT = """#!/bin/sh
if [ "$1" = version ] || [ "$1" = --version ]; then echo "git version 2.30.2"; exit 0; fi
exec {git} "$@"
"""


@pytest.mark.parametrize(("lang", "message"), [
    ("en", "git 2.30.2 is older than 2.31: the session runs without its guardrails (pushes "
           "and ref updates outside its branch are not refused)"),
    ("es", "git 2.30.2 es anterior a 2.31: la sesión se ejecuta sin sus salvaguardas (no se "
           "rechazan los push ni los cambios de referencias fuera de su rama)"),
])
def test_a_git_too_old_for_guardrails_is_reported(  # noqa: PLR0917 - pytest fixtures
    gz: Gz, agent: Any, repo: Path, bin_dir: Path, tmp_path: Path, lang: str, message: str
) -> None:
    import shutil

    wrapper = bin_dir / "git"  # first on the PATH of gz-ia and of the agent
    wrapper.write_text(OLD_GIT.format(git=shutil.which("git")))
    wrapper.chmod(0o755)
    dump = tmp_path / "env.json"
    agent("agent", f"import json\njson.dump(dict(os.environ), open({str(dump)!r}, 'w'))\n")

    result = gz("--json", "exec", "--", "agent", cwd=repo, env={"GZ_LANG": lang})

    assert result.exit_code == 0, result.stderr
    assert result.json["warnings"] == [{
        "code": "GUARDRAILS_OFF", "message": message, "retryable": False, "hint": None,
        "details": {"git_version": "2.30.2", "minimum": "2.31"},
    }]
    env = json.loads(dump.read_text())
    assert not any(name.startswith(("GIT_CONFIG", "GZ_GUARD")) for name in env)
    assert not (repo / ".harness" / "hooks").exists()


@pytest.mark.pyz
def test_the_shipped_zipapp_guards_a_session(  # noqa: PLR0917 - pytest fixtures
    run_pyz: Callable[..., Result], agent: Any, repo: Path, remote: Path, notes: Path,
    run_env: dict[str, str],
) -> None:
    agent("agent", AGENT)

    result = run_pyz("--json", "exec", "--", "agent", cwd=repo,
                     env={**run_env, "REMOTE": str(remote)})

    assert result.exit_code == 0, result.stderr
    assert noted(notes) == {"add": 0, "commit": 0, "update_ref": 128, "push": 1,
                            "new_branch": 128, "tag": 128, "amend": 0}
    assert git(remote, "for-each-ref") == ""
