"""The one HTTP client of the release tooling: TLS verified, proxies from the environment."""

from __future__ import annotations

import ipaddress
import os
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from release.errors import ReleaseError

if TYPE_CHECKING:
    import httpx

USER_AGENT = "gz-ia-release"
LOOPBACK_NAMES = ("localhost",)


def make_client(auth: httpx.Auth | tuple[str, str] | None = None) -> httpx.Client:
    """System trust store plus ``$SSL_CERT_FILE``; ``HTTPS_PROXY``/``NO_PROXY`` honoured."""
    import ssl

    import httpx
    import truststore

    context = truststore.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    extra_ca = os.environ.get("SSL_CERT_FILE")
    if extra_ca:
        context.load_verify_locations(cafile=extra_ca)
    return httpx.Client(
        auth=auth,
        verify=context,
        trust_env=True,
        follow_redirects=False,
        timeout=httpx.Timeout(120.0, connect=15.0),
        headers={"User-Agent": USER_AGENT},
    )


def _is_loopback(host: str) -> bool:
    if host in LOOPBACK_NAMES:
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def base_url(text: str, what: str) -> str:
    """An https URL without a trailing slash; plain http only for a loopback test server."""
    parts = urlsplit(text)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise ReleaseError("INVALID_INPUT", f"{what} must be an http(s) URL, got {text!r}")
    if parts.username or parts.password or parts.query or parts.fragment:
        raise ReleaseError("INVALID_INPUT", f"{what} must not carry credentials or a query")
    if parts.scheme == "http" and not _is_loopback(parts.hostname):
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
