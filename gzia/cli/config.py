"""``gz-ia config list|get|set|unset|path``: settings and where each value comes from."""

from __future__ import annotations

from typing import Any

import click

from gzia.cli import completers, output
from gzia.cli.command import argument, group, unknown_flag
from gzia.config import Value, load_config, paths
from gzia.config_files import write_config_value
from gzia.i18n import gettext
from gzia.policy import refuse_override


@group("config", help="Show and change gz-ia settings.")
def app() -> None:
    """A group: ``config`` alone shows its subcommands."""


reveal_option = click.option("--reveal", is_flag=True, help="Show secret values.")


def _a_name_not_a_flag(ctx: click.Context, param: click.Parameter, key: str) -> str:
    """No setting's name starts with ``-``: such a KEY is a mistyped flag (``config set``
    lets VALUE start with ``-``, so click takes it for an argument)."""
    if key.startswith("-"):
        raise unknown_flag(ctx, key)
    return key


key_argument = argument("key", help="Setting name (see gz-ia config list).",
                        callback=_a_name_not_a_flag, shell_complete=completers.setting_keys)


def _entry(value: Value, reveal: bool) -> dict[str, Any]:
    return {"key": value.setting.key, "value": value.shown(reveal=reveal),
            "source": value.source, "env": value.setting.env,
            "secret": value.setting.secret}


def human_text(value: Any, *, none: str) -> str:
    """A setting's value as people read it: ``true``/``false`` as in the TOML file (JSON
    keeps its booleans), ``none`` for no value."""
    if value is None:
        return none
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


@app.command("list", help="List every setting with its value and source.")
@reveal_option
def list_settings(reveal: bool) -> None:
    entries = [_entry(v, reveal) for v in load_config().values()]

    def human() -> None:
        output.line(gettext("KEY                   VALUE                     SOURCE"))
        for e in entries:
            shown = human_text(e["value"], none="-")
            output.line(f"{e['key']:<21} {shown:<25} {e['source']}")

    output.emit({"settings": entries}, human)


@app.command("get", help="Print one setting's value.")
@key_argument
@reveal_option
def get_setting(key: str, reveal: bool) -> None:
    entry = _entry(load_config().value(key), reveal)
    output.emit(entry, lambda: output.line(human_text(entry["value"], none="")))


@app.command("set", help="Store a setting in the configuration file.",
             context_settings={"ignore_unknown_options": True})  # VALUE may be -5
@key_argument
@argument("value", help="The value to store.")
def set_setting(key: str, value: str) -> None:
    file = paths().config_file
    refuse_override(key, load_config().policy)
    if key == "default_provider":
        from gzia.drivers.registry import checked_provider_setting

        checked_provider_setting(value, origin=None)
    write_config_value(file, key, value)
    entry = _entry(load_config().value(key), reveal=False)
    entry["file"] = str(file)
    output.emit(entry, lambda: output.line(
        gettext("✓ {key} = {value} (in {file})", key=key, value=human_text(entry["value"], none=""),
                file=file)))


@app.command("unset", help="Remove a setting from the configuration file.")
@key_argument
def unset_setting(key: str) -> None:
    file = paths().config_file
    write_config_value(file, key, None)
    output.emit({"key": key, "file": str(file)},
                lambda: output.line(gettext("✓ {key} removed from {file}", key=key, file=file)))


@app.command("path", help="Print the configuration file's path (--json: gz-ia's directories too).")
def show_paths() -> None:
    p = paths()
    data = {"config_file": str(p.config_file), "config_dir": str(p.config_dir),
            "data_dir": str(p.data_dir), "cache_dir": str(p.cache_dir),
            "state_dir": str(p.state_dir), "plugin_dirs": [str(d) for d in p.plugin_dirs]}
    output.emit(data, lambda: output.line(str(p.config_file)))
