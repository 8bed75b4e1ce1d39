"""A projection owns only what it creates: the project's files and links stay as they are.

Whatever stands where a projection would write (a file, a link to inside or outside the
worktree, a dangling link, a directory, a link among the parent directories), gz-ia
neither replaces, follows nor deletes it, and ``session merge`` brings in only the
agent's work.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.profiles.conftest import git
from tests.profiles.projection_kit import BLOCK, gz, make_setup, start

RULES = "Project rules.\n"


@pytest.fixture
def setup(repo: Path, config_dir: Path, tmp_path: Path) -> dict[str, Any]:
    return make_setup(repo, config_dir, tmp_path)


def commit_all(repo: Path) -> str:
    git(repo, "add", "-A", "--", ".", ":!.harness")  # the profile and skills stay out
    git(repo, "commit", "-qm", "the project's instructions")
    return git(repo, "ls-files", "-s")


def plain_file(repo: Path, outside: Path) -> None:
    (repo / "AGENTS.md").write_text(RULES)


def link_inside(repo: Path, outside: Path) -> None:
    (repo / "docs").mkdir()
    (repo / "docs" / "AGENTS.md").write_text(RULES)
    (repo / "AGENTS.md").symlink_to("docs/AGENTS.md")


def link_outside(repo: Path, outside: Path) -> None:
    (repo / "AGENTS.md").symlink_to(outside)


def dangling_link(repo: Path, outside: Path) -> None:
    (repo / "AGENTS.md").symlink_to("nowhere/AGENTS.md")


def directory(repo: Path, outside: Path) -> None:
    (repo / "AGENTS.md").mkdir()
    (repo / "AGENTS.md" / "README").write_text(RULES)


KINDS: dict[str, Callable[[Path, Path], None]] = {
    "file": plain_file, "link inside": link_inside, "link outside": link_outside,
    "dangling link": dangling_link, "directory": directory,
}


def project_with(setup: dict[str, Any], tmp_path: Path, kind: str) -> tuple[Path, Path]:
    """The project with ``kind`` at ``AGENTS.md``, and a file outside the worktree."""
    outside = tmp_path / "outside" / "AGENTS.md"
    outside.parent.mkdir()
    outside.write_text(RULES)
    KINDS[kind](setup["repo"], outside)
    return setup["repo"], outside


def merged_cleanly(setup: dict[str, Any], session_id: str, before: str, *,
                   work: bool = True) -> None:
    """``session merge`` brings the agent's work (``work``) and nothing else; the
    project's own entries (modes and blobs: a link stays a link) are as they were."""
    repo = setup["repo"]
    merged = gz(setup, "session", "merge", session_id, "--json")
    assert merged.exit_code == 0, merged.stdout + merged.stderr
    assert merged.json["data"]["files"] == (["work.txt"] if work else [])
    after = git(repo, "ls-files", "-s").splitlines()
    assert [line for line in after if not line.endswith("\twork.txt")] == before.splitlines()
    assert git(repo, "status", "--porcelain") == ""


@pytest.mark.parametrize(("kind", "lang"), [(k, lang) for k in KINDS for lang in ("en", "es")])
def test_an_agent_without_a_second_file_is_refused_and_nothing_is_touched(
    setup: dict[str, Any], tmp_path: Path, kind: str, lang: str
) -> None:
    repo, outside = project_with(setup, tmp_path, kind)
    before = commit_all(repo)
    done = start(setup, "shell", GZ_LANG=lang)
    error = done.json["errors"][0]
    expected = {
        "en": ("'AGENTS.md' is the project's own (a file, a link or a directory): a profile "
               "never changes it, and this agent reads no second instructions file",
               "remove the agents file from the profile, or use an agent that reads a second "
               "one (claude, pi-agent, opencode)"),
        "es": ("'AGENTS.md' es del propio proyecto (un archivo, un enlace o un directorio): un "
               "perfil nunca lo cambia, y este agente no lee un segundo archivo de "
               "instrucciones",
               "quita el archivo de agentes del perfil, o usa un agente que lea un segundo "
               "(claude, pi-agent, opencode)"),
    }
    assert (done.exit_code, error["code"]) == (1, "CONFLICT")
    assert (error["message"], error["hint"]) == expected[lang]
    assert not setup["seen"].exists()  # the agent never started
    worktree = repo / ".harness" / "worktrees" / done.json["data"]["id"]
    assert git(worktree, "status", "--porcelain", "--ignored") == ""
    assert outside.read_text() == RULES
    assert sorted(p.name for p in worktree.iterdir()) == sorted(
        [".git", *(p.name for p in repo.iterdir() if p.name not in (".git", ".harness"))])
    merged_cleanly(setup, done.json["data"]["id"], before, work=False)


