"""How a gz-ia that is not a zipapp is upgraded: by the tool that installed it.

pipx installs each application into a virtual environment of its own and writes
``pipx_metadata.json`` in that environment's root, which is ``sys.prefix`` for the gz-ia it
runs: there the advice is ``pipx upgrade gz-ia``; anywhere else (pip into a venv or the
user's site, a checkout) it is pip's command (docs/install.md, "With pipx").
"""

from __future__ import annotations

import sys
from pathlib import Path

from gzia.i18n import N_

PIPX_METADATA = "pipx_metadata.json"


def installed_by_pipx(prefix: str | None = None) -> bool:
    """Whether the environment ``prefix`` (default: this one) is a venv pipx made."""
    return (Path(sys.prefix if prefix is None else prefix) / PIPX_METADATA).is_file()


def upgrade_hint() -> str:
    """The hint (a msgid) of an update refused to a gz-ia that is no zipapp."""
    if installed_by_pipx():
        return N_("it was installed with pipx: upgrade it with 'pipx upgrade gz-ia'; "
                  "'gz-ia update --check' still works")
    return N_("upgrade it with the tool that installed it, e.g. 'pip install --upgrade gz-ia'; "
              "'gz-ia update --check' still works")
