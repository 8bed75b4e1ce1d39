"""``--help`` in both languages: every built-in text has its Spanish, whole pages compared."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import click
import pytest

from gzia.cli.help_text import FRAME, PLACEHOLDERS
from gzia.cli.root import PROGRAM
from gzia.cli.runner import build_root
from gzia.i18n import translations
from tests.cli.test_help_layout import listed, names_the_session_subcommands
from tests.conftest import Result

Cli = Callable[..., Result]
SPANISH = {"GZ_LANG": "es"}


def declared_texts() -> Iterator[str]:
    """Every help text of every built-in command, subcommand, option and argument."""
    root = build_root()

    def walk(command: click.Command, ctx: click.Context) -> Iterator[str]:
        yield from filter(None, (command.help, command.short_help))
        yield from filter(None, (getattr(p, "help", None) for p in command.params))
        if isinstance(command, click.Group):
            for name in command.list_commands(ctx):
                sub = command.get_command(ctx, name)
                assert sub is not None, name
                yield from walk(sub, click.Context(sub, parent=ctx, info_name=name))

    yield from walk(root, click.Context(root, info_name=PROGRAM))


def test_every_help_text_has_its_spanish() -> None:
    declared = set(declared_texts())
    assert "Session id (or unique prefix)." in declared  # arguments keep their help
    spanish = translations("es")
    assert {text for text in declared if spanish.gettext(text) == text} == set()
    assert set(FRAME).isdisjoint(declared)


def test_a_command_page_in_english_and_spanish(cli: Cli) -> None:
    assert cli("session", "show", "--help") == Result(0, (
        "Usage: gz-ia session show [OPTIONS] ID\n"
        "\n"
        "  Show one session's record.\n"
        "\n"
        "Arguments:\n"
        "  ID  Session id (or unique prefix).  [required]\n"
        "\n"
        "Options:\n"
        "  -d, --dir TEXT  Project directory (default: the current directory).\n"
        "  --json          Write one JSON document to stdout.\n"
        "  -q, --quiet     Print only errors.\n"
        "  --debug         Show tracebacks of internal errors.\n"
        "  -h, --help      Show this message and exit.\n"
    ), "")
    assert cli("session", "show", "--help", env=SPANISH) == Result(0, (
        "Uso: gz-ia session show [OPCIONES] ID\n"
        "\n"
        "  Muestra el registro de una sesión.\n"
        "\n"
        "Argumentos:\n"
        "  ID  Id de la sesión (o un prefijo único).  [obligatorio]\n"
        "\n"
        "Opciones:\n"
        "  -d, --dir TEXTO  Directorio del proyecto (por defecto: el directorio\n"
        "                   actual).\n"
        "  --json           Escribe un único documento JSON en stdout.\n"
        "  -q, --quiet      Muestra solo los errores.\n"
        "  --debug          Muestra la traza de los errores internos.\n"
        "  -h, --help       Muestra esta ayuda y termina.\n"
    ), "")


def test_a_group_page_lists_its_commands_in_spanish(cli: Cli) -> None:
    assert cli("config", "--help", env=SPANISH).stdout == (
        "Uso: gz-ia config [OPCIONES] COMANDO [ARGUMENTOS]...\n"
        "\n"
        "  Muestra y cambia la configuración de gz-ia.\n"
        "\n"
        "Opciones:\n"
        "  --json       Escribe un único documento JSON en stdout.\n"
        "  -q, --quiet  Muestra solo los errores.\n"
        "  --debug      Muestra la traza de los errores internos.\n"
        "  -h, --help   Muestra esta ayuda y termina.\n"
        "\n"
        "Comandos:\n"
        "  list   Lista cada ajuste con su valor y su origen.\n"
        "  get    Muestra el valor de un ajuste.\n"
        "  set    Guarda un ajuste en el archivo de configuración.\n"
        "  unset  Quita un ajuste del archivo de configuración.\n"
        "  path   Muestra la ruta del archivo de configuración (--json: también los\n"
        "         directorios de gz-ia).\n"
    )


def test_arguments_and_their_extras_in_spanish(cli: Cli) -> None:
    assert cli("config", "set", "--help", env=SPANISH).stdout == (
        "Uso: gz-ia config set [OPCIONES] CLAVE VALOR\n"
        "\n"
        "  Guarda un ajuste en el archivo de configuración.\n"
        "\n"
        "Argumentos:\n"
        "  CLAVE  Nombre del ajuste (ver gz-ia config list).  [obligatorio]\n"
        "  VALOR  El valor que se guarda.  [obligatorio]\n"
        "\n"
        "Opciones:\n"
        "  --json       Escribe un único documento JSON en stdout.\n"
        "  -q, --quiet  Muestra solo los errores.\n"
        "  --debug      Muestra la traza de los errores internos.\n"
        "  -h, --help   Muestra esta ayuda y termina.\n"
    )


@click.command()
@click.option("--agent", required=True, default="x", show_default=True, help="Which agent.")
@click.option("--level", default=3, show_default=True, help="A plugin's own text.")
@click.option("--token", envvar="GZ_X", show_envvar=True, help="A plugin's text [in brackets]")
def plugin_command(agent: str, level: int, token: str) -> None:
    """A plugin's command."""


