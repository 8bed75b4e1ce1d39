"""The update notice: after an interactive command, at most once a day, one line on
stderr when the cached answer of the background check names a newer release; and the
start of that check when the answer is a day old (docs/update.md, "Update notice").

Interactive: stdout and stderr are terminals, neither ``--json`` nor ``-q``, and ``CI``
is not set to a true value. The command never waits: the check runs detached
(:mod:`gzia.update.background`), and what it finds is told by a later command.
"""

from __future__ import annotations

import os
import time

from gzia.cli.output import Output
from gzia.config import load_config, paths
from gzia.contract import GzError
from gzia.i18n import gettext
from gzia.setting_values import BOOLEAN_WORDS

QUIET_COMMANDS = frozenset({"update", "mcp", "completion"})
"""Commands after which no notice is shown and no check started: ``update`` itself, and
those whose output another program reads."""


def after_command(out: Output, args: list[str]) -> None:
    if out.json or out.quiet or not _interactive(out) or _in_ci() \
            or _command(args) in QUIET_COMMANDS:
        return
    try:
        _notice(out)
    except (GzError, OSError):
        return  # a notice never fails the command it follows


def _interactive(out: Output) -> bool:
    try:
        return out.stdout.isatty() and out.stderr.isatty()
    except (OSError, ValueError):
        return False


def _in_ci() -> bool:
    value = os.environ.get("CI", "").strip().lower()
    return value != "" and BOOLEAN_WORDS.get(value) is not False


def _command(args: list[str]) -> str | None:
    return next((a for a in args if not a.startswith("-")), None)


def _notice(out: Output) -> None:
    if load_config().get("update_check") == "off":
        return
    from gzia._version import __version__
    from gzia.update.notice import NoticeFiles, check_due, pending_notice, record_notice

    where = paths()
    files, now = NoticeFiles.of(where.cache_dir, where.state_dir), time.time()
    version = pending_notice(files, __version__, now)
    if version is not None:
        from gzia.update.installer import update_command

        out.stderr.write(gettext("gz-ia {version} is available: run {command}",
                                 version=version, command=update_command()) + "\n")
        out.stderr.flush()
        record_notice(files, version, now)
    if check_due(files, __version__, now):
        from gzia.proc import start_detached
        from gzia.selfexec import UPDATE_CHECK_ARG, gzia_argv

        start_detached(gzia_argv(UPDATE_CHECK_ARG))
