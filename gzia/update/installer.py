"""How this gz-ia is updated: the one place that says which command to advise.

* From its zipapp (``gz-ia.pyz``, :func:`gzia.selfexec.running_pyz`): ``gz-ia update``.
* From a venv pipx made: pipx writes ``pipx_metadata.json`` in that environment's root,
  which is ``sys.prefix`` for the gz-ia it runs: ``pipx upgrade gz-ia``.
* Anywhere else (pip into a venv or the user's site, a checkout): pip's command
  (docs/install.md, "With pipx").

Every message that tells the user to update (the minimum-version warning, a yanked
version, ``update --check``'s verdict, ``doctor``, a refused ``update``) takes its command
from :func:`update_command`. Cheap: ``sys``, ``pathlib``, and a ``zipfile`` check of
``sys.argv[0]`` when asked; callers on every command's path ask only when they warn.
"""

from __future__ import annotations

import sys
from pathlib import Path

from gzia.i18n import N_
from gzia.selfexec import running_pyz

PIPX_METADATA = "pipx_metadata.json"
PACKAGE = "gz-ia"
ZIPAPP_UPDATE = "gz-ia update"
PIPX_UPGRADE = f"pipx upgrade {PACKAGE}"
PIP_UPGRADE = f"pip install --upgrade {PACKAGE}"


def installed_by_pipx(prefix: str | None = None) -> bool:
    """Whether the environment ``prefix`` (default: this one) is a venv pipx made."""
    return (Path(sys.prefix if prefix is None else prefix) / PIPX_METADATA).is_file()


def update_command(version: str | None = None) -> str:
    """The command that updates this gz-ia: ``gz-ia update`` from the zipapp, else pipx's
    or pip's.

    ``version`` names the exact version to move to when that move may be a downgrade (off a
    yanked version): ``gz-ia update`` follows the channel there by itself, but pip and pipx
    only upgrade, so their command then pins that version."""
    if running_pyz() is not None:
        return ZIPAPP_UPDATE
    pipx = installed_by_pipx()
    if version is None:
        return PIPX_UPGRADE if pipx else PIP_UPGRADE
    if pipx:
        return f"pipx install --force {PACKAGE}=={version}"
    return f"pip install {PACKAGE}=={version}"


def upgrade_hint(command: str) -> str:
    """The hint (a msgid, ``{command}`` in it) of an update refused to a gz-ia that is no
    zipapp; ``command`` is :func:`update_command`'s answer, the hint's ``command``."""
    if command == PIPX_UPGRADE:
        return N_("it was installed with pipx: upgrade it with '{command}'; "
                  "'gz-ia update --check' still works")
    return N_("upgrade it with the tool that installed it, e.g. '{command}'; "
              "'gz-ia update --check' still works")
