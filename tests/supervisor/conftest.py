from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.supervisor.fakes import kill_leftovers


@pytest.fixture
def notes(tmp_path: Path) -> Iterator[Path]:
    """Directory where fake agents note their pids; every noted process is gone afterwards."""
    directory = tmp_path / "notes"
    directory.mkdir()
    yield directory
    survivors = kill_leftovers(directory)
    assert not survivors, f"processes outlived the test: {survivors}"
