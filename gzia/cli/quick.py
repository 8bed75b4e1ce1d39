"""Commands answered without the command-line framework, because they must start fast.

``gz-ia --version``, ``gz-ia version``, the plain forms of ``gz-ia session list``,
those of ``gz-ia start`` (bench/tui.py: the first frame in under a second) and those of
``gz-ia mcp`` an agent is handed (bench/orchy.py: ``initialize`` answered in under a
second): importing click and typer and building the command tree costs more than listing
a thousand sessions. The forms are parsed strictly::

    gz-ia [G...] session [G | D]... list [G | D]...
    gz-ia start [D]
    gz-ia                      (on a terminal, not called back by a completion script)
    gz-ia [G...] mcp [G | S | D | --allow-agent-get]...    (S once, the others at most once)
    G: a global flag (--json, -q, --quiet, --debug: gzia.cli.output.GLOBAL_FLAGS)
    D: -d DIR  --dir DIR  --dir=DIR
    S: --session ID  --session=ID

Anything else (``--help``, an unknown or repeated option, a value that is empty or starts
with ``-``, an argument after ``list``) is left to the full command line, which gives the
same answer the slow way. Both paths are held to identical output by the tests.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from typing import NamedTuple

DIR_OPTIONS = ("-d", "--dir")
SESSION_LIST = ("session", "list")
START = "start"
MCP = "mcp"
MCP_VALUE_OPTIONS = {"-d": "directory", "--dir": "directory", "--session": "session"}
ALLOW_AGENT_GET = "--allow-agent-get"
COMPLETE_VAR = "_GZ_IA_COMPLETE"
"""Set when a shell's completion script calls gz-ia back (gzia/cli/completion.py)."""


def answer(args: list[str]) -> int | None:
    """The exit code of a command answered here, or ``None`` for the full command line."""
    if args in (["--version"], ["version"]):
        return print_version()
    parsed = parse_session_list(args)
    if parsed is not None:
        flags_by_level, directory = parsed
        return run_session_list(flags_by_level, directory)
    start_dir = parse_start(args)
    if start_dir is not None:
        return run_start(start_dir[0])
    mcp = parse_mcp(args)
    if mcp is not None:
        return run_mcp(mcp)
    return None


def version_line() -> str:
    from gzia._version import COMMIT, DATE, __version__

    return f"gz-ia v{__version__} (commit: {COMMIT}, date: {DATE})"


def print_version() -> int:
    sys.stdout.write(version_line() + "\n")
    sys.stdout.flush()
    return 0


def _global_flag_names() -> set[str]:
    from gzia.cli.output import global_flag_names

    return global_flag_names()


def parse_session_list(args: list[str]) -> tuple[list[list[str]], str | None] | None:
    """The global flags seen at each level (root, ``session``, ``list``) and the directory,
    for the forms in the module's grammar; ``None`` for anything else."""
    global_flags = _global_flag_names()
    flags: list[list[str]] = [[], [], []]
    dirs: list[str | None] = [None, None, None]
    level, index = 0, 0
    while index < len(args):
        arg = args[index]
        if arg in global_flags:
            flags[level].append(arg)
        elif level < len(SESSION_LIST) and arg == SESSION_LIST[level]:
            level += 1
        elif level > 0 and dirs[level] is None and (arg in DIR_OPTIONS or arg.startswith("--dir=")):
            value = arg.partition("=")[2] if "=" in arg else _next(args, index)
            index += 0 if "=" in arg else 1
            if not value or value.startswith("-"):
                return None
            dirs[level] = value
        else:
            return None
        index += 1
    if level != len(SESSION_LIST):
        return None
    return flags, dirs[2] or dirs[1]  # the subcommand's -d wins over the group's


def _next(args: list[str], index: int) -> str | None:
    return args[index + 1] if index + 1 < len(args) else None


