"""A Python older than 3.11 is refused at once, in one line, from the source tree and the pyz.

Run with the real older interpreters of this machine (pyenv's, or ``pythonN.M`` on PATH);
an absent one is skipped. What such a Python reads before the check keeps to syntax 2.7
reads (gzia/preflight.py says which); 3.5, which reads the same, is checked by its syntax.
"""

from __future__ import annotations

import ast
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import REPO

PYENV = Path(os.environ.get("PYENV_ROOT") or Path.home() / ".pyenv")
OLD_VERSIONS = ("2.7", "3.6", "3.7", "3.8", "3.9", "3.10")
TOO_OLD = {
    "en": "Error: gz-ia needs Python 3.11 or newer, and {path} is Python {found}\n",
    "es": "Error: gz-ia necesita Python 3.11 o posterior, y {path} es Python {found}\n",
}


def old_python(version: str) -> Path:
    """An interpreter of ``version`` (``3.10``), or the test is skipped."""
    candidates = sorted(PYENV.glob(f"versions/{version}.*/bin/python{version}"))
    on_path = shutil.which(f"python{version}")
    for candidate in [*candidates, *([Path(on_path)] if on_path else [])]:
        done = subprocess.run([str(candidate), "-c", "import sys; print(sys.version_info[:2])"],
                              capture_output=True, text=True, timeout=30, check=False)
        if done.returncode == 0:
            return candidate
    pytest.skip(f"no Python {version} on this machine")


def found_version(python: Path) -> str:
    return subprocess.run([str(python), "-c", "import platform; print(platform.python_version())"],
                          capture_output=True, text=True, timeout=30, check=True).stdout.strip()


def run(argv: list[str], lang: str, cwd: Path, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(argv, cwd=cwd, env={**os.environ, "GZ_LANG": lang, **env},
                          capture_output=True, text=True, timeout=60, check=False)


def no_bytecode_beside_the_sources(version: str) -> dict[str, str]:
    """Python 2 writes its .pyc files beside the sources it imports: not in the checkout."""
    return {"PYTHONDONTWRITEBYTECODE": "1"} if version.startswith("2.") else {}


@pytest.mark.parametrize("lang", ["en", "es"])
@pytest.mark.parametrize("version", OLD_VERSIONS)
@pytest.mark.parametrize("args", [["session", "list"], ["--version"], ["--json", "doctor"]])
def test_python_m_gzia_names_the_python_needed_and_the_one_found(
    version: str, args: list[str], lang: str, tmp_path: Path
) -> None:
    python = old_python(version)
    done = run([str(python), "-m", "gzia", *args], lang, tmp_path, PYTHONPATH=str(REPO),
               **no_bytecode_beside_the_sources(version))
    expected = TOO_OLD[lang].format(path=python, found=found_version(python))
    assert (done.returncode, done.stdout, done.stderr) == (1, "", expected)


@pytest.mark.pyz
@pytest.mark.parametrize("lang", ["en", "es"])
@pytest.mark.parametrize("version", OLD_VERSIONS)
def test_the_pyz_names_the_python_needed_and_the_one_found(
    version: str, lang: str, pyz: Path, tmp_path: Path
) -> None:
    python = old_python(version)
    done = run([str(python), str(pyz), "session", "list"], lang, tmp_path)
    expected = TOO_OLD[lang].format(path=python, found=found_version(python))
    assert (done.returncode, done.stdout, done.stderr) == (1, "", expected)


BEFORE_THE_CHECK = [REPO / "gzia" / name for name in
                    ("__init__.py", "_version.py", "__main__.py", "preflight.py")]
BEFORE_THE_CHECK.append(REPO / "build" / "pyz_entry.py")


def relative(path: Path) -> str:
    return str(path.relative_to(REPO))


@pytest.mark.parametrize("path", [*BEFORE_THE_CHECK, REPO / "gzia" / "extraction.py"], ids=relative)
def test_what_runs_before_the_dependencies_is_the_standard_library(path: Path) -> None:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    imported = {alias.name.split(".")[0] for node in ast.walk(tree)
                if isinstance(node, ast.Import) for alias in node.names}
    imported |= {node.module.split(".")[0] for node in ast.walk(tree)
                 if isinstance(node, ast.ImportFrom) and node.module}
    # the archive's own modules; gzia is imported once the Python is checked
    own = {"gzia_preflight", "gzia_extraction", "_bootstrap", "gzia"}
    assert imported - own <= sys.stdlib_module_names | {"__future__"}


def newer_syntax(tree: ast.AST) -> list[str]:
    """What in ``tree`` Python 2.7 or 3.5 cannot read (or, for ``print``, reads otherwise)."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.JoinedStr | ast.AnnAssign | ast.NamedExpr | ast.Nonlocal
                      | ast.YieldFrom | ast.AsyncFunctionDef | ast.Await | ast.MatMult
                      | ast.Match | ast.TryStar):
            found.append(type(node).__name__)
        elif isinstance(node, ast.arguments) and (
                node.posonlyargs or node.kwonlyargs
                or any(a.annotation for a in [*node.args, node.vararg, node.kwarg] if a)):
            found.append("annotation or keyword-only/positional-only parameter")
        elif isinstance(node, ast.FunctionDef) and node.returns:
            found.append("return annotation")
        elif isinstance(node, ast.ImportFrom) and node.module == "__future__":
            found.append("from __future__")  # annotations is 3.7+; 2.7's are no use here
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
              and node.func.id == "print"):
            found.append("print")
    return found


@pytest.mark.parametrize("path", BEFORE_THE_CHECK, ids=relative)
def test_what_runs_before_the_check_is_read_by_python_2_7_and_3_5(path: Path) -> None:
    """Holds where no older interpreter is installed to run the tests above and below
    (and for 3.5, which this machine may not have)."""
    source = path.read_bytes()
    assert source.isascii()  # Python 2 refuses any other byte without a coding line
    assert newer_syntax(ast.parse(source)) == []


@pytest.mark.parametrize("version", OLD_VERSIONS)
def test_an_old_python_compiles_what_runs_before_the_check(version: str) -> None:
    """build/pyz_entry.py included, which only the pyz tests run."""
    python = old_python(version)
    done = subprocess.run(
        [str(python), "-c", "import sys\nfor p in sys.argv[1:]: compile(open(p).read(), p, 'exec')",
         *map(str, BEFORE_THE_CHECK)], capture_output=True, text=True, timeout=60, check=False)
    assert (done.returncode, done.stderr) == (0, "")


def test_the_syntax_check_finds_what_an_old_python_cannot_read() -> None:
    """The check above is no check if it finds nothing: each construct it knows."""
    source = (
        "from __future__ import annotations\n"
        "def f(a: int, /, *, b=1) -> None:\n"
        "    x: int = 1\n"
        "    print(f'{x}', file=None)\n"
        "    if (y := x):\n"
        "        pass\n"
    )
    assert sorted(newer_syntax(ast.parse(source))) == sorted([
        "from __future__", "annotation or keyword-only/positional-only parameter",
        "return annotation", "AnnAssign", "print", "JoinedStr", "NamedExpr"])
