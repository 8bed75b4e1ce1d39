"""Help pages fit the terminal: as wide as it is, summaries whole (never cut, never split
inside a word), aliases said to be aliases, neighbours told apart."""

from __future__ import annotations

import re
from collections.abc import Callable

import click
import pytest

from gzia.cli.command import GzCommand, GzGroup
from gzia.cli.root import PROGRAM
from gzia.cli.runner import build_root
from gzia.i18n import gettext, set_language
from tests.conftest import Result
from tests.update.conftest import read_terminal

Cli = Callable[..., Result]
ES = {"GZ_LANG": "es"}


def listed(page: str) -> dict[str, str]:
    """The Commands section of a page: name → its text, wrapped lines joined."""
    rows: dict[str, str] = {}
    section = page.split("\n\nCom", 1)[1].split("\n", 1)[1]  # Commands / Comandos
    name = ""
    for row in section.splitlines():
        if row.startswith("   "):
            rows[name] += " " + row.strip()
        elif row.strip():
            name, _, text = row.strip().partition(" ")
            rows[name] = text.strip()
    return rows


def shown(command: click.Command, ctx: click.Context) -> str:
    """A command's help in the current language, a group's subcommands (and the agents)
    named in it."""
    text = gettext(command.help or "")
    return (command.filled(text, ctx) if isinstance(command, GzCommand) else text) or ""


def first_sentences(path: list[str], lang: str) -> dict[str, str]:
    root = build_root()
    ctx = click.Context(root, info_name=PROGRAM)
    group: click.Command = root
    for name in path:
        assert isinstance(group, click.Group)
        group = group.get_command(ctx, name) or group
        ctx = click.Context(group, parent=ctx, info_name=name)
    assert isinstance(group, click.Group)
    set_language(lang)
    try:
        subs = {n: group.get_command(ctx, n) for n in group.list_commands(ctx)}
        return {n: " ".join(shown(c, ctx).split("\n\n")[0].split())
                for n, c in subs.items() if c is not None and not c.hidden}
    finally:
        set_language(None)


@pytest.mark.parametrize("columns", ["60", "80", "140"])
@pytest.mark.parametrize(("env", "lang"), [({}, "en"), (ES, "es")])
@pytest.mark.parametrize("path", [[], ["session"], ["config"], ["profile"]])
def test_summaries_are_whole_first_sentences_at_any_width(
    cli: Cli, columns: str, env: dict[str, str], lang: str, path: list[str]
) -> None:
    page = cli(*path, "--help", env={**env, "COLUMNS": columns}).stdout
    expected = {name: re.split(r"(?<=\.) ", text)[0]  # up to the first word ending in "."
                for name, text in first_sentences(path, lang).items()}
    assert listed(page) == expected
    assert max(len(line) for line in page.splitlines()) <= int(columns)


def names_the_session_subcommands(summary: str, intro: str) -> bool:
    """Whether ``summary`` is ``intro (a, b, ...).`` naming each subcommand the session
    group lists once (its hidden aliases not), in any order: built from the group itself,
    so a new subcommand needs no change here."""
    listing = summary.removeprefix(intro + " (").removesuffix(").")
    names = listing.split(", ")
    return listing != summary and len(names) == len(set(names)) and \
        set(names) == set(first_sentences(["session"], "en"))


def test_pages_use_the_terminals_width(cli: Cli) -> None:
    wide = cli("--help", env={"COLUMNS": "300"}).stdout
    summary = listed(wide)["session"]
    assert names_the_session_subcommands(summary, "Manage local agent sessions")
    assert f"  session     {summary}\n" in wide  # one line: the page is as wide as the terminal
    narrow = cli("--help", env={"COLUMNS": "80"}).stdout
    assert ("  chat        Start a new interactive chat with an agent (agy, claude,\n"
            "              opencode, pi-agent) in an isolated worktree.\n") in narrow


@pytest.mark.parametrize(("env", "alias_line"), [
    ({}, "  Alias of profile.\n"), (ES, "  Alias de profile.\n"),
])
def test_toolkit_is_an_alias_not_a_second_command(cli: Cli, env: dict[str, str],
                                                  alias_line: str) -> None:
    assert "toolkit" not in listed(cli("--help", env=env).stdout)
    page = cli("toolkit", "--help", env=env).stdout
    assert alias_line in page
    assert listed(page) == listed(cli("profile", "--help", env=env).stdout)


@pytest.mark.parametrize(("env", "log", "logs"), [
    ({}, "Add one event to the session's event log (logs prints them).",
     "Print the session's event log (-f: follow while it runs); log adds to it."),
    (ES, "Añade un evento al registro de eventos de la sesión (logs los muestra).",
     "Muestra el registro de eventos de la sesión (-f: lo sigue mientras se ejecuta); "
     "log le añade eventos."),
])
def test_log_and_logs_are_told_apart(cli: Cli, env: dict[str, str], log: str,
                                     logs: str) -> None:
    rows = listed(cli("session", "--help", env={**env, "COLUMNS": "200"}).stdout)
    assert (rows["log"], rows["logs"]) == (log, logs)


