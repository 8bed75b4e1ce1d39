"""One rule for credentials in values: what output masks is what programs gz-ia starts
never get."""

from __future__ import annotations

import pytest

from gzia.credentials import carries_credential, mask_credentials, without_secrets

VALUES = [
    ("https://user:secret@nexus.example/search", "https://user:****@nexus.example/search", True),
    ("https://a-token@forgejo.example/api", "https://****@forgejo.example/api", True),
    ("https://forgejo.example/api?access_token=abc", "https://forgejo.example/api?access_token=****",
     True),
    ("https://plugins.example/index#jwt=abc", "https://plugins.example/index#jwt=****", True),
    ("https://nexus.example/s?repository=raw&pwd=abc", "https://nexus.example/s?repository=raw&pwd=****",
     True),
    ("https://nexus.example/s?repository=raw", "https://nexus.example/s?repository=raw", False),
    ("/home/ops/keys/release.pub", "/home/ops/keys/release.pub", False),
    ("supervised", "supervised", False),
]


@pytest.mark.parametrize(("value", "shown", "carries"), VALUES)
def test_what_is_masked_is_what_is_withheld(value: str, shown: str, carries: bool) -> None:
    assert mask_credentials(value) == shown
    assert carries_credential(value) is carries
    kept = without_secrets({"GZ_SOME_SETTING": value, "OTHER": value})
    assert kept == ({"OTHER": value} if carries else {"GZ_SOME_SETTING": value, "OTHER": value})


def test_the_credential_variables_are_the_credential_settings() -> None:
    """The withholding rule names the credential settings' variables itself (it must not
    import the settings table: every start with a GZ_* variable consults it); they agree,
    and every secret setting is one of them."""
    from gzia.credentials import CREDENTIAL_VARIABLES
    from gzia.settings import SETTINGS

    assert {s.env for s in SETTINGS if s.credential} == CREDENTIAL_VARIABLES
    assert all(s.credential for s in SETTINGS if s.secret)
    assert {s.key for s in SETTINGS if s.credential} == {
        "nexus_user", "nexus_password", "forgejo_token", "notify_webhook", "github_token"}


def test_deciding_what_to_withhold_imports_no_settings_table() -> None:
    import subprocess
    import sys

    code = ("import sys; from gzia.credentials import without_secrets; "
            "without_secrets({'GZ_LANG': 'es', 'GZ_FORGEJO_TOKEN': 't'}); "
            "print(sorted(m for m in sys.modules if m.startswith('gzia')))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True, timeout=30)
    assert done.stdout.strip() == "['gzia', 'gzia._version', 'gzia.credentials']"