@pytest.mark.parametrize("kind", list(KINDS))
@pytest.mark.parametrize("provider", ["claude", "pi-agent", "opencode"])
def test_an_agent_with_a_second_file_gets_the_block_there(
    setup: dict[str, Any], tmp_path: Path, kind: str, provider: str
) -> None:
    repo, outside = project_with(setup, tmp_path, kind)
    if provider == "claude":  # the common setup: CLAUDE.md -> AGENTS.md
        (repo / "CLAUDE.md").symlink_to("AGENTS.md")
    before = commit_all(repo)
    done = start(setup, provider)
    assert done.exit_code == 0, done.stdout + done.stderr
    second = {"claude": ".claude/rules/gz-ia-profiles.md", "pi-agent": ".pi/APPEND_SYSTEM.md",
              "opencode": "instructions"}[provider]  # opencode: named in its configuration
    seen = setup["seen"].read_text()
    assert f"== {second}\n{BLOCK}" in seen
    assert seen.endswith("== status\n")  # the agent's git sees nothing projected
    session_id = done.json["data"]["id"]
    worktree = repo / ".harness" / "worktrees" / session_id
    assert not os.path.lexists(worktree / second)
    assert not list((repo / ".harness" / "sessions").glob("*.instructions.md"))
    assert git(worktree, "status", "--porcelain") == ""
    assert outside.read_text() == RULES
    merged_cleanly(setup, session_id, before)


def test_the_reported_case_keeps_claude_md_in_main(setup: dict[str, Any]) -> None:
    """``CLAUDE.md -> AGENTS.md`` committed, a claude session with a profile, merged."""
    repo = setup["repo"]
    (repo / "AGENTS.md").write_text(RULES)
    (repo / "CLAUDE.md").symlink_to("AGENTS.md")
    before = commit_all(repo)
    done = start(setup, "claude")
    assert done.exit_code == 0, done.stdout + done.stderr
    assert f"== CLAUDE.md\n{RULES}== AGENTS.md\n{RULES}== " in setup["seen"].read_text()
    merged_cleanly(setup, done.json["data"]["id"], before)
    assert os.readlink(repo / "CLAUDE.md") == "AGENTS.md"


@pytest.mark.parametrize("target", ["outside", "inside"])
def test_nothing_is_written_through_a_linked_directory(
    setup: dict[str, Any], tmp_path: Path, target: str
) -> None:
    """``.agents -> somewhere``: the skills would land there; refused, nothing written."""
    repo = setup["repo"]
    where = tmp_path / "elsewhere" if target == "outside" else repo / "shared"
    where.mkdir()
    (where / "keep").write_text("kept\n")
    (repo / ".agents").symlink_to(where if target == "outside" else "shared")
    before = commit_all(repo)
    done = start(setup, "shell")
    error = done.json["errors"][0]
    assert (done.exit_code, error["code"]) == (1, "CONFLICT")
    assert error["details"]["path"].startswith(".agents/skills/")
    assert sorted(p.name for p in where.iterdir()) == ["keep"]
    worktree = repo / ".harness" / "worktrees" / done.json["data"]["id"]
    assert git(worktree, "status", "--porcelain", "--ignored") == ""
    merged_cleanly(setup, done.json["data"]["id"], before, work=False)


CHANGED_BY_AGENT = r"""#!/bin/sh
# the agent edits one projected skill and swaps another for a link, then commits by force
printf 'changed\n' >> .agents/skills/lint/SKILL.md
rm .agents/skills/git-commit/SKILL.md
ln -s ../../../README.md .agents/skills/git-commit/SKILL.md
echo work > work.txt
git add -A && git commit -qm work
"""


