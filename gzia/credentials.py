"""What counts as a credential: one rule, for masking and for withholding.

Output masks credentials with :func:`mask_credentials` (``config list``, errors); the
environment of every program gz-ia starts, and of gz-ia itself once it has shed them
(:mod:`gzia.cli.credential_shedding`), drops the variables :func:`secret_variables`
names, among them those whose value :func:`carries_credential`. Both read the same
patterns, so what is masked and what is withheld cannot drift apart. This module imports
nothing heavy at load: every gz-ia start with a ``GZ_*`` variable set consults it first.
"""

from __future__ import annotations

from collections.abc import Mapping

MASK = "****"
GZ_PREFIX = "GZ_"
CREDENTIAL_VARIABLES = frozenset({"GZ_NEXUS_USER", "GZ_NEXUS_PASSWORD", "GZ_FORGEJO_TOKEN",
                                  "GZ_NOTIFY_WEBHOOK", "GZ_GITHUB_TOKEN"})
"""The variables of gz-ia's credential settings (``Setting.credential`` in
:mod:`gzia.config`, whose table must name each): withheld whatever their value. A
notification webhook's URL is one: a chat service's hook URL carries its token in its path."""
URL_USERINFO = r"(?P<scheme>[A-Za-z][A-Za-z0-9+.-]*://)(?P<user>[^/?#@\s:]*)(?::[^/?#@\s]*)?@"
"""A URL's user part: ``https://user:password@``, or a bare ``https://user@`` (often a token)."""
_CREDENTIAL_NAME = (r"[A-Za-z0-9_.-]*(?:token|secret|pass|pwd|key|auth|sig|cred|session|sid"
                    r"|jwt|bearer)[A-Za-z0-9_.-]*")
QUERY_CREDENTIAL = rf"(?i)(?P<name>[?&;#]{_CREDENTIAL_NAME}=)[^&;#\s'\"]*"
"""A query or fragment parameter named like a credential, with its value: ``?token=…``."""
SECRET_NAME = r"(?i)TOKEN|PASSWORD|PASSWD|SECRET|CREDENTIAL|API_?KEY"  # noqa: S105 - a pattern
"""A variable name that says it holds a secret."""


def carries_credential(text: str) -> bool:
    """Whether ``text`` holds a URL with a user part or a credential-named parameter."""
    import re

    return any(re.search(pattern, text) for pattern in (URL_USERINFO, QUERY_CREDENTIAL))


def mask_credentials(text: str) -> str:
    """``text`` with credentials in URLs masked: ``https://user:****@host``, a bare
    ``https://****@host`` (a token as user name), and ``?token=****`` for any query or
    fragment parameter whose name holds token, secret, pass, pwd, key, auth, sig, cred,
    session, sid, jwt or bearer."""
    import re

    def userinfo(found: re.Match[str]) -> str:
        has_password = ":" in found.group()[len(found["scheme"]):]
        user = found["user"] if has_password else ""
        return f"{found['scheme']}{user}{':' if has_password else ''}{MASK}@"

    text = re.sub(URL_USERINFO, userinfo, text)
    return re.sub(QUERY_CREDENTIAL, lambda found: found["name"] + MASK, text)


def names_a_secret(name: str) -> bool:
    """Whether a variable's name says it holds a secret (token, password, API key, ...)."""
    import re

    return re.search(SECRET_NAME, name) is not None


def secret_variables(environ: Mapping[str, str]) -> list[str]:
    """The ``GZ_*`` variables of ``environ`` that hold a credential, in ``environ``'s order:
    those of a credential setting (:data:`CREDENTIAL_VARIABLES`), those whose name says
    so (token, password, secret, credential, API key) and those whose value carries one
    (:func:`carries_credential`: ``https://user:pass@host``, ``?token=``)."""
    return [
        name for name, value in environ.items()
        if name.startswith(GZ_PREFIX)
        and (name in CREDENTIAL_VARIABLES or names_a_secret(name) or carries_credential(value))
    ]


WITHHELD_NAMES_VARIABLE = "GZ_WITHHELD"
"""Set by gz-ia only, when it runs a command again without its credentials
(gzia.cli.credential_shedding): the names, never the values, it took out, comma-separated,
so that the command can still say that a profile asks for a withheld credential."""


def withheld_names(environ: Mapping[str, str]) -> set[str]:
    """The credentials gz-ia keeps from agents in ``environ``: those it holds
    (:func:`secret_variables`) and those a run without them was started without."""
    shed = environ.get(WITHHELD_NAMES_VARIABLE, "")
    return set(secret_variables(environ)) | {name for name in shed.split(",") if name}


def names_withheld(environ: Mapping[str, str]) -> dict[str, str]:
    """``environ`` without its credentials, remembering their names
    (:data:`WITHHELD_NAMES_VARIABLE`): the environment a command runs again with."""
    names = withheld_names(environ)
    clean = without_secrets(environ)
    clean[WITHHELD_NAMES_VARIABLE] = ",".join(sorted(names))
    return clean


def without_secrets(environ: Mapping[str, str]) -> dict[str, str]:
    """``environ`` without gz-ia's own secrets (:func:`secret_variables`): the environment
    of every program gz-ia starts, agents, git and the hooks git runs alike."""
    withheld = {*secret_variables(environ), WITHHELD_NAMES_VARIABLE}
    return {name: value for name, value in environ.items() if name not in withheld}
