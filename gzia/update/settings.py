"""Update settings, read from :mod:`gzia.config` (the environment beats the config file)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass


@dataclass(frozen=True)
class UpdateSettings:
    nexus_search_url: str
    nexus_user: str
    nexus_password: str
    forgejo_api_url: str
    forgejo_token: str
    timeout: float
    public_keys: str

    @classmethod
    def load(cls, environ: Mapping[str, str] | None = None) -> UpdateSettings:
        from gzia.config import load_config

        config = load_config(environ)

        def text(key: str) -> str:
            value = config.get(key)
            return str(value).strip() if value is not None else ""

        return cls(text("nexus_search_url"), text("nexus_user"), text("nexus_password"),
                   text("forgejo_api_url"), text("forgejo_token"),
                   float(config.get("update_timeout")),  # validated by gzia.config
                   text("update_public_keys"))