def run_agent(setup: dict[str, Any], tmp_path: Path, script: str) -> str:
    """``gz-ia exec --profile review`` of the agent ``script``; the session's id."""
    agent = tmp_path / "agent-script"
    agent.write_text(script)
    agent.chmod(0o755)
    done = gz(setup, "exec", "--json", "--profile", "review", "--", str(agent))
    assert done.exit_code == 0, done.stdout + done.stderr
    return str(done.json["data"]["id"])


def test_unprojection_removes_only_what_is_still_as_gz_ia_wrote_it(
    setup: dict[str, Any], tmp_path: Path
) -> None:
    worktree = setup["repo"] / ".harness" / "worktrees" / run_agent(
        setup, tmp_path, CHANGED_BY_AGENT)
    skills = worktree / ".agents" / "skills"
    assert (skills / "lint" / "SKILL.md").read_text().endswith("changed\n")  # the agent's now
    assert os.readlink(skills / "git-commit" / "SKILL.md") == "../../../README.md"
    assert not os.path.lexists(worktree / "AGENTS.md")  # unchanged: removed
    assert (setup["repo"] / "README").exists()


def test_a_manifest_cannot_make_gz_ia_delete_outside_the_worktree(
    setup: dict[str, Any], tmp_path: Path
) -> None:
    """A hand-edited manifest naming ``../`` paths or paths through a link removes nothing."""
    from gzia.sessions.project import find_project
    from gzia.sessions.projected_files import sha256
    from gzia.sessions.projection import manifest_path, unproject

    done = start(setup, "shell")
    session_id = done.json["data"]["id"]
    project = find_project(setup["repo"])
    worktree = project.worktrees_dir / session_id
    victim = tmp_path / "victim.txt"
    victim.write_text("mine\n")
    (worktree / "via").symlink_to(tmp_path)
    digest = sha256(b"mine\n")
    manifest_path(project, session_id).write_text(json.dumps({
        "created_files": {"../../../../victim.txt": digest, str(victim): digest,
                          "via/victim.txt": digest},
        "created_dirs": ["via", "../../.."]}))
    assert unproject(project, session_id, worktree) is True
    assert victim.read_text() == "mine\n"
    assert os.readlink(worktree / "via") == str(tmp_path)


def test_merge_refuses_what_the_agent_left_of_a_projection(
    setup: dict[str, Any], tmp_path: Path
) -> None:
    """Files the agent changed stay after unprojection; merge would commit them: refused."""
    session_id = run_agent(setup, tmp_path, CHANGED_BY_AGENT)
    head = git(setup["repo"], "rev-parse", "HEAD")
    for squash in ([], ["--squash"]):
        refused = gz(setup, "session", "merge", session_id, "--json", *squash)
        error = refused.json["errors"][0]
        assert (refused.exit_code, error["code"]) == (1, "SAFETY_BLOCK"), refused.stdout
        assert error["details"]["files"] == [".agents/skills/git-commit/SKILL.md",
                                             ".agents/skills/lint/SKILL.md"]
        assert git(setup["repo"], "rev-parse", "HEAD") == head
        assert git(setup["repo"], "status", "--porcelain") == ""


SNEAKY_AGENT = r"""#!/bin/sh
# the agent forces a projected file into a commit of its own
echo work > work.txt
git add -f AGENTS.md .agents/skills/lint/SKILL.md work.txt && git commit -qm sneak
"""


@pytest.mark.parametrize("lang", ["en", "es"])
def test_merge_never_carries_a_committed_projected_file(
    setup: dict[str, Any], tmp_path: Path, lang: str
) -> None:
    session_id = run_agent(setup, tmp_path, SNEAKY_AGENT)
    branch = f"harness/{session_id}"
    assert "AGENTS.md" in git(setup["repo"], "show", "--name-only", "--format=", branch)
    head = git(setup["repo"], "rev-parse", "HEAD")
    refused = gz(setup, "session", "merge", session_id, "--json", GZ_LANG=lang)
    error = refused.json["errors"][0]
    files = ".agents/skills/lint/SKILL.md, AGENTS.md"
    expected = {
        "en": f"session '{session_id}' committed files that gz-ia injected or owns ({files}); "
              "merging would put them on your branch. Nothing was changed",
        "es": f"la sesión '{session_id}' comiteó archivos que gz-ia inyectó o que son suyos "
              f"({files}); integrarlos los llevaría a su rama. No se modificó nada",
    }
    assert (refused.exit_code, error["code"], error["message"]) == (
        1, "SAFETY_BLOCK", expected[lang])
    assert git(setup["repo"], "rev-parse", "HEAD") == head
    assert not (setup["repo"] / "AGENTS.md").exists()


