"""The base is the work tree gz-ia runs in: a user's linked worktree is its own base.

A main worktree on ``master`` and a linked worktree ``feat`` on ``feature``, each with a
commit the other lacks. Sessions started in ``feat`` branch from ``feature`` and merge
into it; the main worktree, its branch, index and status are never touched. The store
stays the main worktree's, so every session is listed from both.
"""

from __future__ import annotations

import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from gzia.sessions.project import find_project
from tests.conftest import Result
from tests.run.conftest import git, normalized, stored_record

Gz = Callable[..., Result]
Cli = Callable[..., Result]
ES = {"GZ_LANG": "es"}

WRITE_AND_COMMIT = """
import os
with open("agent.txt", "w") as handle:
    handle.write("by the agent\\n")
subprocess.run(["git", "add", "agent.txt"], check=True)
subprocess.run(["git", "commit", "-qm", "agent work"], check=True)
print(sorted(name for name in os.listdir(".") if name.endswith(".txt")))
"""


@pytest.fixture
def main(tmp_path: Path) -> Path:
    root = tmp_path / "main"
    root.mkdir()
    git(root, "init", "-q", "-b", "master")
    (root / "common.txt").write_text("common\n")
    git(root, "add", "common.txt")
    git(root, "commit", "-qm", "common")
    git(root, "branch", "feature")
    (root / "master.txt").write_text("only on master\n")
    git(root, "add", "master.txt")
    git(root, "commit", "-qm", "master work")
    return root


@pytest.fixture
def feat(main: Path, tmp_path: Path) -> Path:
    linked = tmp_path / "feat"
    git(main, "worktree", "add", "-q", str(linked), "feature")
    (linked / "feature.txt").write_text("only on feature\n")
    git(linked, "add", "feature.txt")
    git(linked, "commit", "-qm", "feature work")
    return linked


def state(directory: Path) -> dict[str, str]:
    """What a merge must leave alone: the branch, HEAD, the index and the status."""
    index = git(directory, "rev-parse", "--path-format=absolute", "--git-path", "index")
    return {"branch": git(directory, "symbolic-ref", "--short", "HEAD"),
            "head": git(directory, "rev-parse", "HEAD"),
            "index": Path(index).read_bytes().hex(),
            "status": git(directory, "status", "--porcelain", "--untracked-files=all")}


def exec_session(gz: Gz, agent: Any, cwd: Path) -> dict[str, Any]:
    agent("write-and-commit", WRITE_AND_COMMIT)
    result = gz("--json", "exec", "--", "write-and-commit", cwd=cwd)
    assert result.exit_code == 0, result.stderr
    record: dict[str, Any] = result.json["data"]
    return record


@pytest.fixture
def from_feat(gz: Gz, agent: Any, feat: Path) -> dict[str, Any]:
    """A finished session started in the linked worktree (its agent committed agent.txt)."""
    return exec_session(gz, agent, feat)


# the project and its base


def test_the_base_is_the_work_tree_gz_ia_runs_in(main: Path, feat: Path) -> None:
    (feat / "sub").mkdir()
    for start, base in ((main, main), (main / ".git", main), (feat, feat),
                        (feat / "sub", feat), (main / ".git" / "worktrees" / "feat", main)):
        project = find_project(start)
        assert (project.root, project.base, project.git_common_dir) == (
            main, base, main / ".git"), start
    assert find_project(main).base_root is None


def test_a_session_worktree_has_the_main_worktree_as_its_base(
    gz: Gz, agent: Any, main: Path, feat: Path
) -> None:
    record = exec_session(gz, agent, feat)
    worktree = Path(record["worktree_dir"])
    assert worktree.parent == main / ".harness" / "worktrees"
    assert find_project(worktree).base == main
    nested = exec_session(gz, agent, worktree)  # run from inside the session worktree
    assert (nested["base_branch"], nested["base_commit"]) == (
        "master", git(main, "rev-parse", "master"))


# exec


def test_exec_from_a_linked_worktree_branches_from_its_head(
    gz: Gz, agent: Any, main: Path, feat: Path
) -> None:
    main_before, feat_before = state(main), state(feat)
    record = exec_session(gz, agent, feat)

    assert normalized(record)["base_branch"] == "feature"
    assert record["base_commit"] == git(feat, "rev-parse", "feature")
    assert record["working_dir"] == str(main)  # the project: where the store lives
    assert stored_record(main, record["id"]) == record
    assert not (feat / ".harness").exists()
    branch = record["branch_name"]
    assert git(main, "rev-parse", f"{branch}~1") == git(feat, "rev-parse", "feature")
    assert git(main, "ls-tree", "--name-only", branch).splitlines() == [
        "agent.txt", "common.txt", "feature.txt"]
    assert (state(main), state(feat)) == (main_before, feat_before)


