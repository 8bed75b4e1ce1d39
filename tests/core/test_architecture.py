"""Imports point down (docs/architecture.md): checked on the source, so it cannot rot."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

GZIA = Path(__file__).resolve().parents[2] / "gzia"


def imported_gzia_modules(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
        elif isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
    return {n for n in names if n == "gzia" or n.startswith("gzia.")}


def package_files(package: str) -> list[Path]:
    return sorted((GZIA / package).rglob("*.py"))


@pytest.mark.parametrize(("package", "forbidden"), [
    ("sessions", ("gzia.cli", "gzia.metrics")),
    ("metrics", ("gzia.cli", "gzia.update")),
    ("drivers", ("gzia.cli", "gzia.sessions", "gzia.supervisor", "gzia.update", "gzia.metrics")),
    ("supervisor", ("gzia.cli", "gzia.update", "gzia.drivers", "gzia.sessions")),
    ("update", ("gzia.cli", "gzia.sessions", "gzia.supervisor", "gzia.drivers")),
])
def test_package_does_not_import_upwards(package: str, forbidden: tuple[str, ...]) -> None:
    offenders = {
        f"{path.relative_to(GZIA)} imports {module}"
        for path in package_files(package)
        for module in imported_gzia_modules(path)
        if module.startswith(forbidden)
    }
    assert offenders == set()


def test_core_modules_import_nothing_above_them() -> None:
    core = ("contract.py", "config.py", "plugins.py", "proc.py", "atomic.py", "i18n/__init__.py")
    allowed = ("gzia.contract", "gzia.config", "gzia.i18n", "gzia.atomic", "gzia._version")
    for name in core:
        for module in imported_gzia_modules(GZIA / name):
            assert module.startswith(allowed), f"{name} imports {module}"
