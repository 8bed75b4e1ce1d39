"""What counts as a credential inside a value: one rule, for masking and for withholding.

Output masks credentials with :func:`mask_credentials` (``config list``, errors); the
environment of every program gz-ia starts drops the ``GZ_*`` variables whose value
:func:`carries_credential` (:func:`gzia.config.without_secrets`). Both read the same
patterns, so what is masked and what is withheld cannot drift apart.
"""

from __future__ import annotations

MASK = "****"
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