def test_exec_from_a_linked_worktree_names_its_base_in_both_languages(
    gz: Gz, agent: Any, main: Path, feat: Path
) -> None:
    agent("write-and-commit", WRITE_AND_COMMIT)
    english = gz("exec", "--", "write-and-commit", cwd=feat)
    spanish = gz("exec", "--", "write-and-commit", cwd=feat, env=ES)
    for result in (english, spanish):
        assert result.exit_code == 0, result.stderr
        assert result.stdout == "['agent.txt', 'common.txt', 'feature.txt']\n"
    sid = english.stderr.split("in session ")[1][:8]
    worktree = main / ".harness" / "worktrees" / sid
    assert english.stderr.splitlines()[0] == (
        f"❯❯ Running write-and-commit in session {sid} "
        f"(Workspace: Isolated worktree ({worktree}) from feature)...")
    sid = spanish.stderr.split("en la sesión ")[1][:8]
    worktree = main / ".harness" / "worktrees" / sid
    assert spanish.stderr.splitlines()[0] == (
        f"❯❯ Ejecutando write-and-commit en la sesión {sid} "
        f"(Espacio de trabajo: Worktree aislado ({worktree}) a partir de feature)...")


def test_a_session_from_the_linked_worktree_is_listed_from_both(
    gz: Gz, agent: Any, main: Path, feat: Path
) -> None:
    from_feat = exec_session(gz, agent, feat)
    from_main = exec_session(gz, agent, main)
    expected = sorted([from_feat["id"], from_main["id"]])
    for cwd in (main, feat, Path(from_feat["worktree_dir"])):
        listed = gz("--json", "session", "list", cwd=cwd)
        assert listed.exit_code == 0, listed.stderr
        assert sorted(r["id"] for r in listed.json["data"]["sessions"]) == expected, cwd
    shown = gz("--json", "session", "show", from_feat["id"], cwd=main).json["data"]
    assert (shown["base_branch"], shown["base_commit"]) == (
        "feature", from_feat["base_commit"])


# merge


def test_merge_from_the_linked_worktree_lands_on_its_branch(
    gz: Gz, cli: Cli, agent: Any, main: Path, feat: Path
) -> None:
    record = exec_session(gz, agent, feat)
    (main / "scratch.txt").write_text("the main worktree may be dirty\n")
    main_before, master_before = state(main), git(main, "rev-parse", "master")
    feature_before = git(feat, "rev-parse", "HEAD")

    result = cli("--json", "session", "merge", record["id"], cwd=feat)

    assert result.exit_code == 0, result.stderr
    data = result.json["data"]
    assert (data["into"], data["files"], data["already_up_to_date"]) == (
        "feature", ["agent.txt"], False)
    assert data["head"] == git(feat, "rev-parse", "HEAD") == git(
        main, "rev-parse", record["branch_name"])
    assert git(feat, "rev-parse", "HEAD~1") == feature_before
    assert (feat / "agent.txt").read_text() == "by the agent\n"
    assert git(feat, "status", "--porcelain", "--untracked-files=all") == ""
    assert (state(main), git(main, "rev-parse", "master")) == (main_before, master_before)
    assert not (main / "agent.txt").exists()
    assert data["session"]["merged_commit"] == data["head"]


def test_merge_from_the_main_worktree_still_merges_into_master(
    gz: Gz, cli: Cli, agent: Any, main: Path, feat: Path
) -> None:
    record = exec_session(gz, agent, main)
    assert (record["base_branch"], record["base_commit"]) == (
        "master", git(main, "rev-parse", "master"))
    feat_before = state(feat)
    result = cli("session", "merge", record["id"], "-d", str(main), env=ES)
    assert (result.exit_code, result.stderr) == (0, "")
    assert result.stdout == (
        f"✓ Fusión completada con éxito para la sesión '{record['id']}'.\n"
        "Archivos integrados:\n  • agent.txt\n"
        "Avance rápido de master: no se hizo un commit de fusión.\n")
    assert git(main, "rev-parse", "master") == git(main, "rev-parse", record["branch_name"])
    assert state(feat) == feat_before


def test_merge_from_a_session_worktree_merges_into_the_main_worktree(
    gz: Gz, cli: Cli, agent: Any, main: Path, feat: Path
) -> None:
    record = exec_session(gz, agent, feat)
    feat_before = state(feat)
    worktree = Path(record["worktree_dir"])
    result = cli("--json", "session", "merge", record["id"], cwd=worktree)
    assert result.exit_code == 0, result.stderr
    assert result.json["data"]["into"] == "master"
    assert git(main, "show", "master:agent.txt") == "by the agent"
    assert state(feat) == feat_before


