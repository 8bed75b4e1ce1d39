"""How a sandbox in ``allowlist`` mode reaches its proxy, without a relay inside it.

The owner of the run binds a private Unix socket (the *handshake*, mode 0600 in gz-ia's
runtime directory) before the sandbox starts; bubblewrap binds it into the sandbox at
:data:`HANDSHAKE_IN_SANDBOX`. Inside, before the agent exists, the signal shim
(:mod:`gzia.sandbox.shim`) opens a listening TCP socket on ``127.0.0.1`` of the
sandbox's own network namespace, passes it to the owner over the handshake
(``SCM_RIGHTS``), waits for the owner's ``1``, sets ``HTTP(S)_PROXY`` to it and becomes
the agent. The owner serves that socket with :class:`~gzia.sandbox.proxy.AllowlistProxy`:
the agent connects inside its namespace, the proxy's connections start outside. The
handshake takes one socket and closes: the agent never reaches it, and nothing of gz-ia
runs inside the sandbox once the agent does.
"""

from __future__ import annotations

import contextlib
import os
import socket
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from gzia.sandbox.hosts import Allowlist
from gzia.sandbox.proxy import AllowlistProxy, Denied, UpstreamFor

HANDSHAKE_IN_SANDBOX = "/tmp/.gz-ia-network"  # noqa: S108 - in the sandbox's own /tmp
HANDSHAKE_TIMEOUT_S = 30.0
"""How long the owner waits for the sandbox's socket (bubblewrap starting, on a loaded
machine), and the shim for the owner's answer."""
ACCEPTED, REFUSED = b"1", b"0"


@dataclass(frozen=True)
class NetworkPlan:
    """What the owner of an ``allowlist`` sandbox runs: its handshake socket's path and
    the hosts its proxy allows."""

    handshake: Path
    hosts: tuple[str, ...]

    def to_json(self) -> dict[str, Any]:
        return {"handshake": str(self.handshake), "hosts": list(self.hosts)}

    @classmethod
    def from_json(cls, data: object) -> NetworkPlan:
        """``ValueError`` for anything :meth:`to_json` did not write."""
        if not isinstance(data, dict) or not isinstance(data.get("handshake"), str):
            raise ValueError("holder spec: network: handshake must be a path")
        hosts = data.get("hosts")
        if not isinstance(hosts, list) or not all(isinstance(h, str) for h in hosts):
            raise ValueError("holder spec: network: hosts must be a list of strings")
        return cls(Path(data["handshake"]), tuple(hosts))


@contextlib.contextmanager
def allowlist_network(plan: NetworkPlan, upstream_for: UpstreamFor,
                      on_denied: Callable[[Denied], None]) -> Iterator[AllowlistProxy]:
    """The proxy of one run, serving the sandbox's socket once the handshake hands it
    over; ended (every connection) when the run is."""
    proxy = AllowlistProxy(Allowlist(plan.hosts), upstream_for, on_denied)
    gate = _bind(plan.handshake)
    stop = threading.Event()
    receiver = threading.Thread(target=_receive, args=(gate, proxy, stop), daemon=True,
                                name="sandbox-handshake")
    receiver.start()
    try:
        yield proxy
    finally:
        stop.set()
        receiver.join(timeout=5)
        gate.close()
        with contextlib.suppress(OSError):
            plan.handshake.unlink()
        proxy.close()


def _bind(path: Path) -> socket.socket:
    gate = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    old_umask = os.umask(0o177)
    try:
        gate.bind(str(path))
        gate.listen(1)
    except BaseException:
        gate.close()
        raise
    finally:
        os.umask(old_umask)
    gate.settimeout(0.25)
    return gate


def _receive(gate: socket.socket, proxy: AllowlistProxy, stop: threading.Event) -> None:
    """Take the first connection's socket (the shim's: the agent does not exist yet)."""
    while not stop.is_set():
        try:
            conn, _ = gate.accept()
        except TimeoutError:
            continue
        except OSError:
            return
        with conn:
            conn.settimeout(HANDSHAKE_TIMEOUT_S)
            listener = _listener_from(conn)
            with contextlib.suppress(OSError):
                conn.sendall(REFUSED if listener is None else ACCEPTED)
            if listener is not None:
                proxy.serve(listener)
        return


def _listener_from(conn: socket.socket) -> socket.socket | None:
    """The passed socket, if it is a listening TCP socket (the only kind the shim sends)."""
    try:
        _, fds, _, _ = socket.recv_fds(conn, 16, 1)
    except OSError:
        return None
    if len(fds) != 1:
        for fd in fds:
            os.close(fd)
        return None
    try:
        listener = socket.socket(fileno=fds[0])
    except OSError:  # not a socket
        os.close(fds[0])
        return None
    listening = listener.getsockopt(socket.SOL_SOCKET, socket.SO_ACCEPTCONN)
    if (listener.family not in (socket.AF_INET, socket.AF_INET6)
            or listener.type != socket.SOCK_STREAM or not listening):
        listener.close()
        return None
    return listener
