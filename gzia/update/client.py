"""The one HTTP client factory and the request helpers every update step uses.

:func:`make_client` sets timeouts, the ``gz-ia/<version>`` User-Agent, proxies from the
environment (``HTTPS_PROXY``/``HTTP_PROXY``/``ALL_PROXY``/``NO_PROXY``, either case,
credentials in the proxy URL) and TLS verified against the system trust store
(truststore) plus ``SSL_CERT_FILE``. Redirects are followed here, by hand, so registry
credentials are sent only to the origin they belong to.
"""

from __future__ import annotations

import json
import os
import re
import ssl
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit, urlunsplit

import gzia._version
from gzia.contract import InvalidInputError
from gzia.i18n import N_
from gzia.update.errors import SourceFailure

if TYPE_CHECKING:
    import httpx

MAX_REDIRECTS = 5
JSON_LIMIT = 8 << 20  # far above any page of Nexus or Forgejo; stops an endless body
DEFAULT_PORTS = {"http": 80, "https": 443}


def usable_url(url: str) -> bool:
    """An ``http``/``https`` URL with a host name and a valid port, that httpx accepts."""
    import httpx  # lazy here and below: start-up speed (httpx only when gz-ia goes online)

    try:
        parts = urlsplit(url)
        _ = parts.port
        httpx.URL(url)
    except (ValueError, httpx.InvalidURL):
        return False
    return parts.scheme.lower() in DEFAULT_PORTS and bool(parts.hostname)


def origin_of(url: str) -> tuple[str, str, int]:
    parts = urlsplit(url)
    scheme = parts.scheme.lower()
    return scheme, (parts.hostname or "").lower(), parts.port or DEFAULT_PORTS.get(scheme, 0)


def redact(url: str) -> str:
    """``url`` without user info and query (never print credentials or tokens)."""
    parts = urlsplit(url)
    host = parts.hostname or ""
    netloc = f"{host}:{parts.port}" if parts.port else host
    return urlunsplit((parts.scheme, netloc, parts.path, "", ""))


@dataclass(frozen=True)
class Credentials:
    """An ``Authorization`` header bound to one origin (scheme, host, port)."""

    origin: tuple[str, str, int]
    header: str

    @classmethod
    def basic(cls, url: str, user: str, password: str) -> Credentials | None:
        if not user or not usable_url(url):
            return None
        import base64

        token = base64.b64encode(f"{user}:{password}".encode()).decode()
        return cls(origin_of(url), f"Basic {token}")

    @classmethod
    def token(cls, url: str, token: str) -> Credentials | None:
        return cls(origin_of(url), f"token {token}") if token and usable_url(url) else None

    def applies_to(self, url: str) -> bool:
        return origin_of(url) == self.origin

    @property
    def protected(self) -> bool:
        """Whether they travel encrypted: https, or plain http to this very machine."""
        scheme, host, _ = self.origin
        return scheme == "https" or is_loopback(host)


def is_loopback(host: str) -> bool:
    """``localhost`` or a loopback address (``127.0.0.0/8``, ``::1``, bracketed or not)."""
    import ipaddress

    try:
        return host == "localhost" or ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def ssl_context() -> ssl.SSLContext:
    """The system trust store, plus the bundle named by ``SSL_CERT_FILE`` when set."""
    import truststore  # lazy: start-up speed

    context = truststore.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    extra = os.environ.get("SSL_CERT_FILE", "")
    if extra:
        try:
            context.load_verify_locations(cafile=extra)
        except (OSError, ValueError) as exc:  # ssl.SSLError is an OSError
            detail = (exc.strerror or str(exc)) if isinstance(exc, OSError) else str(exc)
            raise InvalidInputError(N_("SSL_CERT_FILE {path} is not a readable PEM certificate "
                                       "bundle: {detail}"),
                                    path=extra, detail=detail) from exc
    return context


READ_SIZE = 1 << 20