@pytest.mark.parametrize(("lang", "page"), [
    ("en", "Usage: plugin [OPTIONS]\n\n  A plugin's command.\n\nOptions:\n"
           "  --agent TEXT     Which agent.  [default: x; required]\n"
           "  --level INTEGER  A plugin's own text.  [default: 3]\n"
           "  --token TEXT     A plugin's text [in brackets]  [env var: GZ_X]\n"
           "  --help           Show this message and exit.\n"),
    ("es", "Uso: plugin [OPCIONES]\n\n  A plugin's command.\n\nOpciones:\n"
           "  --agent TEXTO   Which agent.  [por defecto: x; obligatorio]\n"
           "  --level ENTERO  A plugin's own text.  [por defecto: 3]\n"
           "  --token TEXTO   A plugin's text [in brackets]  [variable de entorno: GZ_X]\n"
           "  --help          Muestra esta ayuda y termina.\n"),
])
def test_click_draws_a_plugin_page_in_the_language(lang: str, page: str) -> None:
    """click's own words come from the catalogue; a plugin's texts stay as written."""
    from gzia.cli.help_text import help_text
    from gzia.i18n import set_language

    set_language(lang)
    try:
        shown = help_text(click.Context(plugin_command, info_name="plugin", terminal_width=100))
    finally:
        set_language(None)
    assert shown + "\n" == page


def test_defaults_and_the_root_page_in_spanish(cli: Cli) -> None:
    page = cli("exec", "--help", env=SPANISH).stdout
    assert ("  --provider TEXTO             Driver que ejecuta el comando.  [por defecto:\n"
            "                               shell]\n") in page
    assert "  [COMANDO]...  El comando y sus argumentos.\n" in page
    root = cli(env=SPANISH).stdout
    assert root.startswith(
        "Uso: gz-ia [OPCIONES] COMANDO [ARGUMENTOS]...\n\n  Ejecuta agentes de IA")
    assert names_the_session_subcommands(listed(root)["session"],
                                         "Gestiona sesiones agénticas locales")
    assert "  completion  Muestra el script de autocompletado para la shell (bash, zsh o\n" in root


def command_paths() -> Iterator[tuple[str, ...]]:
    root = build_root()

    def walk(command: click.Command, ctx: click.Context,
             path: tuple[str, ...]) -> Iterator[tuple[str, ...]]:
        yield path
        if isinstance(command, click.Group):
            for name in command.list_commands(ctx):
                sub = command.get_command(ctx, name)
                assert sub is not None, name
                yield from walk(sub, click.Context(sub, parent=ctx, info_name=name),
                                (*path, name))

    yield from walk(root, click.Context(root, info_name=PROGRAM), ())


def test_no_spanish_page_keeps_an_english_placeholder(cli: Cli) -> None:
    """Usage lines and option/argument columns: [OPCIONES] COMANDO, TEXTO, CLAVE..."""
    import re

    words = {word.strip("[].") for text in PLACEHOLDERS for word in text.split()}
    english = re.compile(r"\b(?:" + "|".join(words) + r")\b")
    paths = list(command_paths())
    assert ("config", "set") in paths and ("session", "log") in paths
    for path in paths:
        page = cli(*path, "--help", env=SPANISH).stdout
        columns = [line.split("  ")[1] for line in page.splitlines()
                   if line.startswith("  ") and not line.startswith("   ")
                   and len(line.split("  ")) > 2]
        usage = page.splitlines()[0]
        assert usage.startswith("Uso: gz-ia")
        assert english.findall(" ".join([usage, *columns])) == [], path
    assert cli("config", "set", "--help").stdout.startswith(
        "Usage: gz-ia config set [OPTIONS] KEY VALUE\n")  # English keeps click's words


@pytest.mark.parametrize("args", [["session", "list", "--help", "--json"], ["--json", "-h"]])
def test_help_in_json_mode_is_in_the_language_too(cli: Cli, args: list[str]) -> None:
    help_page = cli(*args, env=SPANISH).json["data"]["help"]
    assert help_page.startswith("Uso: gz-ia")
    assert "Escribe un único documento JSON en stdout." in help_page


def test_a_plugin_built_as_a_click_command_keeps_its_argument_help(tmp_path: Path) -> None:
    """The pinned typer and click agree: an argument's help survives click building the
    command, and it is listed once (click 8.5 with typer 0.24 dropped every one)."""
    plugins = tmp_path / "plugins"
    (plugins / "greeter-1.0.dist-info").mkdir(parents=True)
    (plugins / "greeter-1.0.dist-info" / "entry_points.txt").write_text(
        "[gzia.commands]\ngreet = greeter:command\n")
    (plugins / "greeter.py").write_text(
        "import typer\n"
        "app = typer.Typer()\n"
        "@app.command()\n"
        "def greet(name: str = typer.Argument(help='Who to greet.')) -> None:\n"
        "    print(name)\n"
        "command = typer.main.get_command(app)\n")
    done = subprocess.run([sys.executable, "-m", "gzia", "greet", "--help"],
                          env={**os.environ, "GZ_PLUGIN_PATH": str(plugins)},
                          capture_output=True, text=True, timeout=60, check=False)
    assert (done.returncode, done.stderr) == (0, "")
    assert "  NAME  Who to greet.  [required]\n" in done.stdout
    assert done.stdout.count("NAME  Who to greet.") == 1
