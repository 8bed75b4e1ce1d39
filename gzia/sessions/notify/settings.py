"""Which channels a project's notifications use, from the one settings table.

The user's settings (file and ``GZ_*`` environment) apply to every project; a project may
set its own in ``<root>/.harness/config.toml`` (the settings marked ``project`` in
:mod:`gzia.config`), above the user's file and below the environment. That file runs a
program (``notify_command``), so it is read only when it is the user's own: a regular
file (never a link), owned by the user, writable by nobody else, and not tracked by git
(a repository cannot ship it).
"""

from __future__ import annotations

import os
import stat
from dataclasses import dataclass
from pathlib import Path

from gzia.config import PROJECT_CONFIG, Config, load_config
from gzia.contract import SafetyBlockError
from gzia.i18n import N_
from gzia.sessions.git import run_git
from gzia.sessions.notify.channels import desktop_program
from gzia.sessions.project import Project


@dataclass(frozen=True)
class NotifySettings:
    command: tuple[str, ...] | None
    webhook: str | None
    desktop: bool
    debounce_s: float
    timeout_s: float

    @property
    def channels(self) -> tuple[str, ...]:
        """The channels configured (desktop: only where ``notify-send`` is installed)."""
        named = (("command", self.command is not None), ("webhook", bool(self.webhook)),
                 ("desktop", self.desktop and desktop_program() is not None))
        return tuple(name for name, configured in named if configured)


def notify_settings(project: Project) -> NotifySettings:
    """The project's notification settings (user's, project's file, environment)."""
    return settings_from(load_config(project_file=project_config_file(project)))


def settings_from(config: Config) -> NotifySettings:
    command = config.get("notify_command")
    return NotifySettings(
        command=tuple(command) if command else None,
        webhook=config.get("notify_webhook") or None,
        desktop=bool(config.get("notify_desktop")),
        debounce_s=config.get("notify_debounce_ms") / 1000,
        timeout_s=float(config.get("notify_timeout")),
    )


def project_config_file(project: Project) -> Path | None:
    """The project's own settings file, when it has one the user may trust."""
    path = project.root / PROJECT_CONFIG
    try:
        info = path.lstat()
    except FileNotFoundError:
        return None
    except OSError:
        return None  # read_config_file would fail the same way: there is nothing to read
    if not stat.S_ISREG(info.st_mode) or info.st_uid != os.getuid() \
            or info.st_mode & (stat.S_IWGRP | stat.S_IWOTH):
        raise _untrusted(path, N_("the project's settings file {path} is not a regular file "
                                  "of yours that only you can write; gz-ia does not read it"))
    if project.is_git and _tracked(project.root, path):
        raise _untrusted(path, N_("the project's settings file {path} is tracked by git: a "
                                  "repository cannot choose what gz-ia runs, so it is not read"))
    return path


def _tracked(root: Path, path: Path) -> bool:
    listed = run_git(["ls-files", "-z", "--", str(path.relative_to(root))], cwd=root)
    return bool(listed.stdout.strip("\0"))


def _untrusted(path: Path, key: str) -> SafetyBlockError:
    return SafetyBlockError(key, path=str(path), details={"path": str(path)})
