"""What gz-ia never hands to an agent: its own credentials.

gz-ia's update settings may carry secrets (a Forgejo token, a Nexus user and password, a
URL with a password or a token in it). An agent has no use for them, and whatever an agent
can read it can print, log or send away. Every environment gz-ia gives an agent (a session,
a version probe) goes through :func:`agent_environment` first. See docs/configuration.md,
"What agents get".
"""

from __future__ import annotations

import re
from collections.abc import Mapping

GZ_PREFIX = "GZ_"
SECRET_NAME = re.compile(r"TOKEN|PASSWORD|PASSWD|SECRET|CREDENTIAL|API_?KEY", re.IGNORECASE)
URL_USERINFO = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*://[^/?#\s]*@")
SECRET_QUERY = re.compile(
    r"[?&;][^=&;#]*(?:token|pass|secret|key|auth|sig|credential)[^=&;#]*=", re.IGNORECASE
)


def agent_environment(environ: Mapping[str, str]) -> dict[str, str]:
    """``environ`` without gz-ia's own secrets (:func:`withheld_names`)."""
    withheld = set(withheld_names(environ))
    return {name: value for name, value in environ.items() if name not in withheld}


def withheld_names(environ: Mapping[str, str]) -> list[str]:
    """The ``GZ_*`` variables of ``environ`` an agent must not see, in ``environ``'s order.

    A variable is withheld when it belongs to a credential setting (``secret`` or
    ``credential`` in :data:`gzia.config.SETTINGS`), when its name says it holds a secret
    (token, password, secret, credential, API key), or when its value carries one: a URL
    with a user part (``https://user:pass@host``) or a query parameter such as
    ``?token=``.
    """
    from gzia.config import SETTINGS

    credentials = {s.env for s in SETTINGS if s.secret or s.credential}
    return [
        name for name, value in environ.items()
        if name.startswith(GZ_PREFIX)
        and (name in credentials or SECRET_NAME.search(name) or carries_credential(value))
    ]


def carries_credential(value: str) -> bool:
    """Whether ``value`` holds a URL with a user part, or a secret-looking query parameter."""
    return URL_USERINFO.search(value) is not None or SECRET_QUERY.search(value) is not None
