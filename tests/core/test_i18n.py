"""Both catalogues say the same things, and the language follows the environment."""

from __future__ import annotations

import importlib
import pkgutil
import re
import string

import pytest

import gzia.i18n
from gzia.i18n import detect_language, t


def areas() -> list[str]:
    return sorted(m.name for m in pkgutil.iter_modules(gzia.i18n.__path__))


def fields(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


@pytest.mark.parametrize("area", areas())
def test_catalogues_have_the_same_keys_and_placeholders(area: str) -> None:
    module = importlib.import_module(f"gzia.i18n.{area}")
    assert set(module.EN) == set(module.ES)
    for key, english in module.EN.items():
        assert fields(english) == fields(module.ES[key]), f"{area}.{key}"


@pytest.mark.parametrize(("environ", "expected"), [
    ({}, "en"),
    ({"LANG": "es_ES.UTF-8"}, "es"),
    ({"LANG": "en_US.UTF-8", "LC_MESSAGES": "es_AR.UTF-8"}, "es"),
    ({"LC_ALL": "en_GB.UTF-8", "LC_MESSAGES": "es_AR.UTF-8"}, "en"),
    ({"GZ_LANG": "es", "LC_ALL": "en_GB.UTF-8"}, "es"),
    ({"GZ_LANG": "en", "LANG": "es_ES.UTF-8"}, "en"),
    ({"GZ_LANG": "", "LANG": "es_MX"}, "es"),
    ({"LANG": "C.UTF-8"}, "en"),
])
def test_language_detection_order(environ: dict[str, str], expected: str) -> None:
    assert detect_language(environ) == expected


def test_spanish_catalogue_is_used(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LANG", "es_ES.UTF-8")
    gzia.i18n.set_language(None)
    assert t("core.unknown_command", command="x") == "comando desconocido: x"
    gzia.i18n.set_language("en")
    assert t("core.unknown_command", command="x") == "unknown command: x"


USTED_IMPERATIVES = re.compile(
    r"\b(ejecute|vuelva|instale|defina|corrija|elimine|reintente|espere|use|vea|haga|revise|"
    r"quiso|resuelva|quítelos|muévalos|deténgala|detenga|elija|termínelo|abórtelo|verifique|"
    r"configure|intente|compruebe)\b", re.IGNORECASE)


@pytest.mark.parametrize("area", areas())
def test_spanish_speaks_tu_like_the_original(area: str) -> None:
    """The original says 'Verifica', 'Ejecuta', 'Puedes'; only the seed's own prompt
    '[?] Describa la tarea para el agente:' is kept as it is."""
    module = importlib.import_module(f"gzia.i18n.{area}")
    usted = {key: text for key, text in module.ES.items() if USTED_IMPERATIVES.search(text)}
    assert usted == {}


@pytest.mark.parametrize(("lang", "expected"), [
    ("en", ["0 plugins loaded", "1 plugin loaded", "2 plugins loaded"]),
    ("es", ["0 plugins cargados", "1 plugin cargado", "2 plugins cargados"]),
])
def test_a_count_of_one_takes_the_singular_form(lang: str, expected: list[str]) -> None:
    gzia.i18n.set_language(lang)
    try:
        assert [t("doctor.plugins_ok", count=n) for n in (0, 1, 2)] == expected
    finally:
        gzia.i18n.set_language(None)


@pytest.mark.parametrize("area", areas())
def test_every_singular_form_has_its_plural(area: str) -> None:
    module = importlib.import_module(f"gzia.i18n.{area}")
    singular = {key for key in module.EN if key.endswith("_one")}
    assert {key.removesuffix("_one") for key in singular} <= set(module.EN)
