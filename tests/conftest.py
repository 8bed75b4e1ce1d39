"""Fixtures shared by the whole suite.

Every test runs isolated: temporary HOME and XDG directories, no GZ_* or locale variables
from the caller and none of the PYTHON* ones a test machine sets (every child process runs
as it does for users: buffered stdout, bytecode written), NO_COLOR, COLUMNS=80, a git
identity of its own. ``cli`` runs gz-ia in-process; ``pyz`` is the built dist/gz-ia.pyz
(built once per run, or taken from GZ_TEST_PYZ) and ``run_pyz`` runs it as a real process.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import signal
import subprocess
import sys
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

REPO = Path(__file__).resolve().parent.parent
PREBUILT_PYZ = os.environ.get("GZ_TEST_PYZ")  # read before the isolation clears GZ_*
# The caller's settings of gz-ia, git and the locale, and what test machines and CI set that
# users do not (PYTHONUNBUFFERED and PYTHONDONTWRITEBYTECODE above all: a buffered stdout
# fails differently): gz-ia and everything the tests start run as they do for users.
CLEARED_PREFIXES = ("GZ_", "SHIV_", "LC_", "GIT_", "PYTHON")
CLEARED_NAMES = ("LANG", "LANGUAGE", "HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "NO_PROXY",
                 "http_proxy", "https_proxy", "all_proxy", "no_proxy", "SSL_CERT_FILE",
                 "SSL_CERT_DIR", "REQUESTS_CA_BUNDLE", "CURL_CA_BUNDLE", "IS_SANDBOX", "CI",
                 "RUST_BACKTRACE", "DEBIAN_FRONTEND")


def users_environment(environ: Mapping[str, str]) -> dict[str, str]:
    """``environ`` without what :data:`CLEARED_PREFIXES` and :data:`CLEARED_NAMES` name,
    except the suite's own settings (GZ_TEST_*), which only the test code reads."""
    return {name: value for name, value in environ.items()
            if name.startswith("GZ_TEST_")
            or not (name.startswith(CLEARED_PREFIXES) or name in CLEARED_NAMES)}


def pytest_configure(config: pytest.Config) -> None:
    """The user's environment for the whole process, before any test or fixture starts a
    child: the xdist workers, the session fixtures (the pyz's build and first run, the
    release builds) and what they start see what users have, as each test does
    (:func:`isolated_env` clears GZ_TEST_* too).

    SIGINT and SIGQUIT as a terminal would deliver them. A suite started in the
    background by a script (``cmd &``) inherits them ignored, every process it starts would
    too, and gz-ia rightly keeps an ignored SIGINT ignored: the tests that send it would
    fail for that reason alone."""
    kept = users_environment(os.environ)
    for name in set(os.environ) - set(kept):
        del os.environ[name]
    for signum in (signal.SIGINT, signal.SIGQUIT):
        if signal.getsignal(signum) == signal.SIG_IGN:
            handler = signal.default_int_handler if signum == signal.SIGINT else signal.SIG_DFL
            signal.signal(signum, handler)


@dataclass
class Result:
    exit_code: int
    stdout: str
    stderr: str

    @property
    def json(self) -> Any:
        """The one JSON document on stdout (fails if there is not exactly one)."""
        lines = [line for line in self.stdout.splitlines() if line.strip()]
        assert len(lines) == 1, f"expected one JSON document, got: {self.stdout!r}"
        return json.loads(lines[0])


@pytest.fixture(scope="session")
def shiv_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("shiv-root")


@pytest.fixture(autouse=True)
def isolated_env(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, shiv_root: Path
) -> Iterator[Path]:
    for name in list(os.environ):
        if name.startswith(CLEARED_PREFIXES) or name in CLEARED_NAMES:
            monkeypatch.delenv(name)
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    for kind in ("CONFIG", "DATA", "CACHE", "STATE"):
        path = home / f".xdg-{kind.lower()}"
        monkeypatch.setenv(f"XDG_{kind}_HOME", str(path))
    monkeypatch.setenv("NO_COLOR", "1")
    monkeypatch.setenv("COLUMNS", "80")
    monkeypatch.setenv("TERM", "dumb")
    monkeypatch.setenv("SHIV_ROOT", str(shiv_root))
    (home / ".gitconfig").write_text(
        "[user]\n\tname = Test User\n\temail = test@example.invalid\n"
        "[init]\n\tdefaultBranch = main\n"
    )
    from gzia.i18n import set_language

    set_language(None)
    yield home
    set_language(None)


@pytest.fixture
def cli(monkeypatch: pytest.MonkeyPatch) -> Callable[..., Result]:
    """Run gz-ia in this process: ``cli("session", "list", "--json", env={...})``."""

    def run(*args: str, env: Mapping[str, str] | None = None, cwd: Path | None = None,
            stdin: str = "") -> Result:
        from gzia.cli import main
        from gzia.i18n import set_language

        with monkeypatch.context() as patch:
            for key, value in (env or {}).items():
                patch.setenv(key, value)
            if cwd is not None:
                patch.chdir(cwd)
            patch.setattr(sys, "stdin", io.StringIO(stdin))
            set_language(None)
            out, err = io.StringIO(), io.StringIO()
            with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
                code = main(list(args))
            set_language(None)
        return Result(code, out.getvalue(), err.getvalue())

    return run


@pytest.fixture(scope="session")
def pyz(tmp_path_factory: pytest.TempPathFactory, shiv_root: Path) -> Path:
    """The built zipapp: GZ_TEST_PYZ if the test command built it already, else built now.
    Its first run (the extraction, ~100 MB, slow on a busy machine) happens here, once, so
    no test's own deadline pays for it."""
    if PREBUILT_PYZ:
        target = Path(PREBUILT_PYZ).resolve()
    else:
        target = tmp_path_factory.mktemp("pyz") / "gz-ia.pyz"
        env = {**os.environ, "GZ_BUILD_OUTPUT": str(target), "PYTHON": sys.executable}
        subprocess.run(["bash", str(REPO / "build" / "shiv.sh")], check=True, env=env,
                       capture_output=True, timeout=600)
    subprocess.run([sys.executable, str(target), "--version"], check=True, capture_output=True,
                   env={**os.environ, "SHIV_ROOT": str(shiv_root)}, timeout=600)
    return target


@pytest.fixture
def run_pyz(pyz: Path) -> Callable[..., Result]:
    """Run the zipapp as a real process with the test's environment."""

    def run(*args: str, env: Mapping[str, str] | None = None, cwd: Path | None = None,
            timeout: float = 60) -> Result:
        full_env = {**os.environ, **(env or {})}
        done = subprocess.run([sys.executable, str(pyz), *args], env=full_env, cwd=cwd,
                              capture_output=True, text=True, timeout=timeout, check=False)
        return Result(done.returncode, done.stdout, done.stderr)

    return run