def test_opencodes_own_inline_configuration_is_kept(setup: dict[str, Any]) -> None:
    repo = setup["repo"]
    (repo / "AGENTS.md").write_text(RULES)
    commit_all(repo)
    mine = {"instructions": ["docs/mine.md"], "theme": "dark"}
    done = start(setup, "opencode", OPENCODE_CONFIG_CONTENT=json.dumps(mine))
    assert done.exit_code == 0, done.stdout + done.stderr
    seen = setup["seen"].read_text()
    inline = json.loads(seen.split("== OPENCODE_CONFIG_CONTENT\n")[1].split("\n", 1)[0])
    session_id = done.json["data"]["id"]
    ours = str(repo / ".harness" / "sessions" / f"{session_id}.instructions.md")
    assert inline["instructions"] == ["docs/mine.md", ours]
    assert inline["theme"] == "dark"
    assert sorted(inline["mcp"]) == ["docs", "gz-ia"]
    assert f"== AGENTS.md\n{RULES}== " in seen


def test_a_fifo_where_gz_ia_wrote_a_file_is_left_alone_without_hanging(tmp_path: Path) -> None:
    from gzia.sessions.projected_files import remove_if_unchanged, sha256

    os.mkfifo(tmp_path / "SKILL.md")  # no writer: reading it would block forever
    assert remove_if_unchanged(tmp_path, "SKILL.md", sha256(b"")) is False
    assert (tmp_path / "SKILL.md").is_fifo()


def test_a_projection_of_an_older_version_is_still_taken_out(setup: dict[str, Any]) -> None:
    """Older manifests appended a block to the project's AGENTS.md (marked skip-worktree)."""
    from gzia.sessions.project import find_project
    from gzia.sessions.projection import manifest_path, unproject

    repo = setup["repo"]
    (repo / "AGENTS.md").write_text(RULES)
    commit_all(repo)
    session_id = start(setup, "claude").json["data"]["id"]
    project = find_project(repo)
    worktree = project.worktrees_dir / session_id
    block = "\n" + BLOCK
    (worktree / "AGENTS.md").write_text(RULES + block)
    git(worktree, "update-index", "--skip-worktree", "--", "AGENTS.md")
    manifest_path(project, session_id).write_text(json.dumps({
        "created_files": {}, "original_files": {"AGENTS.md": "x"},
        "skip_worktree": ["AGENTS.md"],
        "instructions": {"file": "AGENTS.md", "block": block, "created": False}}))
    assert unproject(project, session_id, worktree) is True
    assert (worktree / "AGENTS.md").read_text() == RULES
    assert git(worktree, "ls-files", "-v", "AGENTS.md") == "H AGENTS.md\n"
    assert git(worktree, "status", "--porcelain") == ""


@pytest.mark.parametrize("kind", ["link inside", "link outside", "dangling link", "directory"])
def test_a_skill_path_the_project_has_as_anything_is_refused(
    setup: dict[str, Any], tmp_path: Path, kind: str
) -> None:
    repo, outside = setup["repo"], tmp_path / "outside.md"
    outside.write_text(RULES)
    where = repo / ".agents" / "skills" / "lint" / "SKILL.md"
    where.parent.mkdir(parents=True)
    if kind == "directory":
        where.mkdir()
        (where / "keep").write_text(RULES)
    else:
        target = {"link inside": "../../../README", "link outside": str(outside),
                  "dangling link": "missing.md"}[kind]
        where.symlink_to(target)
    before = commit_all(repo)
    done = start(setup, "claude")  # claude: its skills go to .claude/skills: no clash
    assert done.exit_code == 0, done.stdout + done.stderr
    done = start(setup, "shell")
    error = done.json["errors"][0]
    assert (done.exit_code, error["code"]) == (1, "CONFLICT")
    assert error["details"] == {"path": ".agents/skills/lint/SKILL.md"}
    assert outside.read_text() == RULES
    worktree = repo / ".harness" / "worktrees" / done.json["data"]["id"]
    assert git(worktree, "status", "--porcelain", "--ignored") == ""
    assert git(repo, "ls-files", "-s") == before
