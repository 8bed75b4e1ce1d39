"""One invocation of gz-ia: parse, run, and report the outcome exactly once.

Every outcome (success, usage error, runtime error, Ctrl+C, SIGTERM) goes through
:func:`gzia.contract.classify` and ends here as an exit code, plus one JSON envelope on
stdout in JSON mode or ``Error: <message>`` on stderr otherwise.
"""

from __future__ import annotations

from typing import Any

import click

from gzia.cli import outcome
from gzia.cli.command import context_being_parsed
from gzia.cli.output import Output
from gzia.cli.root import PROGRAM, CompletionAnswered, RootGroup
from gzia.contract import (
    GzError,
    InternalError,
    InvalidInputError,
    MissingRequiredError,
    UnknownFlagError,
)
from gzia.i18n import N_, bind_click


def build_root(*, sheds_credentials: bool = False) -> RootGroup:
    return RootGroup(
        name=PROGRAM, sheds_credentials=sheds_credentials,
        help="Run AI coding agents as managed sessions in isolated git worktrees.",
        params=[
            click.Option(["-V", "--version"], is_flag=True, expose_value=False, is_eager=True,
                         callback=_print_version, help="Print the version and exit."),
        ],
        context_settings={"help_option_names": ["-h", "--help"]},
    )


def _print_version(ctx: click.Context, param: click.Parameter, value: Any) -> None:
    if not value or ctx.resilient_parsing:
        return
    from gzia.cli.version import report_version

    report_version()
    raise click.exceptions.Exit(0)


def run(args: list[str], *, sheds_credentials: bool = False) -> int:
    """Run one command line; its :class:`~gzia.cli.output.Output` reaches the commands
    as click's ``ctx.obj``."""
    bind_click()  # click's texts from gz-ia's catalogue: no stdlib catalogue search per parse
    with outcome.invocation() as out:
        code = _run(args, build_root(sheds_credentials=sheds_credentials), out)
    if code == 0:
        from gzia.cli.update_notice import after_command  # lazy: start-up speed

        after_command(out, args)
    return code


def _run(args: list[str], root: RootGroup, out: Output) -> int:
    try:
        with root.make_context(PROGRAM, args, obj=out) as ctx:
            root.invoke(ctx)
    except CompletionAnswered as answered:
        return answered.exit_code
    except (click.exceptions.Exit, SystemExit) as done:  # also a plugin's sys.exit()
        code = done.exit_code if isinstance(done, click.exceptions.Exit) else done.code
        return outcome.succeeded(out) if code in (0, None) else outcome.failed(out, _exited(code))
    except click.UsageError as usage:
        return outcome.failed(out, _usage_error(usage))
    except click.Abort as abort:
        cause = abort.__cause__ or abort.__context__
        interrupt = cause if isinstance(cause, KeyboardInterrupt) else KeyboardInterrupt()
        return outcome.failed(out, interrupt)
    except BrokenPipeError:
        raise
    except (Exception, KeyboardInterrupt) as exc:
        return outcome.failed(out, exc)
    return outcome.succeeded(out)


def _exited(code: object) -> GzError:
    return InternalError(N_("the command exited with code {code} without saying why"), code=code,
                         details={"exit_code": code})


def _usage_error(error: click.UsageError) -> GzError:
    """Turn click's usage errors into ours, after finding --json in what was parsed."""
    failing = error.ctx or context_being_parsed()
    if isinstance(error, click.NoSuchOption):
        return UnknownFlagError(
            N_("unknown flag: {flag}"), flag=error.option_name,
            hint_key=N_("did you mean: {choices}?") if error.possibilities else None,
            choices=", ".join(sorted(error.possibilities or [])),
            details={"flag": error.option_name},
        )
    if isinstance(error, click.BadOptionUsage):
        return _bad_option_usage(error, failing)
    if isinstance(error, click.MissingParameter):
        return _missing(error)
    if isinstance(error, click.BadParameter):
        return _bad_parameter(error)
    if error.ctx is not None and isinstance(error.ctx.command, click.Group) and (
        isinstance(error, click.exceptions.NoArgsIsHelpError) or "Missing command" in error.message
    ):
        path = error.ctx.command_path
        return MissingRequiredError(N_("missing command for '{command}'"), command=path,
                                    hint_key=N_("run '{command} --help' for usage"),
                                    details={"command": path})
    return InvalidInputError(N_("{detail}"), detail=error.message)


def _bad_parameter(error: click.BadParameter) -> GzError:
    if isinstance(error.__cause__, GzError):
        return error.__cause__  # a check of gzia.cli.numbers, in its own words
    name = error.param.get_error_hint(error.ctx) if error.param and error.ctx else "value"
    return InvalidInputError(N_("invalid value for {name}: {detail}"), name=name.strip('"'),
                             detail=error.message,
                             details={"parameter": name.strip('"')})


def _bad_option_usage(error: click.BadOptionUsage, failing: click.Context | None) -> GzError:
    """``--dir`` without its value, or ``--flag=value`` for a flag."""
    name = error.option_name
    params = failing.command.params if failing is not None else []
    option = next((p for p in params if isinstance(p, click.Option)
                   and name in (*p.opts, *p.secondary_opts)), None)
    if option is not None and (option.is_flag or option.count):
        return InvalidInputError(N_("flag {flag} takes no value"), flag=name,
                                 details={"flag": name})
    if option is not None:
        return MissingRequiredError(N_("flag {flag} needs a value"), flag=name,
                                    details={"flag": name})
    return InvalidInputError(N_("{detail}"), detail=error.message)


def _missing(error: click.MissingParameter) -> GzError:
    param = error.param
    if isinstance(param, click.Option):
        name = param.opts[-1] if param.opts else str(param.name)
        return MissingRequiredError(N_("missing required flag: {name}"), name=name,
                                    details={"flag": name})
    name = (param.human_readable_name if param else "argument").upper()
    return MissingRequiredError(N_("missing argument: {name}"), name=name,
                                details={"argument": name})
