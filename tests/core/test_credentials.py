"""One rule for credentials in values: what output masks is what programs gz-ia starts
never get."""

from __future__ import annotations

import pytest

from gzia.config import without_secrets
from gzia.credentials import carries_credential, mask_credentials

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
