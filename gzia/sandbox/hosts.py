"""Which hosts a sandbox in ``allowlist`` mode may reach, and where each request goes.

An entry is a host name or an IP address (``api.example.com``, ``127.0.0.1``, ``[::1]``),
``.example.com`` or ``*.example.com`` for every name under ``example.com``, optionally
with ``:port`` (without one, any port). Names compare without case and without a
trailing dot. Only names are compared, as the client wrote them: the proxy resolves a
name outside the sandbox, and an address reached by another name is another entry.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass


@dataclass(frozen=True)
class Target:
    """Where a request through the proxy wants to go."""

    host: str
    port: int

    @property
    def authority(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"{host}:{self.port}"


@dataclass(frozen=True)
class _Entry:
    name: str
    port: int | None
    subdomains: bool

    def matches(self, target: Target) -> bool:
        if self.port is not None and self.port != target.port:
            return False
        host = normal_host(target.host)
        return host.endswith("." + self.name) if self.subdomains else host == self.name


class Allowlist:
    def __init__(self, entries: Iterable[str]) -> None:
        self.entries = tuple(entry for entry in (_entry(text) for text in entries) if entry)

    def allows(self, target: Target) -> bool:
        return any(entry.matches(target) for entry in self.entries)


def normal_host(host: str) -> str:
    return host.strip().strip("[]").rstrip(".").lower()


def _entry(text: str) -> _Entry | None:
    """An entry of the setting or a driver; ``None`` for one that names nothing."""
    text = text.strip()
    subdomains = text.startswith(("*.", "."))
    text = text[2:] if text.startswith("*.") else text.lstrip(".")
    host, port = split_authority(text)
    name = normal_host(host)
    if not name or port == 0:
        return None
    return _Entry(name, port, subdomains)


def split_authority(text: str, default_port: int | None = None) -> tuple[str, int | None]:
    """``host``, ``host:port``, ``[v6]`` or ``[v6]:port``; a port that is not a number
    in range is ``0`` (nothing matches it)."""
    if text.startswith("["):
        host, _, rest = text[1:].partition("]")
        port_text = rest[1:] if rest.startswith(":") else None
    elif text.count(":") == 1:
        host, port_text = text.split(":")
    else:
        host, port_text = text, None
    if port_text is None:
        return host, default_port
    return host, int(port_text) if port_text.isdigit() and 0 < int(port_text) < 65536 else 0
