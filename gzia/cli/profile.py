"""``gz-ia profile`` (alias ``toolkit``): list, show, path, create, skills.

Every subcommand takes ``-d/--dir`` (the project; default: the current directory). The
search order and the file format are in docs/profiles.md.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

import click

from gzia.cli import completers, output
from gzia.cli.command import alias, argument, group
from gzia.contract import WarningCode
from gzia.i18n import N_, gettext

_MSG_COLUMN: dict[object, str] = {
    "agents_file": N_("AGENTS FILE"),
    "category": N_("CATEGORY"),
    "description": N_("DESCRIPTION"),
    "name": N_("NAME"),
    "scope": N_("SCOPE"),
    "skill": N_("SKILL"),
    "skills": N_("SKILLS"),
}


_MSG_SCOPE: dict[object, str] = {
    "global": N_("global"),
    "project": N_("project"),
}

if TYPE_CHECKING:
    from gzia.profiles.catalog import Catalog, Locations
    from gzia.profiles.model import Notice, Profile, Skill


@group("profile", no_args_is_help=True,
       help="Manage agent profiles and the skills catalogue ({commands}).")
def app() -> None:
    """A group, so ``profile`` alone shows its subcommands."""


directory_option = click.option("-d", "--dir", "directory",
                                help="Project directory (default: the current directory).")
global_option = click.option("--global", "global_scope", is_flag=True,
                             help="The user's config directory instead of the project.")


def where(directory: str | None) -> Locations:
    from gzia.profiles.catalog import locations
    from gzia.sessions.project import find_project

    project = find_project(directory)
    return locations(project.root, project.base)


def catalog_of(directory: str | None) -> Catalog:
    from gzia.profiles.catalog import load_catalog

    catalog = load_catalog(where(directory))
    report_notices(catalog.notices)
    return catalog


def report_notices(notices: list[Notice]) -> None:
    for notice in notices:
        if notice.code == WarningCode.PROFILE_SHADOWED:
            output.warn(WarningCode.PROFILE_SHADOWED, notice.key, details=dict(notice.params),
                        **notice.params)
        elif notice.code == WarningCode.SKILL_INVALID:
            output.warn(WarningCode.SKILL_INVALID, notice.key, details=dict(notice.params),
                        **notice.params)
        else:
            output.warn(WarningCode.PROFILE_INVALID, notice.key, details=dict(notice.params),
                        **notice.params)


@app.command("list", help="List the profiles, with their scope.")
@directory_option
def list_command(directory: str | None) -> None:
    catalog = catalog_of(directory)
    profiles = list(catalog.profiles.values())
    places = ", ".join(str(p) for p, _ in where(directory).profile_dirs)
    output.emit({"profiles": [p.to_json() for p in profiles]},
                lambda: render_list(profiles, places))


@app.command("show", help="Show one profile.")
@argument("name", metavar="NAME", help="Profile name.",
          shell_complete=completers.profiles)
@directory_option
def show_command(name: str, directory: str | None) -> None:
    profile = catalog_of(directory).profile(name)
    output.emit(profile.to_json(), lambda: render_show(profile))


@app.command("path", help="Print where profiles are created, or one profile's directory.")
@argument("name", required=False, metavar="[NAME]", help="Profile name.",
          shell_complete=completers.profiles)
@directory_option
@global_option
def path_command(name: str | None, directory: str | None, global_scope: bool) -> None:
    if name is None:
        path = str(where(directory).create_dir(global_scope=global_scope))
    else:
        path = str(catalog_of(directory).profile(name).path)
    output.emit({"name": name, "path": path}, lambda: output.line(path))


@app.command("create", help="Create a profile with an agents file to fill in.")
@argument("name", metavar="NAME", help="Profile name.",
          shell_complete=completers.profiles)
@click.option("--desc", "description", default="", show_default=False, help="Description.")
@directory_option
@global_option
def create_command(name: str, description: str, directory: str | None,
                   global_scope: bool) -> None:
    from gzia.profiles.catalog import create_profile

    profile = create_profile(where(directory), name, description, global_scope=global_scope)
    output.emit(profile.to_json(), lambda: render_created(profile))


@app.command("skills", help="List the skills catalogue.")
@directory_option
def skills_command(directory: str | None) -> None:
    catalog = catalog_of(directory)
    skills = list(catalog.skills.values())
    places = ", ".join(str(p) for p, _ in where(directory).skill_dirs)
    output.emit({"skills": [s.to_json() for s in skills]}, lambda: render_skills(skills, places))


def table(header: list[str], rows: list[list[str]]) -> None:
    widths = [max(len(cell) for cell in column) + 2 for column in zip(header, *rows, strict=True)]
    for row in [header, *rows]:
        cells = [cell.ljust(width) for cell, width in zip(row[:-1], widths, strict=False)]
        output.line(("".join(cells) + row[-1]).rstrip())


def scope_label(scope: str) -> str:
    return gettext(_MSG_SCOPE[scope])


def render_list(profiles: list[Profile], places: str) -> None:
    if not profiles:
        output.line(gettext("✧ No profiles found (looked in {places}).", places=places))
        return
    header = [gettext(_MSG_COLUMN[c]) for c in
              ("name", "description", "skills", "agents_file", "scope")]
    table(header, [[p.name, p.description or "-", str(len(p.skills)),
                    p.agents_file.name if p.agents_file else "-", scope_label(p.scope)]
                   for p in profiles])


def render_show(profile: Profile) -> None:
    output.line(gettext("✧ Profile: {name}", name=profile.name))
    output.line(gettext("  Description: {value}", value=profile.description or "-"))
    output.line(gettext("  Scope:       {value}", value=scope_label(profile.scope)))
    output.line(gettext("  Directory:   {value}", value=str(profile.path)))
    output.line(gettext("  Agents file: {value}", value=str(profile.agents_file or "-")))
    output.line(gettext("  Skills ({count}): {value}", count=len(profile.skills),
                        value=", ".join(profile.skills) or "-"))
    output.line(gettext("  Env:         {value}", value=", ".join(sorted(profile.env)) or "-"))
    output.line(gettext("  MCP servers:"))
    for text in json.dumps(profile.mcp_servers, indent=2, ensure_ascii=False).splitlines():
        output.line("    " + text)


def render_created(profile: Profile) -> None:
    output.line(gettext("✓ Profile '{name}' created.", name=profile.name))
    output.line(gettext("  Location: {dir}", dir=str(profile.path)))
    output.line(gettext("  File:     {file}", file=str(profile.agents_file)))


def render_skills(skills: list[Skill], places: str) -> None:
    if not skills:
        output.line(gettext("✧ No skills in the catalogue (looked in {places}).", places=places))
        return
    header = [gettext(_MSG_COLUMN[c]) for c in ("skill", "category", "scope", "description")]
    table(header, [[s.name, s.category, scope_label(s.scope), s.description] for s in skills])


toolkit = alias(app, "toolkit", help="Alias of profile.")
