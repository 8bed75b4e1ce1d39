"""Update settings, read from :mod:`gzia.config` (the environment beats the config file,
which beats the built-in defaults).

``GZ_NEXUS_BASE_URL``, the original's download base (``<nexus>/repository/<repo>/gz-ia``),
is accepted as the Nexus search URL of that repository when ``GZ_NEXUS_SEARCH_URL`` is not
set in the environment; a base URL of any other shape cannot be mapped, and ``gz-ia doctor``
says so.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from urllib.parse import unquote, urlencode, urlsplit, urlunsplit

from gzia.config import SOURCE_ENV, load_config
from gzia.policy import Policy
from gzia.settings import NEXUS_BASE_URL

LEGACY_BASE_ENV = NEXUS_BASE_URL.env
_BASE_PATH = re.compile(r"(?P<root>.*)/repository/(?P<repo>[^/]+)(?:/[^/]+)*/gz-ia")


def search_url_from_base(base: str) -> str | None:
    """``https://nexus/repository/<repo>/[dirs/]gz-ia`` as the search URL of ``<repo>``
    (``https://nexus/service/rest/v1/search/assets?repository=<repo>``); ``None`` when
    ``base`` has another shape."""
    try:
        parts = urlsplit(base.strip())
        _ = parts.port
    except ValueError:
        return None
    match = _BASE_PATH.fullmatch(parts.path.rstrip("/"))
    if parts.scheme not in ("http", "https") or not parts.hostname or match is None \
            or parts.query or parts.fragment:
        return None
    path = f"{match['root']}/service/rest/v1/search/assets"
    query = urlencode({"repository": unquote(match["repo"])})
    return urlunsplit((parts.scheme, parts.netloc, path, query, ""))


@dataclass(frozen=True)
class UpdateSettings:
    nexus_search_url: str
    nexus_user: str
    nexus_password: str
    forgejo_api_url: str
    forgejo_token: str
    timeout: float
    public_keys: str
    channel: str = "stable"
    policy: Policy = field(default_factory=Policy)

    @classmethod
    def load(cls, environ: Mapping[str, str] | None = None) -> UpdateSettings:
        env = os.environ if environ is None else environ
        config = load_config(env)

        def text(key: str) -> str:
            value = config.get(key)
            return str(value).strip() if value is not None else ""

        nexus = text("nexus_search_url")
        if config.value("nexus_search_url").source != SOURCE_ENV:
            nexus = search_url_from_base(text(NEXUS_BASE_URL.key)) or nexus
        return cls(nexus, text("nexus_user"), text("nexus_password"),
                   text("forgejo_api_url"), text("forgejo_token"),
                   float(config.get("update_timeout")),  # validated by gzia.config
                   text("update_public_keys"), text("update_channel") or "stable",
                   config.policy)
