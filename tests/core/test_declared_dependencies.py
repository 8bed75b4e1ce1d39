"""Every package gz-ia imports itself is declared in pyproject.toml, not just brought in
by another one (a dependency that drops it would break gz-ia)."""

from __future__ import annotations

import ast
import re
import sys
import tomllib
from importlib.metadata import packages_distributions
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def imported_top_levels() -> set[str]:
    names: set[str] = set()
    for path in (ROOT / "gzia").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                names.add(node.module.split(".")[0])
            elif isinstance(node, ast.Import):
                names.update(alias.name.split(".")[0] for alias in node.names)
    return names - set(sys.stdlib_module_names) - {"gzia", "__future__"}


def declared() -> set[str]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["project"]
    return {re.split(r"[=<>!~\[; ]", spec, maxsplit=1)[0].lower().replace("_", "-")
            for spec in project["dependencies"]}


def test_every_package_gzia_imports_is_declared() -> None:
    owners = packages_distributions()
    undeclared = {
        f"{module} ({', '.join(owners.get(module, ['?']))})"
        for module in imported_top_levels()
        if not {d.lower().replace("_", "-") for d in owners.get(module, [module])} & declared()
    }
    assert undeclared == set()
