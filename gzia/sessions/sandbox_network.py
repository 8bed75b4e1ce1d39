"""The network of a session's ``allowlist`` sandbox, from its owner's side: the proxy runs
for the length of the run (:func:`sandbox_network`), chains to the user's own proxy as the
update does (:func:`gzia.update.client.proxy_for`), and each refused host is an event of
the session (:class:`RefusalLog`), so its person sees what to allow (docs/sandbox.md)."""

from __future__ import annotations

import contextlib
import secrets
import threading
from collections.abc import Iterator
from pathlib import Path

from gzia.contract import GzError
from gzia.i18n import gettext
from gzia.sandbox import Denied, SandboxServices, allowlist_network, outside_service
from gzia.sandbox.hosts import Target
from gzia.sessions.events import append_event, new_event
from gzia.sessions.store import SessionStore
from gzia.supervisor.runtime_dir import runtime_dir

MAX_REFUSALS_LOGGED = 256
"""Distinct refused host and port pairs a run records; the rest are refused silently."""
EVENT_TYPE = "sandbox_refused"


def service_path(session_id: str, kind: str) -> Path:
    """A fresh path for a run's socket of ``kind`` (``net``: the proxy's handshake,
    :mod:`gzia.sandbox.network`; ``out``: :mod:`gzia.sandbox.outside`)."""
    return runtime_dir() / f"{session_id}-{secrets.token_hex(3)}.{kind}"


@contextlib.contextmanager
def sandbox_services(store: SessionStore, session_id: str, plans: SandboxServices | None,
                     ) -> Iterator[None]:
    """What the owner of a sandboxed run serves while it runs: gz-ia's commands outside
    and, for ``allowlist``, the proxy (nothing for a run without a sandbox)."""
    with contextlib.ExitStack() as stack:
        if plans is not None and plans.outside is not None:
            stack.enter_context(outside_service(plans.outside))
        if plans is not None and plans.proxy is not None:
            stack.enter_context(allowlist_network(plans.proxy, upstream_for,
                                                  RefusalLog(store, session_id)))
        yield


def upstream_for(scheme: str, target: Target) -> str | None:
    """The user's proxy for ``target``: ``HTTPS_PROXY``/``HTTP_PROXY``/``ALL_PROXY`` and
    ``NO_PROXY`` of the owner's environment, read as the update reads them."""
    # lazy: start-up speed (the update's client only when a sandbox connects)
    from gzia.update.client import proxy_for

    return proxy_for(f"{scheme}://{target.authority}/")


class RefusalLog:
    """Each refused host and port once per run, as an event (host, port, method, time)."""

    def __init__(self, store: SessionStore, session_id: str) -> None:
        self.store, self.session_id = store, session_id
        self._seen: set[tuple[str, int]] = set()
        self._lock = threading.Lock()

    def __call__(self, denied: Denied) -> None:
        key = (denied.host.lower(), denied.port)
        with self._lock:
            if key in self._seen or len(self._seen) >= MAX_REFUSALS_LOGGED:
                return
            self._seen.add(key)
        action = gettext("sandbox refused a connection to {host}:{port}", host=denied.host,
                         port=denied.port)
        event = new_event(self.session_id, action, "FINISH", status="FAILED", agent_id="gz-ia")
        event.extras = {"type": EVENT_TYPE, "host": denied.host, "port": denied.port,
                        "method": denied.method}
        with contextlib.suppress(OSError, GzError):  # the refusal stands all the same
            append_event(self.store, event)
