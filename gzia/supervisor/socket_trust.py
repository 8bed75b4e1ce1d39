"""Which Unix sockets gz-ia talks to: this user's, in a directory only this user may
enter. Standard library only: the MCP relay (:mod:`gzia.supervisor.mcp_relay`) checks
its socket with it before it imports anything else."""

from __future__ import annotations

import os
import stat


def is_trusted_socket(path: str | os.PathLike[str]) -> bool:
    """A socket of this user in a directory only this user may enter: the only kind gz-ia
    talks to (a record naming the socket is a file anyone able to edit it may have
    pointed elsewhere). Either runtime directory qualifies: the command asking may see
    another ``XDG_RUNTIME_DIR`` than the holder did (cron, sudo)."""
    try:
        parent = os.path.dirname(os.fspath(path)) or "."  # noqa: PTH120 - no pathlib here
        directory = os.lstat(parent)
        sock = os.lstat(path)
    except OSError:
        return False
    uid = os.getuid()
    return (stat.S_ISDIR(directory.st_mode) and directory.st_uid == uid
            and not directory.st_mode & 0o077
            and stat.S_ISSOCK(sock.st_mode) and sock.st_uid == uid)
