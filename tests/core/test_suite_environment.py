"""The suite runs gz-ia as users have it: what a test machine or CI sets and users do not
(PYTHONUNBUFFERED above all: a buffered stdout fails differently) reaches no child, whether
a test starts it or a session fixture does (the pyz's build and first run)."""

from __future__ import annotations

import subprocess

import pytest

from tests.conftest import CLEARED_NAMES, CLEARED_PREFIXES


def child_environment() -> list[str]:
    """The names a child process is given (``env``: a Python child would add LC_CTYPE)."""
    done = subprocess.run(["env", "-0"], capture_output=True, timeout=60, check=True)
    return [entry.split(b"=", 1)[0].decode() for entry in done.stdout.split(b"\0") if entry]


def machine_only(names: list[str]) -> list[str]:
    return [name for name in names if name.startswith(CLEARED_PREFIXES)
            or name in CLEARED_NAMES]


@pytest.fixture(scope="session")
def session_child_environment() -> list[str]:
    return child_environment()


def test_a_session_fixtures_child_has_the_users_environment(
    session_child_environment: list[str],
) -> None:
    assert [name for name in machine_only(session_child_environment)
            if not name.startswith("GZ_TEST_")] == []


def test_a_tests_child_has_the_users_environment() -> None:
    assert machine_only(child_environment()) == ["SHIV_ROOT"]  # the suite's own
