"""Where a git remote's repository lives on its forge: pure functions of the remote's URL.

A remote URL names the forge's host and the repository's ``owner/name`` in every form git
takes: ``https://host[:port]/[sub/path/]owner/name[.git]``, ``ssh://[user@]host[:port]/
owner/name[.git]``, ``git://host/owner/name``, the scp-like ``[user@]host:owner/name[.git]``,
and a local path (``/srv/git/owner/name.git``: no host). The web root follows from the
host for https and http URLs (sub-path installs included), and is ``https://host`` for ssh
(the ssh port is not the web's); a local path has none, so the API base comes from the
configuration then. User information in a URL (a token as user name) is never kept.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from urllib.parse import urlsplit

_SCP_LIKE = re.compile(r"^(?:[^@/\s]+@)?(?P<host>\[[^\]]+\]|[^:/\s]+):(?P<path>(?!//).*)$")
_URL_SCHEMES = ("https", "http", "ssh", "git", "git+ssh", "ssh+git")


@dataclass(frozen=True)
class RemoteRepository:
    """A repository as its remote URL names it."""

    owner: str
    name: str
    host: str | None
    """The forge's host name (lower case), or None for a local path."""
    web_root: str | None
    """``scheme://host[:port][/sub/path]`` of the forge's web pages, or None (local path)."""

    @property
    def full_name(self) -> str:
        return f"{self.owner}/{self.name}"


def parse_remote_url(url: str) -> RemoteRepository | None:
    """The repository ``url`` names, or None when it has no ``owner/name`` path."""
    url = url.strip()
    scheme = url.split("://", 1)[0].lower() if "://" in url else ""
    if scheme in _URL_SCHEMES:
        return _from_url(url, scheme)
    if scheme == "file":
        return _from_path(urlsplit(url).path, None, None)
    found = _SCP_LIKE.match(url)
    if found is not None and not url.startswith(("/", ".")):
        host = found["host"].strip("[]").lower()
        return _from_path(found["path"], host, f"https://{host}")
    return _from_path(url, None, None)


def _from_url(url: str, scheme: str) -> RemoteRepository | None:
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError:
        return None
    host = (parts.hostname or "").lower()
    if not host:
        return None
    segments = [s for s in parts.path.split("/") if s]
    if len(segments) < 2:
        return None
    if scheme in ("https", "http"):
        netloc = f"{host}:{port}" if port else host
        prefix = "".join(f"/{s}" for s in segments[:-2])
        root = f"{scheme}://{netloc}{prefix}"
    else:
        root = f"https://{host}"
    return _from_path("/".join(segments[-2:]), host, root)


def _from_path(path: str, host: str | None, root: str | None) -> RemoteRepository | None:
    segments = [s for s in path.replace("\\", "/").split("/") if s]
    if len(segments) < 2:
        return None
    owner, name = segments[-2], segments[-1]
    name = name[:-4] if name.endswith(".git") else name
    if not owner or not name or owner in (".", "..") or name in (".", ".."):
        return None
    return RemoteRepository(owner, name, host, root)


def api_root(setting: str) -> str:
    """A configured forge URL as a web root: ``https://host/sub`` from ``https://host/sub/``
    or ``https://host/sub/api/v1`` alike."""
    root = setting.strip().rstrip("/")
    return root[: -len("/api/v1")] if root.endswith("/api/v1") else root
