"""--profile: what each agent sees in its worktree, and that none of it reaches the branch.

The agents are stand-ins for the real CLIs (tests/profiles/projection_kit.py).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.profiles.conftest import git, write_profile
from tests.profiles.projection_kit import BLOCK, SERVER, gz, make_setup, start


@pytest.fixture
def setup(repo: Path, config_dir: Path, tmp_path: Path) -> dict[str, Any]:
    return make_setup(repo, config_dir, tmp_path)


def mcp_part(provider: str, seen: str) -> str:
    if provider == "claude":
        document = json.loads(seen.split("== --mcp-config\n")[1].split("== ", maxsplit=1)[0])
        servers = document["mcpServers"]
        assert sorted(servers) == ["docs", "gz-ia"]  # the profile's, merged with Orchy's
        assert servers["docs"] == SERVER
        assert "mcp" in servers["gz-ia"]["args"]
    elif provider == "opencode":
        after = seen.split("== OPENCODE_CONFIG_CONTENT\n")[1]
        inline = json.loads(after.split("\n", maxsplit=1)[0])
        assert sorted(inline["mcp"]) == ["docs", "gz-ia"]  # the profile's and Orchy's
        assert inline["mcp"]["docs"] == {"type": "local", "command": ["docs-mcp", "--stdio"],
                                         "enabled": True}
    elif provider in ("pi-agent", "agy"):
        name = ".pi/mcp.json" if provider == "pi-agent" else ".agents/mcp_config.json"
        document = json.loads(seen.split(f"== {name}\n")[1].split("== ", maxsplit=1)[0])
        assert document == {"mcpServers": {"docs": SERVER}}  # Orchy is not offered to them
    else:
        assert "mcp" not in seen.lower()
    return provider


SKILLS_DIR = {"claude": ".claude/skills", "opencode": ".opencode/skills",
              "pi-agent": ".pi/skills", "agy": ".agents/skills", "shell": ".agents/skills"}


@pytest.mark.parametrize("provider", ["claude", "opencode", "pi-agent", "agy", "shell"])
def test_each_agent_sees_the_profile_and_nothing_reaches_the_branch(
    setup: dict[str, Any], provider: str, tmp_path: Path
) -> None:
    repo = setup["repo"]
    result = start(setup, provider, FAKE_DIFF=str(tmp_path / "diff.json"))
    assert result.exit_code == 0, result.stderr
    record = json.loads(result.stdout)["data"]
    session_id = record["id"]
    assert record["profiles"] == ["review"]
    seen = setup["seen"].read_text()

    skills = SKILLS_DIR[provider]
    instructions = "CLAUDE.md" if provider == "claude" else "AGENTS.md"
    assert f"== {instructions}\n{BLOCK}== " in seen  # created: the project has none
    assert f"== skills\n./{skills}/git-commit/SKILL.md\n./{skills}/lint/SKILL.md\n" in seen
    assert "TOKEN=tok-s3cret\n" in seen
    mcp_part(provider, seen)
    assert seen.endswith("== status\n")  # git sees nothing projected

    # what the session changed, while the agent ran and after
    during = json.loads((tmp_path / "diff.json").read_text())
    assert during["data"]["files"] == []
    diff = gz(setup, "session", "diff", session_id, "--json")
    assert json.loads(diff.stdout)["data"]["files"] == ["work.txt"]
    committed = git(repo, "show", "--name-only", "--format=", f"harness/{session_id}")
    assert committed.split() == ["work.txt"]

    # the projection is gone from the worktree, and its manifest with it
    worktree = repo / ".harness" / "worktrees" / session_id
    assert not os.path.lexists(worktree / instructions)
    assert not os.path.lexists(worktree / skills.split("/")[0])  # its directories too
    assert git(worktree, "status", "--porcelain") == ""
    assert not (repo / ".harness" / "sessions" / f"{session_id}.manifest.json").exists()

    merged = gz(setup, "session", "merge", session_id, "--json")
    assert merged.exit_code == 0, merged.stderr
    assert json.loads(merged.stdout)["data"]["files"] == ["work.txt"]
    assert git(repo, "ls-files") == "README\nREADME.md\nwork.txt\n"
    assert git(repo, "status", "--porcelain") == ""


def test_resume_projects_the_profiles_again(setup: dict[str, Any]) -> None:
    first = start(setup, "shell")
    session_id = json.loads(first.stdout)["data"]["id"]
    setup["seen"].unlink()
    resumed = gz(setup, "resume", session_id, "--json")
    assert resumed.exit_code == 0, resumed.stderr
    assert json.loads(resumed.stdout)["data"]["profiles"] == ["review"]
    assert f"== AGENTS.md\n{BLOCK}" in setup["seen"].read_text()


def test_a_projection_left_by_a_killed_gz_ia_is_taken_out_by_merge(
    setup: dict[str, Any]
) -> None:
    from gzia.profiles.bundle import resolve_bundle
    from gzia.profiles.catalog import load_catalog, locations
    from gzia.sessions.merge import preview_merge
    from gzia.sessions.project import find_project
    from gzia.sessions.projection import manifest_path, project_bundle
    from gzia.sessions.store import SessionStore

    result = start(setup, "shell")
    session_id = json.loads(result.stdout)["data"]["id"]
    project = find_project(setup["repo"])
    worktree = project.worktrees_dir / session_id
    bundle = resolve_bundle(load_catalog(locations(project.root)), ["review"],
                            {"SECRET_SOURCE": "x"})
    project_bundle(project, session_id, worktree, "shell", bundle)  # as if gz-ia died here
    assert manifest_path(project, session_id).is_file()
    store = SessionStore(project)
    preview = preview_merge(store, store.load(session_id))  # what the TUI shows first
    assert preview.files == ["work.txt"]
    merged = gz(setup, "session", "merge", session_id, "--json")
    assert json.loads(merged.stdout)["data"]["files"] == ["work.txt"]
    assert git(setup["repo"], "status", "--porcelain") == ""
    assert not manifest_path(project, session_id).exists()


@pytest.mark.parametrize("lang", ["en", "es"])
def test_a_missing_variable_stops_everything_before_it_starts(
    setup: dict[str, Any], lang: str
) -> None:
    env = {k: v for k, v in setup["env"].items() if k != "SECRET_SOURCE"}
    done = subprocess.run([sys.executable, "-m", "gzia", "exec", "--profile", "review", "--",
                           str(setup["agent"])], cwd=setup["repo"], env={**env, "GZ_LANG": lang},
                          capture_output=True, text=True, timeout=60, check=False)
    expected = {
        "en": "Error: profile 'review' needs SECRET_SOURCE (for TOKEN), which is not set\n"
              "set SECRET_SOURCE in gz-ia's environment, or remove it from the profile\n",
        "es": "Error: el perfil 'review' necesita SECRET_SOURCE (para TOKEN), que no está "
              "definida\ndefine SECRET_SOURCE en el entorno de gz-ia, o quítala del perfil\n",
    }
    assert (done.returncode, done.stdout, done.stderr) == (2, "", expected[lang])
    assert not (setup["repo"] / ".harness" / "worktrees").exists()
    assert not setup["seen"].exists()


def test_unknown_profile_and_skill(setup: dict[str, Any], config_dir: Path) -> None:
    unknown = gz(setup, "exec", "--json", "--profile", "nope", "--", "true")
    assert unknown.exit_code == 1
    assert json.loads(unknown.stdout)["errors"][0]["code"] == "NOT_FOUND"
    write_profile(config_dir / "profiles" / "lost", {"skills": ["missing"]})
    lost = gz(setup, "exec", "--json", "--profile", "lost", "--", "true")
    assert json.loads(lost.stdout)["errors"][0]["message"] == (
        "profile 'lost' names skill 'missing', which is not in the catalogue")
    assert not (setup["repo"] / ".harness" / "worktrees").exists()


def test_two_profiles_disagreeing_on_a_server_are_a_conflict(
    setup: dict[str, Any], config_dir: Path
) -> None:
    write_profile(config_dir / "profiles" / "other",
                  {"mcp_servers": {"docs": {"command": "else"}}})
    done = gz(setup, "exec", "--json", "--profile", "review", "--profile", "other", "--", "true")
    error = json.loads(done.stdout)["errors"][0]
    assert (done.exit_code, error["code"]) == (1, "CONFLICT")
    assert error["message"] == (
        "MCP server 'docs' is defined differently by profiles 'review' and 'other'")


def test_a_skill_the_project_has_in_the_worktree_is_not_replaced(setup: dict[str, Any]) -> None:
    repo = setup["repo"]
    own = repo / ".agents" / "skills" / "lint" / "SKILL.md"
    own.parent.mkdir(parents=True)
    own.write_text("---\ndescription: the project's own\n---\n")
    git(repo, "add", ".agents")
    git(repo, "commit", "-qm", "own skill")
    done = start(setup, "shell")
    error = json.loads(done.stdout)["errors"][0]
    assert (done.exit_code, error["code"]) == (1, "CONFLICT")
    assert error["message"] == (
        "'.agents/skills/lint/SKILL.md' is the project's own file: a profile cannot replace it")
    assert not setup["seen"].exists()
    worktree = repo / ".harness" / "worktrees" / json.loads(done.stdout)["data"]["id"]
    assert git(worktree, "status", "--porcelain") == ""
    assert not os.path.lexists(worktree / "AGENTS.md")  # nothing was written


def test_a_background_session_keeps_its_projection_until_merge(setup: dict[str, Any]) -> None:
    import time

    repo = setup["repo"]
    started = gz(setup, "exec", "-b", "--json", "--profile", "review", "--", str(setup["agent"]))
    assert started.exit_code == 0, started.stderr
    session_id = json.loads(started.stdout)["data"]["id"]
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        shown = json.loads(gz(setup, "session", "show", session_id, "--json").stdout)["data"]
        if shown["status"] != "running":
            break
        time.sleep(0.2)
    assert shown["status"] == "completed"
    assert f"== AGENTS.md\n{BLOCK}" in setup["seen"].read_text()
    assert setup["seen"].read_text().endswith("== status\n")
    manifest = repo / ".harness" / "sessions" / f"{session_id}.manifest.json"
    assert json.loads(manifest.read_text()) == expected_manifest(setup, session_id)
    diff = gz(setup, "session", "diff", session_id, "--json")
    assert json.loads(diff.stdout)["data"]["files"] == ["work.txt"]
    merged = gz(setup, "session", "merge", session_id, "--json")
    assert json.loads(merged.stdout)["data"]["files"] == ["work.txt"]
    assert not manifest.exists()
    assert git(repo, "status", "--porcelain") == ""
    assert git(repo, "ls-files") == "README\nREADME.md\nwork.txt\n"


def sha256(data: bytes) -> str:
    import hashlib

    return hashlib.sha256(data).hexdigest()


def expected_manifest(setup: dict[str, Any], session_id: str) -> dict[str, Any]:
    repo, config_dir = setup["repo"], setup["repo"].parent / "config"
    return {
        "session_id": session_id, "provider": "shell", "profiles": ["review"],
        "created_files": {
            ".agents/skills/lint/SKILL.md":
                sha256((repo / ".harness/skills/lint/SKILL.md").read_bytes()),
            ".agents/skills/git-commit/SKILL.md":
                sha256((config_dir / "skills/git-commit/SKILL.md").read_bytes()),
            "AGENTS.md": sha256(BLOCK.encode()),
        },
        "created_dirs": [".agents", ".agents/skills", ".agents/skills/lint",
                         ".agents/skills/git-commit"],
        "instructions": {"file": "AGENTS.md"},
    }


def test_profiles_need_an_isolated_session(setup: dict[str, Any], tmp_path: Path) -> None:
    plain = tmp_path / "plain"
    plain.mkdir()
    done = subprocess.run([sys.executable, "-m", "gzia", "exec", "--json", "--profile", "review",
                           "--direct", "--", "true"], cwd=plain, env=setup["env"],
                          capture_output=True, text=True, timeout=60, check=False)
    error = json.loads(done.stdout)["errors"][0]
    assert (done.returncode, error["code"]) == (2, "INVALID_INPUT")
    assert error["message"] == (
        f"profiles need an isolated session: '{plain}' is not in a git repository")
    assert list(plain.iterdir()) == []
