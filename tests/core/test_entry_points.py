"""The entry points gz-ia reads by hand (gzia/plugins.py, for start-up time) are the ones
``importlib.metadata`` finds: same groups, names, values and distributions."""

from __future__ import annotations

import importlib.metadata
import re
import sys
from pathlib import Path

import pytest

from gzia.plugins import GROUPS, iter_entry_points


def normalized(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


@pytest.mark.parametrize("group", GROUPS)
def test_hand_read_entry_points_are_importlib_metadatas(group: str, tmp_path: Path) -> None:
    extra = tmp_path / "plugins"
    info = extra / "Gzia_Extra.Plugin-2.0.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: Gzia_Extra.Plugin\n"
                                   "Version: 2.0\n")
    (info / "entry_points.txt").write_text(
        f"# a comment\n[other]\nx = y:z\n\n[{group}]\nextra = extra_module:thing [feature]\n"
        f" spaced  =  spaced.module : attr \n")
    path = [*sys.path, str(extra)]
    by_hand = {(ep.name, ep.value, ep.distribution) for ep in iter_entry_points(group, path)}
    found = importlib.metadata.entry_points(group=group)
    standard = {(ep.name, ep.value, normalized(ep.dist.name if ep.dist else ""))
                for ep in found}
    standard |= {(ep.name, ep.value, normalized(ep.dist.name if ep.dist else ""))
                 for dist in importlib.metadata.distributions(path=[str(extra)])
                 for ep in dist.entry_points if ep.group == group}
    assert by_hand == standard
    assert ("extra", "extra_module:thing [feature]", "gzia-extra-plugin") in by_hand
