"""The update notice's files: the cached answer of the last background check and what the
user was told (docs/update.md, "Update notice").

Read on every interactive command, so this module imports nothing heavy (no HTTP, no
``packaging``): the background check (:mod:`gzia.update.background`) compares versions
and writes whether the published one is newer. The clock is the files' own timestamps
(``checked_at``, ``notified_at``: seconds since the epoch), so a test moves time by
writing them.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from gzia.atomic import write_atomic

DAY = 24 * 3600.0
RETRY_AFTER_FAILURE = 3600.0
"""A check that failed (no network) is tried again after an hour, not at every command."""


@dataclass(frozen=True)
class NoticeFiles:
    cache: Path  # the last check's answer, written by the background check only
    state: Path  # what was shown and snoozed, written by commands and update --snooze
    lock: Path  # held by the one background check that runs

    @classmethod
    def of(cls, cache_dir: Path, state_dir: Path) -> NoticeFiles:
        return cls(cache_dir / "update-check.json", state_dir / "update-notice.json",
                   cache_dir / "update-check.lock")


def read_json(path: Path) -> dict[str, Any]:
    """The JSON object in ``path``; empty when it is missing or damaged."""
    try:
        document = json.loads(path.read_bytes())
    except (OSError, ValueError):
        return {}
    return document if isinstance(document, dict) else {}


def write_json(path: Path, document: dict[str, Any]) -> None:
    write_atomic(path, json.dumps(document, sort_keys=True).encode("utf-8"), mode=0o600)


def _seconds(document: dict[str, Any], key: str) -> float:
    value = document.get(key)
    return float(value) if isinstance(value, int | float) else 0.0


def check_due(files: NoticeFiles, current: str, now: float) -> bool:
    """No answer for this version yet, or one older than a day (an hour after a failure;
    a timestamp in the future counts as old)."""
    cache = read_json(files.cache)
    if cache.get("current") != current:
        return True
    age = now - _seconds(cache, "checked_at")
    return not 0 <= age < (RETRY_AFTER_FAILURE if cache.get("error") else DAY)


def pending_notice(files: NoticeFiles, current: str, now: float) -> str | None:
    """The newer version to announce, if the cached answer has one that was neither
    announced in the last day nor snoozed."""
    cache = read_json(files.cache)
    latest = cache.get("latest")
    if cache.get("current") != current or cache.get("newer") is not True \
            or not isinstance(latest, str):
        return None
    state = read_json(files.state)
    if state.get("snoozed") == latest:
        return None
    return latest if not 0 <= now - _seconds(state, "notified_at") < DAY else None


def record_notice(files: NoticeFiles, version: str, now: float) -> None:
    state = read_json(files.state)
    write_json(files.state, {**state, "notified_at": now, "notified": version})


def snooze(files: NoticeFiles, version: str) -> None:
    """No notice for ``version`` (a newer one is announced again)."""
    write_json(files.state, {**read_json(files.state), "snoozed": version})


def record_check(files: NoticeFiles, answer: dict[str, Any]) -> None:
    write_json(files.cache, answer)
