"""Keeping gz-ia's credentials out of every gz-ia process an agent could inspect.

Any process of the user can read the environment another one of theirs started with
(``/proc/<pid>/environ``, ``ps eww``), and root can read every process's: an agent reads
its parent gz-ia, the holder of a background run, the TUI, an attached terminal. So a
gz-ia whose environment holds a withheld credential (:func:`gzia.credentials.secret_variables`,
the one rule) first replaces its own image with the same command line and an environment
without them (:func:`gzia.selfexec.replace_self`: ``os.execve``, so the pid,
process group, session and terminal stay the same, and what ``/proc/<pid>/environ``
shows is the new environment). Everything it starts inherits that environment.

It does so once the command-line parser has resolved the command's name
(:class:`gzia.cli.root.RootGroup`), before that command's code is imported; the holder
of a background run does so first thing. Only the commands that use the credentials
keep them (:data:`KEEPERS`: they talk to the registries or show the settings, and start
no agent); those make themselves
uninspectable by the user's other processes instead (:func:`forbid_inspection`).
The price, one more interpreter start, is paid only when a credential is set
(bench/credentials.py).
"""

from __future__ import annotations

import os
import sys
from collections.abc import MutableMapping
from typing import Any

from gzia.cli import output

KEEPERS = frozenset({"update", "config", "doctor", "notify", "session pr"})
"""The commands that read the credentials; every other one (and the holder) sheds them
(``notify test`` posts to the webhook, a credential; ``session pr`` sends the forge's
token). A group with a keeper among its subcommands is in :data:`DEFERRING_GROUPS`."""
DEFERRING_GROUPS = frozenset({"session"})
"""Groups whose subcommands decide for themselves: the root does not shed for them, the
group does once its subcommand is named (``session pr``), before that is imported."""
SHED_PENDING = "gzia.shed_pending"
"""The command-line context's flag: a group in :data:`DEFERRING_GROUPS` sheds for its
subcommand."""
PR_SET_DUMPABLE = 4  # <linux/prctl.h>


def shed_for(meta: MutableMapping[str, Any], name: str) -> None:
    """Shed the credentials for the command ``name`` as the command line resolves it, or
    leave it to its group (``meta``: the command-line context's) when that group's
    subcommands decide (:data:`DEFERRING_GROUPS`)."""
    if name in DEFERRING_GROUPS:
        meta[SHED_PENDING] = True
        return
    meta.pop(SHED_PENDING, None)
    with output.current().stdout_restored():  # the re-run writes its own document
        shed_credentials(name)  # before the command's code is even imported


def shed_credentials(command: str) -> None:
    """Run this command line again, in this process, without gz-ia's credentials, when
    its environment holds any and ``command`` (the name the command-line parser resolved,
    or the holder's) is not a keeper; return when there is nothing to shed. A keeper
    holding some is made uninspectable instead."""
    if not any(name.startswith("GZ_") for name in os.environ):
        return  # the common case pays nothing more
    from gzia.credentials import names_withheld, secret_variables

    if not secret_variables(os.environ):
        return
    if command in KEEPERS:
        forbid_inspection()
        return
    from gzia.selfexec import replace_self

    clean = names_withheld(os.environ)

    try:
        replace_self(clean)
    except OSError:  # the interpreter cannot be started again: drop them here instead
        os.environ.clear()
        os.environ.update(clean)
        forbid_inspection()


def forbid_inspection() -> None:
    """Make this process's environment and memory unreadable to the user's other
    processes (Linux ``prctl(PR_SET_DUMPABLE, 0)``, the ssh-agent way). Root still reads
    them: what must stay hidden from root is never held (:func:`shed_credentials`)."""
    if not sys.platform.startswith("linux"):
        return
    import contextlib
    import ctypes

    with contextlib.suppress(OSError, AttributeError):  # no prctl: nothing more to do here
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_DUMPABLE, 0, 0, 0, 0)
