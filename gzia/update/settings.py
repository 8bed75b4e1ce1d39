"""Update settings, read from :mod:`gzia.config` (the environment beats the config file)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from gzia.contract import InvalidInputError


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

        timeout = float(config.get("update_timeout"))
        if timeout <= 0:
            raise InvalidInputError("update.bad_timeout", value=timeout,
                                    details={"key": "update_timeout", "value": timeout})
        return cls(text("nexus_search_url"), text("nexus_user"), text("nexus_password"),
                   text("forgejo_api_url"), text("forgejo_token"), timeout,
                   text("update_public_keys"))
