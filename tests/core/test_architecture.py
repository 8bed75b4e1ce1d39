"""Imports point down (docs/architecture.md): checked on the source, so it cannot rot."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

GZIA = Path(__file__).resolve().parents[2] / "gzia"


def imported_gzia_modules(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.module == "gzia" and node.level == 0:
            names.update(f"gzia.{alias.name}" for alias in node.names)  # from gzia import proc
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
        elif isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
    return {n for n in names if n == "gzia" or n.startswith("gzia.")}


def package_files(package: str) -> list[Path]:
    return sorted((GZIA / package).rglob("*.py"))


CORE = ("gzia.contract", "gzia.config", "gzia.settings", "gzia.credentials", "gzia.i18n",
        "gzia.plugins", "gzia.proc", "gzia.atomic", "gzia.filelock", "gzia.selfexec",
        "gzia._version", "gzia.preflight", "gzia.extraction", "gzia.stale_builds",
        "gzia.policy", "gzia.config_files", "gzia.setting_values")
"""The modules at the top of ``gzia/`` that every layer may import."""
LAYERS: dict[str, tuple[str, ...]] = {
    "tui": ("views", "sessions", "supervisor", "drivers", "profiles", "update"),
    "views": ("sessions", "supervisor", "drivers", "profiles"),
    "metrics": ("sessions", "drivers"),
    "orchy": ("sessions",),
    "doctor": ("update", "sandbox"),
    "sessions": ("supervisor", "drivers", "profiles", "update", "sandbox"),
    "update": (),
    "drivers": (),
    "supervisor": (),
    "profiles": (),
    "sandbox": (),
}
"""What each layer below ``cli`` may import besides :data:`CORE` and itself: the table of
docs/architecture.md, which :func:`test_the_documented_layers_are_these` holds to this."""


def layer_files(layer: str) -> list[Path]:
    single = GZIA / f"{layer}.py"
    return [single] if single.exists() else package_files(layer)


@pytest.mark.parametrize("layer", sorted(LAYERS))
def test_each_layer_imports_only_what_it_may(layer: str) -> None:
    allowed = (*CORE, *(f"gzia.{name}" for name in (layer, *LAYERS[layer])))
    offenders = {
        f"{path.relative_to(GZIA)} imports {module}"
        for path in layer_files(layer)
        for module in imported_gzia_modules(path)
        if not any(module == a or module.startswith(a + ".") for a in allowed)
    }
    assert offenders == set()


def test_every_layer_below_the_command_line_has_its_rule() -> None:
    tops = {p.stem if p.is_file() else p.name for p in GZIA.iterdir()
            if (p.is_dir() and (p / "__init__.py").exists()) or p.suffix == ".py"}
    unruled = tops - set(LAYERS) - {name.split(".")[1] for name in CORE}
    assert unruled == {"cli", "__init__", "__main__"}


def test_the_documented_layers_are_these() -> None:
    """docs/architecture.md's table says, for each layer below ``cli``, what it may import
    (besides the core), in backquotes: the same as :data:`LAYERS`."""
    text = (GZIA.parent / "docs" / "architecture.md").read_text("utf-8")
    documented: dict[str, tuple[str, ...]] = {}
    for line in text.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 2 and cells[0].startswith("`"):
            rule = cells[1].split("(")[0]
            for layer in re.findall(r"`(\w+)`", cells[0]):
                documented[layer] = tuple(re.findall(r"`(\w+)`", rule))
    assert {k: sorted(v) for k, v in documented.items() if k in LAYERS} == {
        k: sorted(v) for k, v in LAYERS.items()}


def test_nothing_below_the_command_line_imports_it() -> None:
    """The command line is the top: only it (and ``python -m gzia``) imports gzia.cli."""
    offenders = {
        str(path.relative_to(GZIA))
        for path in GZIA.rglob("*.py")
        if path.relative_to(GZIA).parts[0] not in {"cli", "__main__.py"}
        and any(module.startswith("gzia.cli") for module in imported_gzia_modules(path))
    }
    assert offenders == set()


def test_core_modules_import_nothing_above_them() -> None:
    core = ("contract.py", "config.py", "settings.py", "credentials.py", "plugins.py", "proc.py",
            "atomic.py", "filelock.py", "selfexec.py", "i18n/__init__.py", "preflight.py",
            "policy.py", "config_files.py", "setting_values.py")
    allowed = ("gzia.contract", "gzia.config", "gzia.settings", "gzia.credentials", "gzia.i18n",
               "gzia.atomic", "gzia.filelock", "gzia._version", "gzia.preflight", "gzia.policy",
               "gzia.config_files", "gzia.setting_values")
    for name in core:
        for module in imported_gzia_modules(GZIA / name):
            assert module.startswith(allowed), f"{name} imports {module}"


def files_importing(packages: set[str]) -> set[Path]:
    """The gzia files that import any of these top-level packages, lazily or not."""
    importers = set()
    for path in GZIA.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            names = ([node.module or ""] if isinstance(node, ast.ImportFrom)
                     else [a.name for a in node.names] if isinstance(node, ast.Import) else [])
            if any(n.split(".")[0] in packages for n in names):
                importers.add(path.relative_to(GZIA))
    return importers


def test_only_the_mcp_server_module_imports_the_sdk() -> None:
    """The MCP SDK costs most of a second to import: only ``gz-ia mcp`` may pay for it."""
    assert {str(p) for p in files_importing({"mcp", "mcp_types"})} == {"orchy/server.py"}


def module_name(path: Path) -> str:
    parts = path.relative_to(GZIA.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def import_graph() -> dict[str, set[str]]:
    """Each gzia module and the gzia modules it imports, lazily imported ones included.

    ``from gzia.cli import output`` depends on the module ``gzia.cli.output``; that Python
    runs a package's ``__init__`` before its modules is not a dependency on the package.
    """
    modules = {module_name(path): path for path in GZIA.rglob("*.py")}
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        targets: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                submodules = {f"{node.module}.{alias.name}" for alias in node.names}
                found = submodules & modules.keys()
                targets |= found or {node.module}
            elif isinstance(node, ast.Import):
                targets.update(alias.name for alias in node.names)
        graph[name] = {t for t in targets if t in modules and t != name
                       and not name.startswith(t + ".")}
    return graph


def find_cycle(graph: dict[str, set[str]]) -> list[str]:
    """One import cycle as a path (first module repeated at the end), or ``[]``."""
    done: set[str] = set()
    path: list[str] = []

    def visit(node: str) -> list[str]:
        if node in path:
            return [*path[path.index(node):], node]
        if node in done:
            return []
        path.append(node)
        for target in sorted(graph[node]):
            cycle = visit(target)
            if cycle:
                return cycle
        path.pop()
        done.add(node)
        return []

    for start in sorted(graph):
        cycle = visit(start)
        if cycle:
            return cycle
    return []


def test_the_import_graph_has_no_cycle() -> None:
    assert find_cycle(import_graph()) == []


def test_a_cycle_is_found() -> None:
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": set()}) == ["a", "b", "c", "a"]


def test_only_the_terminal_ui_imports_textual() -> None:
    """Textual costs most of a second to import: only ``gz-ia start`` (gzia/tui/) pays."""
    assert {p.parts[0] for p in files_importing({"textual"})} == {"tui"}


TEXTUAL_FREE = """
import sys
from gzia.cli import main
code = main(sys.argv[1:])
loaded = sorted(m for m in sys.modules if m.split(".")[0] in {"textual", "gzia"}
                and (m.startswith("textual") or m.startswith("gzia.tui")))
