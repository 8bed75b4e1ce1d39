"""The shipped artifact: a real shiv-built gz-ia.pyz is installed, runs, and rolls back."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from gzia.update.apply import build_id
from tests.fakes.nexus import NexusFake
from tests.update.conftest import nexus_env, previous_of, pyz_reports

pytestmark = pytest.mark.pyz


def test_install_real_pyz_then_rollback_from_it(pyz: Path, nexus: NexusFake, releases,
                                                update_cli, target: Path, shiv_root: Path,
                                                keys_env: dict[str, str]):
    from gzia._version import __version__ as built

    nexus.publish(releases(built, payload=pyz.read_bytes()), built)
    result = update_cli("update", "--json", env=nexus_env(nexus), installed="0.0.1")
    assert result.exit_code == 0, result.stdout
    assert pyz_reports(target).startswith(f"gz-ia v{built} (commit: ")
    # the self-test ran the staged file under the installed name: its cache is warm
    assert (shiv_root / f"gz-ia_{build_id(target)}").is_dir()

    env = {**os.environ, **keys_env, **nexus_env(nexus)}
    check = subprocess.run([sys.executable, str(target), "update", "--check", "--json"],
                           env=env, capture_output=True, text=True, timeout=60, check=False)
    assert json.loads(check.stdout)["data"] == {"current": built, "latest": built,
                                                "source": "nexus", "newer": False}
    back = subprocess.run([sys.executable, str(target), "update", "rollback", "--json"],
                          env=env, capture_output=True, text=True, timeout=60, check=False)
    assert json.loads(back.stdout)["data"] == {"path": str(target), "version": "1.0.0",
                                               "previous": str(previous_of(target)),
                                               "replaced": built}
    assert pyz_reports(target) == "gz-ia 1.0.0"


def test_dry_run_leaves_no_shiv_extraction_behind(pyz: Path, nexus: NexusFake, releases,
                                                  update_cli, target: Path, shiv_root: Path):
    from gzia._version import __version__ as built

    nexus.publish(releases(built, payload=pyz.read_bytes()), built)
    before = sorted(p.name for p in shiv_root.iterdir())
    result = update_cli("update", "--dry-run", "--json", env=nexus_env(nexus),
                        installed="0.0.1")
    assert result.exit_code == 0, result.stdout
    assert result.json["data"]["verified"] is True
    assert sorted(p.name for p in shiv_root.iterdir()) == before
    assert pyz_reports(target) == "gz-ia 1.0.0"
