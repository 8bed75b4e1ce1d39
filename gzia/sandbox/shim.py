"""The two ends of a sandboxed command: how stop signals reach the agent, not bubblewrap.

The supervisor signals the whole process group. bubblewrap's own process is the group's
leader: were it to die of SIGTERM or SIGINT, ``--die-with-parent`` would kill the sandbox
at once, and an agent could not use its grace to save its conversation (nor read Ctrl+C
as a key in cooked mode). So the outer end starts bubblewrap with those signals ignored
(an ignored signal survives ``exec``), and the inner end, inside the sandbox, sets them
back to their defaults before it becomes the agent. Both are the same few lines of
Python run by the interpreter gz-ia runs on, with ``-I -S`` (no site, no user path): it
execs in place, so neither adds a process.
"""

from __future__ import annotations

import sys

IGNORE, RESTORE = "ignore", "restore"
_CODE = """\
import os, signal, sys
ignored = sys.argv[1] == "ignore"
for name in ("SIGINT", "SIGTERM", "SIGHUP", "SIGQUIT", "SIGPIPE", "SIGXFSZ"):
    signal.signal(getattr(signal, name), signal.SIG_IGN if ignored and name in (
        "SIGINT", "SIGTERM", "SIGHUP", "SIGQUIT") else signal.SIG_DFL)
try:
    os.execv(sys.argv[2], sys.argv[2:])
except OSError as exc:
    sys.stderr.write(f"{sys.argv[2]}: {exc.strerror}\\n")
    sys.exit(127)
"""


def shim_argv(mode: str, argv: list[str]) -> list[str]:
    """``argv`` (``argv[0]`` an absolute path) run with the stop signals ``mode`` says."""
    return [sys.executable, "-I", "-S", "-c", _CODE, mode, *argv]
