"""HTTP for the release tooling: gz-ia's own client (``gzia.update.client.make_client``:
TLS verified against the system trust store plus ``$SSL_CERT_FILE``, proxies from the
environment), registry URLs checked before any credential is sent, failures as
ReleaseErrors."""

from __future__ import annotations

from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from gzia.update.client import is_loopback
from release.errors import ReleaseError

if TYPE_CHECKING:
    import httpx

TIMEOUT = 120.0  # seconds to connect and between two reads: uploads of whole zipapps


def make_client(auth: httpx.Auth | tuple[str, str] | None = None) -> httpx.Client:
    """gz-ia's configured client, with the registry's credentials for every request."""
    from gzia.update.client import make_client as gz_ia_client

    client = gz_ia_client(TIMEOUT)
    if auth is not None:
        client.auth = auth
    return client


def base_url(text: str, what: str) -> str:
    """An https URL without a trailing slash; plain http only for a loopback test server."""
    parts = urlsplit(text)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise ReleaseError("INVALID_INPUT", f"{what} must be an http(s) URL, got {text!r}")
    if parts.username or parts.password or parts.query or parts.fragment:
        raise ReleaseError("INVALID_INPUT", f"{what} must not carry credentials or a query")
    if parts.scheme == "http" and not is_loopback(parts.hostname):
        raise ReleaseError(
            "INVALID_INPUT",
            f"{what} uses plain http: credentials would travel unencrypted; use https",
        )
    return text.rstrip("/")


def network_error(what: str, exc: Exception) -> ReleaseError:
    """A transport failure; URLs never carry credentials here, so the message is safe."""
    detail = str(exc).strip().splitlines()[0][:200] if str(exc).strip() else ""
    return ReleaseError("NETWORK", f"{what}: {type(exc).__name__} {detail}".rstrip())


def status_error(what: str, response: httpx.Response) -> ReleaseError:
    reason = response.reason_phrase or ""
    return ReleaseError("NETWORK", f"{what}: HTTP {response.status_code} {reason}".rstrip())
