"""The drivers catalogue: same keys and placeholders in English and Spanish."""

from __future__ import annotations

import string

from gzia.i18n import drivers as catalogue


def placeholders(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def test_same_keys_and_placeholders() -> None:
    assert set(catalogue.EN) == set(catalogue.ES)
    assert {k: placeholders(v) for k, v in catalogue.EN.items()} == {
        k: placeholders(v) for k, v in catalogue.ES.items()}
