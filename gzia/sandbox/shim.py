"""The two ends of a sandboxed command: how stop signals reach the agent, not bubblewrap,
and (``allowlist``) how the agent finds its proxy.

The supervisor signals the whole process group. bubblewrap's own process is the group's
leader: were it to die of SIGTERM or SIGINT, ``--die-with-parent`` would kill the sandbox
at once, and an agent could not use its grace to save its conversation (nor read Ctrl+C
as a key in cooked mode). So the outer end starts bubblewrap with those signals ignored
(an ignored signal survives ``exec``), and the inner end, inside the sandbox, sets them
back to their defaults before it becomes the agent. Both are the same few lines of
Python run by the interpreter gz-ia runs on, with ``-I -S`` (no site, no user path): it
execs in place, so neither adds a process. The outer end is not a pre-exec step of the
supervisor's spawn, which would save an interpreter start: that spawn runs on a helper
thread that ends right after ``exec`` (:mod:`gzia.supervisor.startgate`), and the parent
death signal bubblewrap's ``--die-with-parent`` sets belongs to that thread, so a
bubblewrap exec'd at once may be killed when the thread ends (seen: agents ended by
SIGKILL); started by the shim, bubblewrap sets it after the shim's interpreter start, by
which time that thread has ended, and it then follows the owner process. (A spawn from a
thread that lives as long as the run would remove this ordering and allow the cut.)

With :data:`NETWORK`, the inner end first hands the owner a listening socket of the
sandbox's loopback over the handshake socket (:mod:`gzia.sandbox.network`) and points
the agent's proxy variables at it; without the owner's answer the agent never starts
(exit 126).
"""

from __future__ import annotations

import sys

from gzia.sandbox.network import HANDSHAKE_TIMEOUT_S

IGNORE, RESTORE, NETWORK = "ignore", "restore", "network"
NO_PROXY = "localhost,127.0.0.1,::1"
"""The sandbox's own loopback: reached directly, never through the proxy."""
_CODE = """\
import os, signal, sys
mode, args = sys.argv[1], sys.argv[2:]
ignored = mode == "ignore"
for name in ("SIGINT", "SIGTERM", "SIGHUP", "SIGQUIT", "SIGPIPE", "SIGXFSZ"):
    signal.signal(getattr(signal, name), signal.SIG_IGN if ignored and name in (
        "SIGINT", "SIGTERM", "SIGHUP", "SIGQUIT") else signal.SIG_DFL)
if mode == "network":
    import socket
    try:
        listener = socket.create_server(("127.0.0.1", 0), backlog=128)
        gate = socket.socket(socket.AF_UNIX)
        gate.settimeout(%(timeout)s)
        gate.connect(args[0])
        socket.send_fds(gate, [b"L"], [listener.fileno()])
        if gate.recv(1) != b"1":
            raise OSError(0, "refused")
    except OSError as exc:
        sys.stderr.write(f"gz-ia sandbox: no network proxy: {exc.strerror or exc}\\n")
        sys.exit(126)
    proxy = "http://127.0.0.1:%%d" %% listener.getsockname()[1]
    for name in ("HTTP_PROXY", "HTTPS_PROXY", "http_proxy", "https_proxy"):
        os.environ[name] = proxy
    os.environ["NO_PROXY"] = os.environ["no_proxy"] = %(no_proxy)r
    os.environ["NODE_USE_ENV_PROXY"] = "1"
    listener.close()
    gate.close()
    args = args[1:]
try:
    os.execv(args[0], args)
except OSError as exc:
    sys.stderr.write(f"{args[0]}: {exc.strerror}\\n")
    sys.exit(127)
"""


def shim_argv(mode: str, argv: list[str], handshake: str | None = None) -> list[str]:
    """``argv`` (``argv[0]`` an absolute path) run with the stop signals ``mode`` says;
    :data:`NETWORK` (restoring them too) first takes its proxy through ``handshake``."""
    code = _CODE % {"timeout": HANDSHAKE_TIMEOUT_S, "no_proxy": NO_PROXY}
    extra = [handshake] if mode == NETWORK and handshake is not None else []
    return [sys.executable, "-I", "-S", "-c", code, mode, *extra, *argv]
