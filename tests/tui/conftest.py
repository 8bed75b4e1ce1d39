"""Fixtures for the terminal UI's tests: Textual's pilot runs on asyncio (anyio's plugin)."""

from __future__ import annotations

import pytest


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"
