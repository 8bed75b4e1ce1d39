"""Finding the machine's CPython 3.11+ interpreters behind version-manager shims."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from release.interpreters import find_cpythons

MINOR = f"{sys.version_info[0]}.{sys.version_info[1]}"


def script(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    path.chmod(0o755)


def test_a_failing_shim_falls_back_to_the_installed_version(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = tmp_path / "pyenv"
    script(
        root / "shims" / f"python{MINOR}", "#!/bin/sh\necho 'version not selected' >&2\nexit 127\n"
    )
    installed = root / "versions" / f"{MINOR}.0" / "bin" / f"python{MINOR}"
    installed.parent.mkdir(parents=True)
    installed.symlink_to(sys.executable)
    # a name that lies about its version is not taken for that version
    liar = root / "versions" / "other" / "bin" / "python3.99"
    liar.parent.mkdir(parents=True)
    liar.symlink_to(sys.executable)
    monkeypatch.setenv("PATH", f"{root / 'shims'}")
    monkeypatch.delenv("PYENV_ROOT", raising=False)

    assert find_cpythons() == {MINOR: installed}
