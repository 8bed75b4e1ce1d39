"""The stand-in agent and the project the projection tests share.

The agent is a small script standing in for the real CLIs: it writes what it found
(instructions, skills, MCP configuration, env) to a file outside the worktree, then
commits everything it can see with ``git add -A``, as a careless agent would.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from tests.conftest import Result
from tests.profiles.conftest import git, write_profile, write_skill

AGENT = r"""#!/bin/sh
out="$FAKE_OUT"
mcp=
prev=
for arg in "$@"; do
    [ "$prev" = --mcp-config ] && mcp=$arg
    prev=$arg
done
{
    for f in CLAUDE.md AGENTS.md .claude/rules/gz-ia-profiles.md .pi/APPEND_SYSTEM.md \
            .pi/mcp.json .agents/mcp_config.json; do
        [ -f "$f" ] && { echo "== $f"; cat "$f"; }
    done
    echo "== skills"
    find . -name .git -prune -o -name SKILL.md -print | sort
    echo "== env"
    echo "TOKEN=$TOKEN"
    [ -n "$mcp" ] && { echo "== --mcp-config"; cat "$mcp"; }
    [ -n "$OPENCODE_CONFIG_CONTENT" ] && { echo "== OPENCODE_CONFIG_CONTENT"; \
        echo "$OPENCODE_CONFIG_CONTENT"; "$FAKE_PYTHON" -c "$SHOW_INSTRUCTIONS"; }
    echo "== status"
    git status --porcelain
} > "$out"
if [ -n "$FAKE_DIFF" ]; then
    env -u GIT_CONFIG_COUNT "$FAKE_PYTHON" -m gzia session diff "$GZ_SESSION_ID" --json \
        > "$FAKE_DIFF"
fi
echo "agent work $$" > work.txt
git add -A && git commit -qm "agent commits everything"
"""

SHOW_INSTRUCTIONS = """
import json, os
for path in json.loads(os.environ["OPENCODE_CONFIG_CONTENT"]).get("instructions", []):
    print("== instructions")
    print(open(path).read(), end="")
"""
"""What opencode reads through its configuration's ``instructions`` list."""

SERVER = {"command": "docs-mcp", "args": ["--stdio"]}
PROJECT_RULES = "Project rules.\n"
INSTRUCTIONS = "Review every change twice."
BLOCK = ("<!-- gz-ia profiles: begin (this block is not part of the project) -->\n"
         "<!-- gz-ia profile: review -->\n" + INSTRUCTIONS + "\n"
         "<!-- gz-ia profiles: end -->\n")


def make_setup(repo: Path, config_dir: Path, tmp_path: Path) -> dict[str, Any]:
    (repo / "README.md").write_text("A project without instructions of its own.\n")
    git(repo, "add", "README.md")
    git(repo, "commit", "-qm", "readme")
    write_profile(repo / ".harness" / "profiles" / "review",
                  {"name": "review", "agents_file": "REVIEW-AGENTS.md",
                   "skills": ["lint", "git-commit"], "mcp_servers": {"docs": SERVER},
                   "env": {"TOKEN": "tok-${SECRET_SOURCE}"}},
                  agents={"REVIEW-AGENTS.md": INSTRUCTIONS + "\n"})
    write_skill(config_dir / "skills", "git-commit", "writes commits")
    write_skill(repo / ".harness" / "skills", "lint", "lints")
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    agent = bin_dir / "agent"
    agent.write_text(AGENT)
    agent.chmod(0o755)
    for name in ("claude", "opencode", "pi", "agy"):
        (bin_dir / name).symlink_to(agent)
    env = {**os.environ, "PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}",
           "FAKE_OUT": str(tmp_path / "seen.txt"), "SECRET_SOURCE": "s3cret",
           "FAKE_PYTHON": sys.executable, "SHOW_INSTRUCTIONS": SHOW_INSTRUCTIONS}
    return {"repo": repo, "env": env, "seen": tmp_path / "seen.txt", "agent": agent}


def gz(setup: dict[str, Any], *args: str, **extra: str) -> Result:
    done = subprocess.run([sys.executable, "-m", "gzia", *args], cwd=setup["repo"],
                          env={**setup["env"], **extra}, stdin=subprocess.DEVNULL,
                          capture_output=True, text=True, timeout=120, check=False)
    return Result(done.returncode, done.stdout, done.stderr)


def start(setup: dict[str, Any], provider: str, **extra: str) -> Result:
    if provider == "shell":
        return gz(setup, "exec", "--json", "--profile", "review", "--", str(setup["agent"]),
                  **extra)
    return gz(setup, "chat", "--json", "-p", provider, "-m", "autonomous",
              "--profile", "review", **extra)
