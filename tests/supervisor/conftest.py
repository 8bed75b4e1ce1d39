from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from fakes import kill_leftovers


@pytest.fixture
def notes(tmp_path: Path) -> Iterator[Path]:
    """Directory where fake agents note their pids; every noted process is gone afterwards."""
    directory = tmp_path / "notes"
    directory.mkdir()
    yield directory
    survivors = kill_leftovers(directory)
    assert not survivors, f"processes outlived the test: {survivors}"
