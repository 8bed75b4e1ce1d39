"""Values a shell completes after a flag or argument: providers, permission modes,
statuses, profiles, branches, setting names (session ids: :mod:`gzia.cli.session.common`;
shells: :mod:`gzia.cli.completion`; ``gz-ia help``'s commands: :mod:`gzia.cli.help`).

Each completer is handed to click as ``shell_complete=`` and imports what it reads only
when called, so a TAB costs only what that value needs.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

import click

if TYPE_CHECKING:
    from click.shell_completion import CompletionItem


def matching(values: Iterable[str | tuple[str, str]], incomplete: str) -> list[CompletionItem]:
    """The values that start with ``incomplete`` (a pair: value and its description)."""
    from click.shell_completion import CompletionItem

    items = []
    for value in values:
        name, described = value if isinstance(value, tuple) else (value, "")
        if name.startswith(incomplete):
            items.append(CompletionItem(name, help=described or None))
    return items


def providers(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[CompletionItem]:
    from gzia.plugins import discover

    return matching(sorted(discover("gzia.drivers").available), incomplete)


def permissions(ctx: click.Context, param: click.Parameter,
                incomplete: str) -> list[CompletionItem]:
    from gzia.contract import Permission

    return matching([mode.value for mode in Permission], incomplete)


def statuses(ctx: click.Context, param: click.Parameter,
             incomplete: str) -> list[CompletionItem]:
    from gzia.sessions.record import Status

    return matching([status.value for status in Status], incomplete)


def list_statuses(ctx: click.Context, param: click.Parameter,
                  incomplete: str) -> list[CompletionItem]:
    """``session list --status``: the record statuses, and ``merged``."""
    from gzia.sessions.list_filter import STATUS_WORDS

    return matching(list(STATUS_WORDS), incomplete)


def profiles(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[CompletionItem]:
    from gzia.contract import GzError
    from gzia.profiles.catalog import load_catalog, locations
    from gzia.sessions.project import find_project

    try:
        project = find_project(ctx.params.get("directory"))
        catalog = load_catalog(locations(project.root, project.base))
    except GzError:
        return []
    return matching([(p.name, p.description) for p in catalog.profiles.values()], incomplete)


def branches(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[CompletionItem]:
    from gzia.contract import GzError
    from gzia.sessions.choices import branch_choices
    from gzia.sessions.project import find_project

    try:
        return matching(branch_choices(find_project(ctx.params.get("directory"))), incomplete)
    except GzError:
        return []


def setting_keys(ctx: click.Context, param: click.Parameter,
                 incomplete: str) -> list[CompletionItem]:
    from gzia.i18n import gettext
    from gzia.settings import SETTINGS

    return matching([(setting.key, gettext(setting.help)) for setting in SETTINGS
                     if setting.key.startswith(incomplete)], incomplete)
