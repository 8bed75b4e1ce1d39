"""Where each agent keeps its conversations, and which one a run in a directory wrote.

Only the agents' own storage is described here (paths, file names, the opencode database);
nothing of sessions. Formats were checked against Claude Code 2.1.197, pi 0.73.1 and
opencode 1.18.33 (docs/metrics.md).
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import re
import stat
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, BinaryIO

if TYPE_CHECKING:
    import sqlite3

_NOT_ALNUM = re.compile(r"[^A-Za-z0-9]")


def home_of(env: Mapping[str, str]) -> Path:
    return Path(env["HOME"]) if env.get("HOME") else Path.home()


def claude_projects_dir(env: Mapping[str, str]) -> Path:
    """``$CLAUDE_CONFIG_DIR/projects``, default ``~/.claude/projects``."""
    configured = env.get("CLAUDE_CONFIG_DIR")
    return (Path(configured) if configured else home_of(env) / ".claude") / "projects"


def claude_state(env: Mapping[str, str]) -> tuple[Path, Path]:
    """Claude Code's own state: ``$CLAUDE_CONFIG_DIR`` (default ``~/.claude``) and
    ``~/.claude.json`` (its login and settings)."""
    configured = env.get("CLAUDE_CONFIG_DIR")
    home = home_of(env)
    return (Path(configured) if configured else home / ".claude"), home / ".claude.json"


def opencode_state(env: Mapping[str, str]) -> tuple[Path, ...]:
    """opencode's directories: ``opencode/`` under each XDG base (data, config, cache, state)."""
    home = home_of(env)
    bases = (("XDG_DATA_HOME", ".local/share"), ("XDG_CONFIG_HOME", ".config"),
             ("XDG_CACHE_HOME", ".cache"), ("XDG_STATE_HOME", ".local/state"))
    return tuple((Path(env[name]) if env.get(name) else home / default) / "opencode"
                 for name, default in bases)


def pi_state(env: Mapping[str, str]) -> Path:
    """pi's directory: ``$PI_CODING_AGENT_DIR``, default ``~/.pi/agent``."""
    return pi_sessions_dir(env).parent


def claude_slug(cwd: str) -> str:
    """Claude Code's folder for a working directory: every other character becomes ``-``."""
    return _NOT_ALNUM.sub("-", cwd)


def pi_sessions_dir(env: Mapping[str, str]) -> Path:
    """``$PI_CODING_AGENT_DIR/sessions``, default ``~/.pi/agent/sessions``."""
    configured = env.get("PI_CODING_AGENT_DIR")
    return (Path(configured) if configured else home_of(env) / ".pi" / "agent") / "sessions"


def pi_slug(cwd: str) -> str:
    """pi's folder for a working directory: ``--`` + the path, separators as ``-``, + ``--``."""
    inner = cwd.lstrip("/\\")
    for separator in ("/", "\\", ":"):
        inner = inner.replace(separator, "-")
    return f"--{inner}--"


def opencode_database(env: Mapping[str, str]) -> Path:
    """``$XDG_DATA_HOME/opencode/opencode.db``, default ``~/.local/share/opencode/...``."""
    data_home = env.get("XDG_DATA_HOME")
    base = Path(data_home) if data_home else home_of(env) / ".local" / "share"
    return base / "opencode" / "opencode.db"


def agy_dir(env: Mapping[str, str]) -> Path:
    return home_of(env) / ".gemini" / "antigravity-cli"


def pi_conversation_since(env: Mapping[str, str], workdir: Path, since: float) -> str | None:
    """The id of the pi conversation of ``workdir`` last written at or after ``since``
    (epoch seconds): the one a run that started then wrote, and ``--continue`` resumes."""
    folder = pi_sessions_dir(env) / pi_slug(str(workdir))
    written: list[tuple[float, Path]] = []
    try:
        for path in folder.glob("*.jsonl"):
            mtime = path.stat().st_mtime
            if mtime >= since:
                written.append((mtime, path))
    except OSError:
        return None
    for _, path in sorted(written, reverse=True):
        header = _first_json_line(path)
        if header.get("type") == "session" and header.get("cwd") == str(workdir):
            found = header.get("id")
            return found if isinstance(found, str) else None
    return None


def opencode_conversation_since(
    env: Mapping[str, str], workdir: Path, since_ms: int
) -> str | None:
    """The id of the opencode session (not a sub-agent's) of ``workdir`` last updated at or
    after ``since_ms``, read from its database opened read-only."""
    import sqlite3

    database = opencode_database(env)
    if not database.is_file():
        return None
    try:
        with contextlib.closing(open_readonly(database)) as connection:
            row = connection.execute(
                "SELECT id FROM session WHERE directory = ? AND parent_id IS NULL "
                "AND time_updated >= ? ORDER BY time_updated DESC LIMIT 1",
                (str(workdir), since_ms),
            ).fetchone()
    except sqlite3.Error:
        return None
    return str(row[0]) if row else None


def open_readonly(database: Path) -> sqlite3.Connection:
    """The database opened read-only (a running opencode keeps writing it)."""
    import sqlite3
    from urllib.parse import quote

    uri = f"file:{quote(str(database.resolve()))}?mode=ro"
    connection = sqlite3.connect(uri, uri=True, timeout=2.0)
    connection.execute("PRAGMA query_only = ON")
    return connection


HEADER_BYTES = 64 * 1024
"""The longest first line read for a conversation's header (pi writes a few hundred bytes)."""


READ_BUFFER = 1024 * 1024
"""Reads of a transcript go to the file system this much at a time."""


class NotRegularFileError(OSError):
    """A transcript's name leads to a FIFO, a device, a socket or a directory."""


def open_transcript(path: Path) -> tuple[BinaryIO, int]:
    """An agent's file opened for reading, and its size then.

    A link is followed, but only to a regular file: a FIFO would block the read forever,
    a device such as ``/dev/zero`` never ends, and opening some devices does something.
    So the name is checked before it is opened (O_NONBLOCK, for a FIFO swapped in
    between) and the open file again after; anything else is :class:`NotRegularFileError`.
    """
    if not stat.S_ISREG(path.stat().st_mode):
        raise NotRegularFileError(errno.EINVAL, "not a regular file", str(path))
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    info = os.fstat(fd)
    if not stat.S_ISREG(info.st_mode):
        os.close(fd)
        raise NotRegularFileError(errno.EINVAL, "not a regular file", str(path))
    return os.fdopen(fd, "rb", buffering=READ_BUFFER), info.st_size


def _first_json_line(path: Path) -> dict[str, object]:
    try:
        stream, _ = open_transcript(path)
        with stream:
            value = json.loads(stream.readline(HEADER_BYTES) or b"{}")
    except (OSError, ValueError, RecursionError):
        return {}
    return value if isinstance(value, dict) else {}