def _larger_reads() -> None:
    """Read the socket 1 MiB at a time instead of httpcore's 64 KiB.

    There is no public option for it; bench/download.py shows the gain (about 1.4x on
    loopback). Without the attribute (another httpcore) nothing changes.
    """
    try:
        from httpcore._sync import http11
    except ImportError:
        return
    connection = getattr(http11, "HTTP11Connection", None)
    if connection is not None and getattr(connection, "READ_NUM_BYTES", READ_SIZE) < READ_SIZE:
        connection.READ_NUM_BYTES = READ_SIZE


def current_version() -> str:
    """The version of the running gz-ia, read when asked (an update replaces the file, and
    the tests stand in for an installed version)."""
    return gzia._version.__version__  # the module's value now, not at import


def make_client(timeout: float = 30.0) -> httpx.Client:
    """The one configured client: every update request goes through it."""
    import httpx

    _larger_reads()

    context = ssl_context()
    try:
        return httpx.Client(
            timeout=httpx.Timeout(timeout),
            headers={"User-Agent": f"gz-ia/{current_version()}"},
            verify=context,
            trust_env=True,  # proxies from HTTP(S)_PROXY, ALL_PROXY, NO_PROXY (either case)
            follow_redirects=False,
        )
    except (httpx.InvalidURL, ValueError, ImportError) as exc:  # an unusable proxy URL
        detail = "SOCKS proxies are not supported" if isinstance(exc, ImportError) \
            else _safe(exc)
        raise InvalidInputError(N_("unusable proxy setting (HTTPS_PROXY, HTTP_PROXY or ALL_PROXY): "
                                   "{detail}"),
                                detail=detail,
                                hint_key=N_("set it to http://[user:password@]host:port")) from exc


@contextmanager
def open_stream(
    client: httpx.Client, url: str, credentials: Credentials | None, *, accept: str = "*/*"
) -> Iterator[httpx.Response]:
    """GET ``url`` following redirects; the response's body is not read yet."""
    response = _follow(client, url, credentials, accept)
    try:
        if response.status_code == 407:
            raise SourceFailure(N_("the proxy refused the credentials for {host} (HTTP 407); check "
                                   "the user and password in HTTPS_PROXY/HTTP_PROXY"),
                                reason_code="update.reason_proxy_auth",
                                host=host_of(str(response.url)),
                                detail="HTTP 407")
        if response.status_code != 200:
            raise SourceFailure(N_("{host} answered HTTP {status}"),
                                reason_code="update.reason_status", host=host_of(str(response.url)),
                                status=response.status_code)
        yield response
    finally:
        response.close()


def _follow(client: httpx.Client, url: str, credentials: Credentials | None,
            accept: str) -> httpx.Response:
    for _ in range(MAX_REDIRECTS + 1):
        headers = {"Accept": accept}
        if credentials is not None and credentials.applies_to(url):
            headers["Authorization"] = credentials.header
        with translate_errors(url, client):
            response = client.send(client.build_request("GET", url, headers=headers),
                                   stream=True)
        if not response.is_redirect:
            return response
        response.close()
        url = str(response.url.join(response.headers["location"]))
    raise SourceFailure(N_("too many redirects from {host}"), reason_code="update.reason_redirects",
                        host=host_of(url))


def get_json(client: httpx.Client, url: str, credentials: Credentials | None,
             ) -> tuple[Any, dict[str, str]]:
    """GET a JSON document; returns it with the response headers (lower-case names)."""
    with open_stream(client, url, credentials, accept="application/json") as response:
        with translate_errors(url, client):
            body = _read_bounded(response, url)
        try:
            document = json.loads(body)
        except ValueError as exc:
            raise SourceFailure(N_("{host} sent an invalid JSON document"),
                                reason_code="update.reason_bad_json", host=host_of(url)) from exc
        return document, {k.lower(): v for k, v in response.headers.items()}