assert loaded == [], loaded
sys.exit(code)
"""


@pytest.mark.parametrize("args", [["--version"], ["session", "list"], []], ids=repr)
def test_version_session_list_and_help_do_not_import_textual(
    args: list[str], tmp_path: Path
) -> None:
    import subprocess
    import sys

    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    done = subprocess.run([sys.executable, "-c", TEXTUAL_FREE, *args], cwd=tmp_path,
                          stdin=subprocess.DEVNULL, capture_output=True, text=True,
                          timeout=60, check=False)
    assert done.returncode == 0, done.stderr  # bare gz-ia off a terminal: the help
    assert done.stdout


SUBPACKAGES = ("gzia.sessions.run", "gzia.sessions.background", "gzia.sessions.merge",
               "gzia.sessions.prune", "gzia.sessions.review")


def test_session_subpackages_are_used_through_their_public_surface() -> None:
    """Outside run/, background/, merge/, prune/ and review/, only their ``__init__`` is
    imported."""
    offenders = {
        f"{module_name(path)} imports {module}"
        for path in GZIA.rglob("*.py")
        for module in imported_gzia_modules(path)
        for package in SUBPACKAGES
        if module.startswith(package + ".") and not module_name(path).startswith(package)
    }
    assert offenders == set()


def test_no_module_imports_another_modules_private_names() -> None:
    offenders = {
        f"{path.relative_to(GZIA)} imports {node.module}.{alias.name}"
        for path in GZIA.rglob("*.py")
        for node in ast.walk(ast.parse(path.read_text()))
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("gzia")
        for alias in node.names
        if alias.name.startswith("_") and not alias.name.startswith("__")
    }
    assert offenders == set()


def test_only_proc_creates_processes() -> None:
    """One module spawns processes (argv lists, explicit env and cwd): ``gzia/proc.py``."""
    spawning = {"Popen", "fork", "forkpty", "posix_spawn", "posix_spawnp", "spawnv", "spawnve"}
    creators = {
        str(path.relative_to(GZIA))
        for path in GZIA.rglob("*.py")
        for node in ast.walk(ast.parse(path.read_text()))
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
        and node.func.attr in spawning
    }
    assert creators == {"proc.py"}


def test_internal_imports_sit_at_module_level_unless_start_up_needs_them_lazy() -> None:
    """Outside cli/ and tui/, a gzia import inside a function hides the graph; one kept
    there for start-up speed says so (``# lazy: ...`` on its line or the line above)."""
    offenders = set()
    for path in GZIA.rglob("*.py"):
        if path.relative_to(GZIA).parts[0] in {"cli", "tui"}:
            continue
        lines = path.read_text().splitlines()
        for node in ast.walk(ast.parse(path.read_text())):
            if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                continue
            for inner in ast.walk(node):
                if _imports_gzia(inner) and not _said_lazy(lines, inner.lineno - 1):
                    offenders.add(f"{path.relative_to(GZIA)}:{inner.lineno}")
    assert offenders == set()


def _imports_gzia(node: ast.AST) -> bool:
    """``from gzia... import``, ``from . import`` or ``import gzia...`` (all hide the graph
    alike)."""
    if isinstance(node, ast.ImportFrom):
        return node.level > 0 or (node.module or "").split(".")[0] == "gzia"
    if isinstance(node, ast.Import):
        return any(alias.name.split(".")[0] == "gzia" for alias in node.names)
    return False


def _said_lazy(lines: list[str], index: int) -> bool:
    """``# lazy`` on the import's line, or above it and the imports just before it."""
    while "# lazy" not in lines[index]:
        index -= 1
        if not lines[index].lstrip().startswith(("from ", "import ", "#")):
            return False
    return True
