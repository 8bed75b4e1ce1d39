"""Values for shell completion, read cheaply. Session ids: the store's file names, and of
each record only its name, prompt or command (no reconcile, no lock, no link followed).
Branches: one ``git for-each-ref``."""

from __future__ import annotations

import json
import os
import re

from gzia.sessions.git import run_git
from gzia.sessions.ids import BRANCH_PREFIX
from gzia.sessions.project import Project

_PREFIX = re.compile(r"[0-9a-f]{0,8}")
_FULL_ID = re.compile(r"[0-9a-f]{8}")
MAX_RECORD_BYTES = 1 << 20
"""A larger record is not read for its description."""
DESCRIPTION_CHARS = 60
DESCRIBED_AT_MOST = 50
"""More matches than this are offered without descriptions: a TAB reads at most this many
records, however large the store (bench/completion.py)."""


def session_choices(project: Project, prefix: str) -> list[tuple[str, str]]:
    """``(id, description)`` of each session whose id starts with ``prefix``: its name
    when it has one, else its prompt, else its command (``""`` when none is readable, or
    past :data:`DESCRIBED_AT_MOST` matches: then none is described)."""
    if not _PREFIX.fullmatch(prefix):
        return []
    try:
        names = os.listdir(project.sessions_dir)  # noqa: PTH208 - names only, on every TAB
    except OSError:
        return []
    found = []
    for name in sorted(names):
        session_id, _, kind = name.partition(".")
        if kind == "json" and session_id.startswith(prefix) and _FULL_ID.fullmatch(session_id):
            found.append(session_id)
    if len(found) > DESCRIBED_AT_MOST:
        return [(session_id, "") for session_id in found]
    directory = str(project.sessions_dir)
    return [(session_id, _description(os.path.join(directory, f"{session_id}.json")))  # noqa: PTH118 - str, cheapest
            for session_id in found]


def _description(path: str) -> str:
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW)
        with os.fdopen(fd, "rb") as stream:
            record = json.loads(stream.read(MAX_RECORD_BYTES + 1)[:MAX_RECORD_BYTES])
    except (OSError, ValueError):
        return ""
    if not isinstance(record, dict):
        return ""
    command = record.get("command")
    text = next((value for value in (record.get("name"), record.get("initial_prompt"),
                                     " ".join(map(str, command)) if isinstance(command, list)
                                     else None) if isinstance(value, str) and value.strip()), "")
    return _one_line(text)


def _one_line(text: str) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= DESCRIPTION_CHARS else flat[:DESCRIPTION_CHARS - 1] + "…"


def branch_choices(project: Project) -> list[str]:
    """The repository's local and remote-tracking branches (``--base``), gz-ia's own
    session branches left out."""
    if not project.is_git:
        return []
    done = run_git(["for-each-ref", "--format=%(refname:short)", "refs/heads", "refs/remotes"],
                   project.base)
    names = done.stdout.splitlines() if done.ok else []
    return [name for name in names if name and not name.startswith(BRANCH_PREFIX)]
