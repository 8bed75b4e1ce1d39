"""Every message key the session code uses exists in the catalogue."""

from __future__ import annotations

import re
from pathlib import Path

from gzia.i18n import sessions

ROOT = Path(__file__).resolve().parents[2] / "gzia"
SOURCES = [*sorted((ROOT / "sessions").glob("*.py")), *sorted((ROOT / "cli").glob("session*.py"))]


def test_every_static_key_exists() -> None:
    used = set()
    for source in SOURCES:
        used |= set(re.findall(r'"sessions\.([a-z_]+)"', source.read_text()))
    assert used, "no keys found: the scan is broken"
    assert sorted(used - set(sessions.EN)) == []


def test_dynamic_label_and_column_keys_exist() -> None:
    for column in ("id", "status", "pid", "permission", "mode", "started", "duration"):
        assert f"col_{column}" in sessions.EN
    for label in ("status", "pid", "provider", "permission", "dir", "mode", "branch", "base",
                  "prompt", "started", "finished", "end_reason", "merged", "exit_code"):
        assert f"label_{label}" in sessions.EN
    for key in ("prune_worktree", "prune_branch", "prune_dir", "prune_events", "prune_missing",
                "merge_note_squash_no_commit", "merge_note_no_commit"):
        assert key in sessions.EN
