"""The control sockets of background runs, in the per-user runtime directory.

Where that directory is, :attr:`gzia.config.Paths.runtime_dir` decides (short enough for
a socket's path). Here it is created with mode 0700 and used only when it belongs to this
user and nobody else may enter it; sockets are created with mode 0600.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import socket
import stat
from collections.abc import Mapping
from pathlib import Path

from gzia.config import paths
from gzia.contract import IOFailure, SafetyBlockError
from gzia.i18n import N_


def runtime_dir(environ: Mapping[str, str] | None = None) -> Path:
    """The directory (:attr:`gzia.config.Paths.runtime_dir`), created if needed and
    checked to be this user's alone."""
    return _ensure_private(paths(environ).runtime_dir)


def _ensure_private(path: Path) -> Path:
    with contextlib.suppress(FileExistsError):
        path.mkdir(mode=0o700)
    try:
        info = path.lstat()
    except OSError as exc:
        raise IOFailure(N_("cannot use the runtime directory {path}: {detail}"), path=str(path),
                        detail=exc.strerror or str(exc)) from exc
    if not stat.S_ISDIR(info.st_mode) or info.st_uid != os.getuid() or info.st_mode & 0o077:
        raise SafetyBlockError(N_("the runtime directory {path} is not private to this user (it "
                                  "must be your own directory with mode 0700)"),
                               path=str(path),
                               details={"path": str(path)})
    return path


def new_socket_path(session_id: str, environ: Mapping[str, str] | None = None) -> Path:
    """A fresh socket path for a session (two projects may hold the same session id)."""
    return runtime_dir(environ) / f"{session_id}-{secrets.token_hex(3)}.sock"


def bind_private_socket(path: Path) -> socket.socket:
    """A listening Unix socket at ``path`` with mode 0600 from the start.

    It is bound under a temporary name (``.<random>.new``, not ``*.sock``) and renamed
    to ``path`` only once it listens: a socket at a ``*.sock`` name that refuses
    connections is stale, whatever moment another holder's :func:`clean_stale_sockets`
    looks at it."""
    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    staging = path.with_name(f".{secrets.token_hex(4)}.new")  # shorter than path
    old_umask = os.umask(0o177)
    try:
        server.bind(str(staging))
        staging.chmod(0o600)
        server.listen(LISTEN_BACKLOG)
        server.setblocking(False)
        staging.rename(path)
    except BaseException:
        server.close()
        with contextlib.suppress(OSError):
            staging.unlink()
        raise
    finally:
        os.umask(old_umask)
    return server


LISTEN_BACKLOG = 64


def socket_missing(path: Path) -> bool:
    """The socket, or its directory, is not there (deleted under a running holder)."""
    try:
        path.lstat()
    except FileNotFoundError:
        return True
    except OSError:
        return False
    return False


def clean_stale_sockets(directory: Path) -> list[Path]:
    """Remove sockets nobody listens on any more (their holder died); return them. A
    live holder's socket always listens: it is published only once it does."""
    removed: list[Path] = []
    with contextlib.suppress(OSError):
        for entry in os.scandir(directory):
            if entry.name.endswith(".sock") and _is_stale(Path(entry.path)):
                with contextlib.suppress(OSError):
                    Path(entry.path).unlink()
                    removed.append(Path(entry.path))
    return removed


def _is_stale(path: Path) -> bool:
    probe = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    probe.settimeout(0.5)
    try:
        probe.connect(str(path))
    except (ConnectionRefusedError, FileNotFoundError):
        return True
    except OSError:
        return False
    finally:
        probe.close()
    return False
