"""A sub-session's sandbox is never looser than its parent's (docs/sandbox.md,
"Sub-sessions"): the parent's recorded sandbox is a floor that the settings and a
``session_start`` argument can only tighten.

- network: the stricter of the parent's and ``sandbox_network`` (``none`` < ``allowlist``
  < ``host``; a mode this version does not know counts as ``none``);
- hosts: under a parent in ``allowlist``, the parent's hosts, none more;
- writable: the child's own worktree, its commit's git paths and its agent's state, and of
  ``sandbox_rw`` only what the parent could write too;
- hidden: everything the parent's sandbox hid, and ``sandbox_hide``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from gzia.contract import GzError
from gzia.sandbox.policy import NETWORK_ALLOWLIST, NETWORK_HOST, NETWORK_NONE
from gzia.sessions.store import SessionStore

_STRICTNESS = (NETWORK_NONE, NETWORK_ALLOWLIST, NETWORK_HOST)
"""Strictest first."""


@dataclass(frozen=True)
class SandboxFloor:
    network: str
    hosts: tuple[str, ...]
    """The parent's hosts (``allowlist``)."""
    writable: tuple[str, ...]
    hidden: tuple[str, ...]

    @classmethod
    def from_record(cls, sandbox: Mapping[str, Any]) -> SandboxFloor:
        network = sandbox.get("network")
        hosts = sandbox.get("hosts")
        return cls(network if network in _STRICTNESS else NETWORK_NONE,
                   tuple(h for h in hosts if type(h) is str) if type(hosts) is list else (),
                   tuple(sandbox.get("rw") or ()), tuple(sandbox.get("hidden") or ()))

    def network_for(self, configured: str) -> str:
        """The stricter of the parent's network and ``configured``."""
        asked = configured if configured in _STRICTNESS else NETWORK_NONE
        return min(asked, self.network, key=_STRICTNESS.index)

    def hosts_for(self, configured: Iterable[str]) -> tuple[str, ...]:
        """What an ``allowlist`` child may reach: its parent's hosts when its parent had an
        allowlist, else the ones configured for it."""
        return self.hosts if self.network == NETWORK_ALLOWLIST else tuple(configured)

    def writable_for(self, configured: Iterable[str], home: str | None) -> tuple[str, ...]:
        """The ``sandbox_rw`` paths inside something the parent could write."""
        allowed = [Path(path) for path in self.writable]
        return tuple(text for text in configured
                     if any(_expanded(text, home).is_relative_to(a) for a in allowed))


def parent_floor(store: SessionStore, session_id: str) -> SandboxFloor | None:
    """The floor of ``session_id``'s sandbox: its parent's sandbox, when it has a
    sandboxed parent (``None`` otherwise)."""
    try:
        parent_id = store.load(session_id).parent_id
        sandbox = None if parent_id is None else store.load(parent_id).sandbox
    except GzError:  # a parent deleted since: the child's own record still sandboxes it
        return None
    return None if sandbox is None else SandboxFloor.from_record(sandbox)


def _expanded(text: str, home: str | None) -> Path:
    if (text == "~" or text.startswith("~/")) and home:
        text = home + text[1:]
    return Path(text).resolve()
