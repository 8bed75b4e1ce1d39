"""What one sandbox lets its agent do: which paths it reads, writes or cannot see, and
its network (:class:`SandboxPolicy`), built in one place from the session, the agent's
driver and the settings (:func:`sandbox_policy`)."""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from gzia.sandbox.gitpaths import GitPaths
from gzia.sandbox.network import NetworkPlan
from gzia.sandbox.outside import OutsidePlan
from gzia.sandbox.services import SandboxServices

READ_ONLY, WRITABLE, HIDE = "ro", "rw", "hide"
NETWORK_HOST, NETWORK_NONE, NETWORK_ALLOWLIST = "host", "none", "allowlist"
PRIVATE_TMP = Path("/tmp")  # noqa: S108 - the sandbox's own, empty (gzia.sandbox.bwrap)
SECRETS_IN_HOME = (".ssh", ".gnupg", ".aws", ".config/gcloud", ".netrc", ".docker", ".kube")
"""Hidden in every sandbox, under the agent's home."""
SYSTEM_SOCKETS = ("/run/docker.sock", "/var/run/docker.sock", "/run/podman/podman.sock")
"""Sockets that hand out the machine (a container engine's API): hidden."""


@dataclass(frozen=True)
class Mount:
    kind: str
    """:data:`READ_ONLY`, :data:`WRITABLE` or :data:`HIDE` (empty and read-only)."""
    path: Path


@dataclass(frozen=True)
class SandboxPolicy:
    workdir: Path
    network: str
    mounts: tuple[Mount, ...]
    """In order: later mounts win (:mod:`gzia.sandbox.bwrap`)."""
    setenv: Mapping[str, str] = field(default_factory=dict)
    proxy: NetworkPlan | None = None
    """``allowlist``: the handshake and the hosts of the proxy its owner runs."""
    outside: OutsidePlan | None = None
    """gz-ia's commands the owner runs outside for the agent (:mod:`gzia.sandbox.outside`)."""

    @property
    def services(self) -> SandboxServices:
        return SandboxServices(self.proxy, self.outside)

    def paths(self, kind: str) -> list[str]:
        return list(dict.fromkeys(str(m.path) for m in self.mounts if m.kind == kind))

    def to_json(self) -> dict[str, Any]:
        """The record's ``sandbox`` field (``hosts``: what ``allowlist`` allows)."""
        data: dict[str, Any] = {"network": self.network, "rw": self.paths(WRITABLE),
                                "hidden": self.paths(HIDE)}
        if self.proxy is not None:
            data["hosts"] = list(self.proxy.hosts)
        return data


@dataclass(frozen=True)
class SandboxInputs:
    """Everything a policy is made of; the session side fills it in."""

    workdir: Path
    project_root: Path
    network: str
    git: GitPaths | None = None
    agent_state: tuple[Path, ...] = ()
    gzia_dirs: tuple[Path, ...] = ()
    read_only: tuple[str, ...] = ()
    writable: tuple[str, ...] = ()
    hidden: tuple[str, ...] = ()
    env: Mapping[str, str] = field(default_factory=dict)
    proxy: NetworkPlan | None = None
    """Only with ``network`` ``allowlist`` (:mod:`gzia.sandbox.network`)."""
    outside: OutsidePlan | None = None


def sandbox_policy(given: SandboxInputs) -> SandboxPolicy:
    home = _home(given.env)
    git = given.git or GitPaths((), ())
    mounts = [
        *_mounts(READ_ONLY, [given.project_root, *([home] if home else []),
                             *_expanded(given.read_only, home)]),
        *_mounts(WRITABLE, [*git.writable, given.workdir, *given.agent_state,
                            *_expanded(given.writable, home)]),
        *_mounts(READ_ONLY, git.protected),
    ]
    hidden = [m for m in _outermost(_mounts(HIDE, _hidden(given, home))) if _visible(m, mounts)]
    proxy = given.proxy if given.network == NETWORK_ALLOWLIST else None
    return SandboxPolicy(given.workdir, given.network, (*mounts, *hidden), proxy=proxy,
                         outside=given.outside)


def _visible(hidden: Mount, mounts: list[Mount]) -> bool:
    """Whether a path would be seen at all: under ``/tmp`` only what a mount shows again."""
    if not hidden.path.is_relative_to(PRIVATE_TMP):
        return True
    return any(hidden.path.is_relative_to(mount.path) for mount in mounts)


def _hidden(given: SandboxInputs, home: Path | None) -> list[Path]:
    secrets = [home / name for name in SECRETS_IN_HOME] if home is not None else []
    sockets = [Path(p) for p in (*SYSTEM_SOCKETS, given.env.get("SSH_AUTH_SOCK", ""),
                                 given.env.get("XDG_RUNTIME_DIR", "")) if p]
    return [*secrets, *given.gzia_dirs, *sockets, *_expanded(given.hidden, home)]


def _mounts(kind: str, paths: Iterable[Path]) -> list[Mount]:
    """A mount per existing path (resolved: a link's target is what is read or written);
    a path that does not exist has nothing to show or hide."""
    found: dict[Path, None] = {}
    for path in paths:
        if path.is_absolute() and os.path.lexists(path):
            found[path.resolve()] = None
    return [Mount(kind, path) for path in found]


def _outermost(mounts: list[Mount]) -> list[Mount]:
    """Without the mounts inside another one (hidden already, and no longer there to
    mount over)."""
    paths = {mount.path for mount in mounts}
    return [mount for mount in mounts if not any(p in paths for p in mount.path.parents)]


def _home(env: Mapping[str, str]) -> Path | None:
    home = env.get("HOME")
    return Path(home) if home and Path(home).is_absolute() else None


def _expanded(paths: Iterable[str], home: Path | None) -> list[Path]:
    """Paths from the settings: ``~`` is the agent's home; relative ones mean nothing."""
    result = []
    for text in paths:
        if text == "~" or text.startswith("~/"):
            if home is not None:
                result.append(Path(str(home) + text[1:]))
            continue
        result.append(Path(text))
    return result
