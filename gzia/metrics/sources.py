"""Which transcripts belong to a session, found through its record, then read.

An isolated session's worktree is its own, so every conversation an agent kept for that
directory is the session's (Claude Code's ``/clear`` and pi's ``/new`` start new ones).
A session in direct mode shares its directory with other runs: only the conversation id
in its record names its conversation (agy: the conversations its history file records for
the directory while the session ran). Nothing is ever taken for the session's because it
is the newest file.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from pathlib import Path

from gzia.drivers import transcripts as where
from gzia.metrics import agy, claude, opencode, pi
from gzia.metrics.model import AgentMetrics, Notice, ReadResult
from gzia.sessions.record import SessionRecord, parse_rfc3339

_SAFE_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.:-]{0,127}")
"""A conversation id that can go into a file name or a glob as it is."""

Env = Mapping[str, str]


def read_agent_metrics(record: SessionRecord, env: Env) -> ReadResult:
    """The agent's figures for ``record`` (``metrics`` is ``None`` for an agent without a
    transcript: shell, or a third-party driver)."""
    reader = _READERS.get(record.provider)
    if reader is None:
        return ReadResult(None)
    conversation = record.conversation_id
    if conversation is not None and _SAFE_ID.fullmatch(conversation) is None:
        return ReadResult(None, [Notice("no_conversation", conversation,
                                        detail="invalid conversation id")])
    return reader(record, env)


def _claude(record: SessionRecord, env: Env) -> ReadResult:
    return _jsonl_per_conversation(record, where.claude_projects_dir(env),
                                   where.claude_slug(record.workspace_path), "{}.jsonl",
                                   claude.read_transcripts)


def _pi(record: SessionRecord, env: Env) -> ReadResult:
    return _jsonl_per_conversation(record, where.pi_sessions_dir(env),
                                   where.pi_slug(record.workspace_path), "*_{}.jsonl",
                                   pi.read_transcripts)


def _jsonl_per_conversation(
    record: SessionRecord, root: Path, slug: str, named: str,
    read: Callable[[list[Path]], tuple[AgentMetrics, list[Notice]]],
) -> ReadResult:
    """An agent that keeps one JSONL file per conversation in a folder per workspace
    (``root/slug``): the worktree's own files, and the file of the record's conversation
    (``named`` with the id in place of ``{}``)."""
    paths = _own_files(root / slug, record)
    if record.conversation_id:
        paths += [p for p in _first_glob(root, slug, named.format(record.conversation_id))
                  if p not in paths]
    if not paths:
        return ReadResult(None, [_not_found(record, root)])
    metrics, notices = read(paths)
    return ReadResult(metrics, notices)


def _own_files(folder: Path, record: SessionRecord) -> list[Path]:
    """Every transcript of an isolated session's own worktree (none for direct mode)."""
    if not record.is_isolated or not folder.is_dir():
        return []
    return sorted(folder.glob("*.jsonl"))


def _first_glob(root: Path, slug: str, pattern: str) -> list[Path]:
    """``pattern`` in the workspace's own folder, else in any folder under ``root`` (a
    conversation id is unique, so where it lies does not matter)."""
    return sorted((root / slug).glob(pattern)) or sorted(root.glob(f"*/{pattern}"))


def _not_found(record: SessionRecord, place: Path) -> Notice:
    if record.conversation_id or record.is_isolated:
        return Notice("missing", str(place), detail=record.conversation_id or "")
    return Notice("no_conversation", str(place))


def _opencode(record: SessionRecord, env: Env) -> ReadResult:
    import sqlite3

    database = where.opencode_database(env)
    if not database.is_file():  # a FIFO or a device is no database (sqlite would block)
        reason = "not_regular" if database.exists() else "missing"
        return ReadResult(None, [Notice(reason, str(database))])
    ids = [record.conversation_id] if record.conversation_id else []
    if record.is_isolated:
        try:
            ids += [i for i in opencode.sessions_of_directory(database, record.workspace_path)
                    if i not in ids]
        except sqlite3.Error as exc:
            return ReadResult(None, [Notice("unknown_format", str(database), detail=str(exc))])
    if not ids:
        return ReadResult(None, [_not_found(record, database)])
    metrics, notices = opencode.read_sessions(database, ids)
    return ReadResult(metrics, notices)


def _agy(record: SessionRecord, env: Env) -> ReadResult:
    base = where.agy_dir(env)
    notices: list[Notice] = []
    ids = [record.conversation_id] if record.conversation_id else []
    if not ids:
        window = None if record.is_isolated else _window_ms(record)
        ids, notices = agy.conversations_in(base / "history.jsonl", {record.workspace_path},
                                            window)
    if not ids:
        return ReadResult(None, [*notices, _not_found(record, base / "history.jsonl")])
    metrics, read_notices = agy.read_conversations(base / "brain", ids)
    return ReadResult(metrics, notices + read_notices)


def _window_ms(record: SessionRecord) -> tuple[int, int]:
    """When the session ran, in epoch milliseconds (till now while it runs); a start time
    that cannot be read matches nothing."""
    import time

    try:
        start = parse_rfc3339(record.started_at).timestamp()
        end = parse_rfc3339(record.finished_at).timestamp() if record.finished_at \
            else time.time()
    except ValueError:
        return (0, -1)
    return int(start * 1000), int(end * 1000)


_READERS: dict[str, Callable[[SessionRecord, Env], ReadResult]] = {
    "claude": _claude,
    "pi-agent": _pi,
    "opencode": _opencode,
    "agy": _agy,
}
