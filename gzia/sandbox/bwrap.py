"""A :class:`~gzia.sandbox.policy.SandboxPolicy` as bubblewrap's arguments: the one place
that knows bwrap's options.

Order matters, later mounts win: the whole filesystem read-only, a new ``/dev``,
``/proc`` (of the new PID namespace: no process outside is visible) and private
``/tmp`` and ``/dev/shm``, then the policy's mounts in its order (read-only paths,
writable paths, paths kept read-only inside them, hidden paths last, so a secret stays
hidden inside any writable path).
"""

from __future__ import annotations

from pathlib import Path

from gzia.sandbox.network import HANDSHAKE_IN_SANDBOX
from gzia.sandbox.outside import OUTSIDE_IN_SANDBOX
from gzia.sandbox.policy import (
    HIDE,
    NETWORK_HOST,
    READ_ONLY,
    WRITABLE,
    Mount,
    SandboxPolicy,
)
from gzia.sandbox.shim import IGNORE, NETWORK, RESTORE, shim_argv

BASE = ("--die-with-parent", "--unshare-all", "--ro-bind", "/", "/", "--dev", "/dev",
        "--proc", "/proc", "--tmpfs", "/tmp", "--tmpfs", "/dev/shm")  # noqa: S108 - the sandbox's own


def sandboxed_argv(bwrap: str, policy: SandboxPolicy, argv: list[str]) -> list[str]:
    """``argv`` run by ``bwrap`` inside ``policy``'s sandbox, in ``policy.workdir``."""
    options = [*BASE]
    if policy.network == NETWORK_HOST:
        options.append("--share-net")
    if policy.proxy is not None:  # first: a mount of the policy may hide it, never fail
        options.extend(("--ro-bind", str(policy.proxy.handshake), HANDSHAKE_IN_SANDBOX))
    if policy.outside is not None:
        options.extend(("--ro-bind", str(policy.outside.socket), OUTSIDE_IN_SANDBOX))
    for mount in policy.mounts:
        options.extend(_mount_args(mount))
    options.extend(("--chdir", str(policy.workdir)))
    for name, value in policy.setenv.items():
        options.extend(("--setenv", name, value))
    if policy.proxy is not None:
        inner = shim_argv(NETWORK, argv, HANDSHAKE_IN_SANDBOX)
    else:
        inner = shim_argv(RESTORE, argv)
    return shim_argv(IGNORE, [bwrap, *options, "--", *inner])


def _mount_args(mount: Mount) -> tuple[str, ...]:
    path = str(mount.path)
    if mount.kind == READ_ONLY:
        return ("--ro-bind", path, path)
    if mount.kind == WRITABLE:
        return ("--bind", path, path)
    if mount.kind == HIDE and Path(mount.path).is_dir():
        return ("--tmpfs", path, "--remount-ro", path)
    return ("--ro-bind", "/dev/null", path)