def _read_bounded(response: httpx.Response, url: str) -> bytes:
    chunks, received = [], 0
    for chunk in response.iter_bytes():
        received += len(chunk)
        if received > JSON_LIMIT:
            raise SourceFailure(N_("{host} sent more than {mib} MiB of JSON"),
                                reason_code="update.reason_json_too_large", host=host_of(url),
                                mib=JSON_LIMIT >> 20)
        chunks.append(chunk)
    return b"".join(chunks)


def host_of(url: str) -> str:
    """``host`` or ``host:port`` of ``url``; never its user info, path or query."""
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError:
        return "?"
    host = parts.hostname or "?"
    return f"{host}:{port}" if port else host


@contextmanager
def translate_errors(url: str, client: httpx.Client | None = None) -> Iterator[None]:
    """Turn an httpx error into a :class:`SourceFailure` that names no credential."""
    import httpx

    host = host_of(url)
    try:
        yield
    except httpx.ProxyError as exc:
        key = (N_("the proxy refused the credentials for {host} (HTTP 407); check the user and "
                  "password in HTTPS_PROXY/HTTP_PROXY")
               if "407" in str(exc) else N_("the proxy failed to reach {host}: {detail}"))
        raise SourceFailure(key, host=host, detail=_safe(exc)) from exc
    except httpx.TimeoutException as exc:
        seconds = client.timeout.read if client is not None else None
        raise SourceFailure(N_("{host} did not answer within {seconds} s"),
                            reason_code="update.reason_timeout", host=host,
                            seconds=seconds) from exc
    except httpx.ConnectError as exc:
        proxy = proxy_host_for(url)
        if proxy is not None:
            raise SourceFailure(N_("cannot connect to the proxy {proxy} (for {host}): {detail}"),
                                reason_code="update.reason_proxy_connect", proxy=proxy, host=host,
                                detail=_safe(exc)) from exc
        raise SourceFailure(N_("cannot connect to {host}: {detail}"),
                            reason_code="update.reason_connect", host=host,
                            detail=_safe(exc)) from exc
    except httpx.HTTPError as exc:
        raise SourceFailure(N_("the connection to {host} broke: {detail}"),
                            reason_code="update.reason_broken", host=host,
                            detail=_safe(exc)) from exc


def proxy_for(url: str) -> str | None:
    """The proxy httpx uses for ``url``, as the environment gives it (credentials too):
    the one rule, for the update, notifications and a sandbox's proxy's upstream."""
    import urllib.request

    proxies = urllib.request.getproxies()  # what httpx reads too
    parts = urlsplit(url)
    proxy = proxies.get(parts.scheme.lower()) or proxies.get("all")
    if not proxy or _bypassed(parts.hostname or "", proxies.get("no", "")):
        return None
    return proxy if "://" in proxy else f"http://{proxy}"


def proxy_host_for(url: str) -> str | None:
    """The proxy httpx uses for ``url`` (host and port only), to name it in messages."""
    proxy = proxy_for(url)
    if proxy is None:
        return None
    try:
        return host_of(proxy)
    except ValueError:
        return None


def _bypassed(host: str, no_proxy: str) -> bool:
    """``NO_PROXY`` as httpx reads it: ``*``, a host, or a domain (with or without a dot)."""
    for entry in (e.strip().lower() for e in no_proxy.split(",")):
        name = entry.lstrip(".").rsplit(":", 1)[0] if "]" not in entry else entry
        if entry == "*" or (name and (host == name or host.endswith("." + name))):
            return True
    return False


_URL = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*://[^\s'\"<>()]*")


def _safe(exc: Exception) -> str:
    """An exception's text with anything URL-like (even quoted) reduced to host and path."""
    return _URL.sub(lambda found: _redact_or_drop(found.group()), str(exc)) \
        or type(exc).__name__


def _redact_or_drop(url: str) -> str:
    scheme, rest = url.split("://", 1)
    netloc, slash, path = rest.partition("/")
    try:
        return redact(f"{scheme}://{netloc.rpartition('@')[2]}{slash}{path}")
    except ValueError:  # an unparsable host or port: print the scheme alone
        return f"{scheme}://…"
