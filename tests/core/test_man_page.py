"""build/man_page.py: gz-ia.1 from the command tree, whether a command is click or typer."""

from __future__ import annotations

import importlib.util
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path
from types import ModuleType

import click
import pytest
import typer

REPO = Path(__file__).resolve().parents[2]


def man_page_module() -> ModuleType:
    spec = importlib.util.spec_from_file_location("man_page", REPO / "build" / "man_page.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_click_and_typer_commands_alike_with_their_options() -> None:
    typed = typer.Typer(help="Typed things.")

    @typed.command("show")
    def show(count: int = typer.Option(1, "--count", help="How many.")) -> None:
        """Show them."""

    @typed.command("hide")
    def hide() -> None:
        """Hide them."""

    @click.group(help="The root.\n\nA second paragraph.")
    @click.option("--json", is_flag=True, help="One JSON document.")
    def root() -> None: ...

    @root.command("plain", help="A plain click command.")
    @click.option("-n", "--name", help="Whose.")
    @click.option("--json", is_flag=True, help="One JSON document.")
    def plain(name: str, json: bool) -> None: ...

    @root.command("secret", hidden=True)
    def secret() -> None: ...

    root.add_command(typer.main.get_command(typed), "typed")
    page = man_page_module().man_page(root, "9.9.9", {"json"})
    assert page.startswith('.TH GZ-IA 1 "" "root 9.9.9" "User Commands"\n.SH NAME\n'
                           "root \\- The root.\n")
    for expected in ('.SS "root plain"', "A plain click command.", "\\fB\\-n, \\-\\-name TEXT\\fR",
                     '.SS "root typed"', "Typed things.", '.SS "root typed show"',
                     "Show them.", "\\fB\\-\\-count INTEGER\\fR", "A second paragraph."):
        assert expected in page, expected
    assert "secret" not in page
    assert page.count("One JSON document.") == 1  # a global option, under GLOBAL OPTIONS


def test_the_page_of_gz_ia_names_every_visible_built_in_command() -> None:
    done = subprocess.run([sys.executable, str(REPO / "build" / "man_page.py")],
                          capture_output=True, text=True, timeout=120, check=True)
    from gzia.cli.runner import build_root

    root = build_root()
    ctx = click.Context(root, info_name="gz-ia")
    names = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]["entry-points"][
        "gzia.commands"]
    visible = [n for n in names if not root.get_command(ctx, n).hidden]  # type: ignore[union-attr]
    assert visible
    for name in visible:
        assert f'.SS "gz\\-ia {name.replace("-", chr(92) + "-")}"' in done.stdout, name
    assert '.SS "gz\\-ia session list"' in done.stdout
    if shutil.which("groff"):
        checked = subprocess.run(["groff", "-man", "-Tutf8", "-ww", "-z"], input=done.stdout,
                                 capture_output=True, text=True, timeout=60, check=False)
        assert (checked.returncode, checked.stderr) == (0, "")


@pytest.mark.pyz
def test_the_build_puts_the_page_beside_the_zipapp(pyz: Path) -> None:
    page = (pyz.parent / "gz-ia.1").read_text()
    assert page.startswith(".TH GZ-IA 1 ")
    assert '.SS "gz\\-ia session list"' in page
