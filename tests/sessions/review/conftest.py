"""The shared fakes (the test proxy among them) for the review tests."""

from __future__ import annotations

from tests.fakes.fixtures import *  # noqa: F403