@pytest.mark.parametrize("lang", ["en", "es"])
def test_a_dirty_linked_worktree_refuses_the_merge(
    cli: Cli, from_feat: dict[str, Any], main: Path, feat: Path, lang: str
) -> None:
    record = from_feat
    (feat / "wip.txt").write_text("uncommitted\n")
    main_before, feat_before = state(main), state(feat)
    result = cli("--json", "session", "merge", record["id"], cwd=feat, env={"GZ_LANG": lang})
    assert result.exit_code == 1
    error = result.json["errors"][0]
    assert (error["code"], error["details"]) == (
        "SAFETY_BLOCK", {"root": str(feat), "files": ["wip.txt"]})
    assert error["message"] == {
        "en": (f"the base repository ('{feat}') has uncommitted changes or untracked files: "
               "wip.txt.\n"
               "Commit or stash them before merging the session's changes, to avoid "
               "losing data"),
        "es": (f"el repositorio base ('{feat}') tiene modificaciones o archivos sin "
               "comitear: wip.txt.\nPor favor realiza commit o stash antes de integrar los cambios "
               "de la sesión para evitar pérdida accidental de datos"),
    }[lang]
    assert (state(main), state(feat)) == (main_before, feat_before)


def test_an_operation_in_progress_in_the_linked_worktree_refuses_the_merge(
    gz: Gz, cli: Cli, agent: Any, main: Path, feat: Path
) -> None:
    record = exec_session(gz, agent, feat)
    git(feat, "switch", "-q", "-c", "side", "HEAD~1")
    (feat / "common.txt").write_text("side\n")
    git(feat, "commit", "-qam", "side")
    git(feat, "switch", "-q", "feature")
    (feat / "common.txt").write_text("feature\n")
    git(feat, "commit", "-qam", "feature change")
    merged = subprocess.run(["git", "merge", "-q", "side"], cwd=feat, capture_output=True,
                            text=True, check=False)
    assert merged.returncode == 1  # the user's own conflicted merge, left half done
    main_before, feat_before = state(main), state(feat)
    result = cli("--json", "session", "merge", record["id"], cwd=feat)
    assert result.exit_code == 1
    error = result.json["errors"][0]
    assert (error["code"], error["details"]) == (
        "SAFETY_BLOCK", {"root": str(feat), "operation": "merge"})
    assert (state(main), state(feat)) == (main_before, feat_before)


def test_conflicts_are_checked_against_the_linked_worktrees_branch(
    gz: Gz, cli: Cli, agent: Any, main: Path, feat: Path
) -> None:
    agent("edit-feature", """
with open("feature.txt", "w") as handle:
    handle.write("the agent's\\n")
subprocess.run(["git", "commit", "-qam", "agent edit"], check=True)
""")
    done = gz("--json", "exec", "--", "edit-feature", cwd=feat)
    assert done.exit_code == 0, done.stderr
    sid = done.json["data"]["id"]
    (feat / "feature.txt").write_text("the user's\n")
    git(feat, "commit", "-qam", "user edit")
    main_before, feat_before = state(main), state(feat)
    result = cli("--json", "session", "merge", sid, cwd=feat)
    assert result.exit_code == 1
    error = result.json["errors"][0]
    assert (error["code"], error["details"]["files"]) == ("CONFLICT", ["feature.txt"])
    assert "git merge feature there" in error["hint"]
    assert (state(main), state(feat)) == (main_before, feat_before)


def test_a_refused_merge_commit_puts_the_linked_worktree_back(
    gz: Gz, cli: Cli, agent: Any, main: Path, feat: Path
) -> None:
    record = exec_session(gz, agent, feat)
    (feat / "more.txt").write_text("the user moves on\n")  # no fast-forward: a merge commit
    git(feat, "add", "more.txt")
    git(feat, "commit", "-qm", "more")
    hook = main / ".git" / "hooks" / "pre-merge-commit"
    hook.write_text("#!/bin/sh\necho 'no merges today' >&2\nexit 1\n")
    hook.chmod(0o755)
    main_before, feat_before = state(main), state(feat)
    result = cli("--json", "session", "merge", record["id"], cwd=feat)
    assert result.exit_code == 1
    error = result.json["errors"][0]
    assert (error["code"], error["details"]["root"]) == ("SAFETY_BLOCK", str(feat))
    assert "no merges today" in error["details"]["output"]
    assert (state(main), state(feat)) == (main_before, feat_before)
    assert git(main, "rev-parse", record["branch_name"]) == git(
        Path(record["worktree_dir"]), "rev-parse", "HEAD")