def frobnicate() -> None:
    """A subcommand the session group did not have."""


@pytest.mark.parametrize(("env", "intro"), [
    ({}, "Manage local agent sessions"), (ES, "Gestiona sesiones agénticas locales"),
])
def test_a_new_session_subcommand_is_named_without_editing_a_text(
    cli: Cli, monkeypatch: pytest.MonkeyPatch, env: dict[str, str], intro: str
) -> None:
    from gzia.cli.session.commands import app as session

    new = GzCommand("frobnicate", callback=frobnicate, help="Frobnicate a session.")
    monkeypatch.setitem(session.commands, "frobnicate", new)
    for page in (cli("--help", env={**env, "COLUMNS": "300"}).stdout,
                 cli("session", "--help", env={**env, "COLUMNS": "300"}).stdout):
        assert f"{intro} (list, show, path, rename, delete, diff, merge, update, push, pr, " \
               "pause, revive, prune, log, logs, wait, stop, kill, resume, poll, output, " \
               "send-keys, paste, submit, attach, metrics, frobnicate)." in page
    assert "frobnicate  Frobnicate a session.\n" in cli("session", "--help").stdout


def groups() -> list[tuple[click.Context, GzGroup]]:
    """Every built-in group below the root, with its context."""
    root = build_root()
    ctx = click.Context(root, info_name=PROGRAM)
    found = []
    for name in root.list_commands(ctx):
        command = root.get_command(ctx, name)
        if isinstance(command, GzGroup):
            found.append((click.Context(command, parent=ctx, info_name=name), command))
    return found


def test_a_groups_lazy_aliases_are_declared_hidden_and_only_they() -> None:
    """What a group's summary names without importing a subcommand (``hidden_lazy``) is
    what the imported subcommands say of themselves."""
    for ctx, group in groups():
        names = group.visible_names(ctx)
        loaded = [n for n in group.list_commands(ctx)
                  if not (group.get_command(ctx, n) or group).hidden]
        assert names == loaded, group.name


def test_a_spanish_page_leaves_no_spanish_behind(cli: Cli) -> None:
    """A command object outlives one page (in-process callers): its help option's text
    follows the language of each page, not of the first."""
    spanish = cli("session", "show", "--help", env=ES).stdout.splitlines()
    english = cli("session", "show", "--help").stdout.splitlines()
    assert spanish[-1].split() == ["-h,", "--help", "Muestra", "esta", "ayuda", "y", "termina."]
    assert english[-1].split() == ["-h,", "--help", "Show", "this", "message", "and", "exit."]


def test_every_page_fits_and_breaks_between_words(cli: Cli) -> None:
    """Every command's page, at any width, in both languages: no line wider than the
    terminal, and no word cut at its hyphen (``gz-``/``ia``, ``pi-``/``agent``)."""
    from tests.cli.test_help import command_paths

    cut = re.compile(r"\w-$")
    paths = [path for path in command_paths() if "toolkit" not in path]
    assert ("exec",) in paths and ("session", "send-keys") in paths
    for env in ({}, ES):
        for columns in (60, 80, 120, 200):
            for path in paths:
                page = cli(*path, "--help", env={**env, "COLUMNS": str(columns)}).stdout
                lines = page.splitlines()
                assert [line for line in lines if len(line) > columns or cut.search(line)] \
                    == [], (path, columns)


def on_a_terminal(columns: int, *args: str, env: dict[str, str]) -> str:
    """What ``python -m gzia ARGS`` writes to a real terminal ``columns`` wide."""
    import fcntl
    import os
    import pty
    import struct
    import subprocess
    import sys
    import termios

    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 40, columns, 0, 0))
    child_env = {k: v for k, v in os.environ.items() if k != "COLUMNS"} | env
    with subprocess.Popen([sys.executable, "-m", "gzia", *args], stdin=slave, stdout=slave,
                          stderr=slave, env=child_env) as child:
        os.close(slave)
        page = read_terminal(master)
        assert child.wait(timeout=60) == 0
    return page.replace("\r\n", "\n")


@pytest.mark.parametrize("columns", [60, 80, 120, 200])
@pytest.mark.parametrize("path", [[], ["session"]])
def test_a_terminals_width_without_columns(cli: Cli, columns: int, path: list[str]) -> None:
    """On a real terminal (no COLUMNS), the page is as wide as the terminal says."""
    page = on_a_terminal(columns, *path, "--help", env=ES)
    assert page == cli(*path, "--help", env={**ES, "COLUMNS": str(columns)}).stdout
    assert columns - 20 < max(len(line) for line in page.splitlines()) <= columns