def parse_start(args: list[str]) -> tuple[str | None] | None:
    """``(directory,)`` for the forms of ``start`` in the module's grammar, else ``None``."""
    from gzia.cli.terminal_ui import on_a_terminal

    if not args:
        return (None,) if on_a_terminal() and not os.environ.get(COMPLETE_VAR) else None
    if args[0] != START:
        return None
    rest = args[1:]
    if not rest:
        return (None,)
    if len(rest) == 1 and rest[0].startswith("--dir="):
        value: str | None = rest[0].partition("=")[2]
    elif len(rest) == 2 and rest[0] in DIR_OPTIONS:
        value = rest[1]
    else:
        return None
    return (value,) if value and not value.startswith("-") else None


class McpForm(NamedTuple):
    root_flags: list[str]
    flags: list[str]
    session: str
    directory: str | None = None
    allow_agent_get: bool = False


def parse_mcp(args: list[str]) -> McpForm | None:
    """The form of ``gz-ia mcp`` in the module's grammar, else ``None``."""
    global_flags = _global_flag_names()
    root = 0
    while root < len(args) and args[root] in global_flags:
        root += 1
    if args[root:root + 1] != [MCP]:
        return None
    flags: list[str] = []
    values: dict[str, str] = {}
    allow_agent_get = False
    index = root + 1
    while index < len(args):
        arg = args[index]
        if arg in global_flags:
            flags.append(arg)
        elif arg == ALLOW_AGENT_GET and not allow_agent_get:
            allow_agent_get = True
        else:
            name, equals, value = arg.partition("=") if arg.startswith("--") else (arg, "", "")
            key = MCP_VALUE_OPTIONS.get(name)
            if key is None or key in values:
                return None
            if not equals:
                value = _next(args, index) or ""
                index += 1
            if not value or value.startswith("-"):
                return None
            values[key] = value
        index += 1
    if "session" not in values:
        return None
    return McpForm(args[:root], flags, values["session"], values.get("directory"),
                   allow_agent_get)


def run_session_list(flags_by_level: list[list[str]], directory: str | None) -> int | None:
    """Run ``session list`` as the full command line would, flags applied as click would
    apply them: the root's before plugin warnings are reported, the others after."""

    def listing() -> None:
        _apply(flags_by_level[1] + flags_by_level[2])
        from gzia.cli.session.listing import show_sessions

        show_sessions(directory)

    return _run_builtin(SESSION_LIST[0], listing, root_flags=flags_by_level[0])


def run_start(directory: str | None) -> int | None:
    """Run ``start`` (or bare ``gz-ia`` on a terminal) as the full command line would."""
    from gzia.cli.terminal_ui import open_tui

    return _run_builtin(START, lambda: open_tui(directory), root_flags=[])


def run_mcp(form: McpForm) -> int | None:
    """Run ``mcp`` as the full command line would (its defaults: the kernel's)."""

    def serving() -> None:
        _apply(form.flags)
        from gzia.cli.mcp_serving import serve_session

        serve_session(form.session, form.directory, allow_agent_get=form.allow_agent_get)

    return _run_builtin(MCP, serving, root_flags=form.root_flags)


def _run_builtin(command: str, run: Callable[[], None], *, root_flags: list[str]) -> int | None:
    """Run ``run`` as gz-ia's own ``command``, reported as the full command line reports
    it; ``None`` (nothing printed) when a plugin took the command's name."""
    from gzia.cli import outcome
    from gzia.cli.plugin_warnings import COMMANDS_GROUP, reported
    from gzia.plugins import ORIGIN_BUILTIN, discover

    with outcome.invocation():
        _apply(root_flags)
        try:
            found = discover(COMMANDS_GROUP)
            entry = found.available.get(command)
            if entry is None or entry[0].origin != ORIGIN_BUILTIN:
                return None  # nothing printed yet: an install without its own commands
            reported(found)
            run()
        except BrokenPipeError:
            raise
        except (Exception, KeyboardInterrupt) as exc:
            return outcome.failed(exc)
        return outcome.succeeded()


def _apply(flags: list[str]) -> None:
    from gzia.cli.output import apply_global_flag

    for flag in flags:
        apply_global_flag(flag)
