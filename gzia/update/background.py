"""The background update check (``gz-ia __update-check__``), started detached by an
interactive command when the cached answer is a day old (:mod:`gzia.update.notice`).

One at a time (its own lock; a second one leaves at once), bounded in time (SIGALRM ends
it: every step before the swap changes nothing, and the swap is atomic). It writes the
answer for the next command's notice; with ``update_check = auto`` it then installs the
newer release under the update's own lock, but only when no other gz-ia of this user runs
from the file.
"""

from __future__ import annotations

import fcntl
import os
import signal
import time
from pathlib import Path
from typing import Any

from gzia.config import load_config, paths
from gzia.contract import GzError
from gzia.update import apply, service
from gzia.update.client import current_version, make_client
from gzia.update.notice import NoticeFiles, record_check
from gzia.update.settings import UpdateSettings

CHECK_SECONDS = 60
"""The whole check, every source and retry included."""
INSTALL_SECONDS = 900


def files() -> NoticeFiles:
    where = paths()
    return NoticeFiles.of(where.cache_dir, where.state_dir)


def check_main() -> int:
    """Check once (if no other check holds the lock); never prints, always exits 0."""
    found = files()
    found.lock.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(found.lock, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        os.close(fd)
        return 0  # another check runs
    signal.alarm(CHECK_SECONDS)
    try:
        answer = check_answer()
        if answer.get("newer") and load_config().get("update_check") == "auto":
            signal.alarm(INSTALL_SECONDS)
            answer["auto"] = install_when_unused()
        record_check(found, answer)
    finally:
        os.close(fd)
    return 0


def check_answer() -> dict[str, Any]:
    answer: dict[str, Any] = {"checked_at": time.time(), "current": current_version()}
    try:
        settings = UpdateSettings.load()
        with make_client(settings.timeout) as client:
            result = service.check(client, settings, service.Options())
    except GzError as error:
        return {**answer, "error": str(error.code), "newer": False}
    return {**answer, "latest": result["latest"], "newer": bool(result["newer"])}


def install_when_unused() -> str:
    """``auto``: install the newer release unless a gz-ia of this user runs from the
    file; what happened (``installed``, ``in_use``, ``not_a_zipapp`` or an error code)."""
    target = apply.running_pyz()
    if target is None:
        return "not_a_zipapp"
    if running_from(target):
        return "in_use"
    try:
        settings = UpdateSettings.load()
        with make_client(settings.timeout) as client:
            service.update(client, settings, service.Options(), target)
    except GzError as error:
        return str(error.code)
    return "installed"


def running_from(target: Path) -> bool:
    """Whether another process of this user names ``target`` on its command line (a
    gz-ia session, a holder, any command). Without ``/proc`` this cannot be told, and the
    answer is yes: nothing is installed behind a running session's back."""
    proc = Path("/proc")
    if not proc.is_dir():
        return True
    wanted = os.fsencode(str(target))
    for entry in proc.iterdir():
        if not entry.name.isdigit() or int(entry.name) == os.getpid():
            continue
        try:
            if entry.stat().st_uid != os.getuid():
                continue
            arguments = (entry / "cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        if any(_names(entry, argument, wanted) for argument in arguments if argument):
            return True
    return False


def _names(entry: Path, argument: bytes, wanted: bytes) -> bool:
    """Whether ``argument`` of process ``entry`` is the path ``wanted`` (a relative one
    is taken from that process's working directory)."""
    try:
        path = Path(os.fsdecode(argument))
        if not path.is_absolute():
            path = (entry / "cwd").readlink() / path
        return os.fsencode(str(path)) == wanted or os.fsencode(str(path.resolve())) == wanted
    except (OSError, ValueError):
        return False
