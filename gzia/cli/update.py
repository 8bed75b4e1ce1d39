"""``gz-ia update [--check] [--version X] [--pre] [--force] [--allow-downgrade] [--dry-run]``
and ``gz-ia update rollback``."""

from __future__ import annotations

from typing import Any

import click

from gzia.cli import output
from gzia.cli.command import group
from gzia.i18n import N_, gettext


def _on_failure(source: Any, failure: Any) -> None:
    from gzia.update.errors import source_failed_params
    from gzia.views.update_check import source_failed

    output.add_warning(source_failed(source_failed_params(source.name, failure), source.name,
                                     failure.reason_code))


def _on_manifest_problem(source: Any, failure: Any) -> None:
    from gzia.views.update_check import manifest_refused

    output.add_warning(manifest_refused(source.name, failure.message, failure.reason_code))


def _add_warnings(problems: list[Any]) -> None:
    for problem in problems:
        output.add_warning(problem)


def _progress_bar() -> Any:
    out = output.current()
    if out.json or out.quiet or not out.stderr.isatty():
        return None

    def show(done: int, total: int | None) -> None:
        mib = done / 1048576
        if total:
            filled = int(30 * done / total)
            bar = "#" * filled + " " * (30 - filled)
            text = f"\r[{bar}] {mib:7.1f} / {total / 1048576:.1f} MiB"
        else:
            text = f"\r{mib:7.1f} MiB"
        out.stderr.write(text + ("\n" if total and done >= total else ""))
        out.stderr.flush()

    return show


@group("update", invoke_without_command=True, subcommand_metavar="[COMMAND] [ARGS]...",
       help="Update gz-ia from Nexus (or Forgejo), verified and atomic.")
@click.option("--check", "-c", is_flag=True, help="Only report; change nothing.")
@click.option("--version", help="Install this version.")
@click.option("--pre", is_flag=True, help="Consider prereleases.")
@click.option("--force", "-f", is_flag=True, help="Reinstall even if current.")
@click.option("--allow-downgrade", is_flag=True, help="Allow an older --version.")
@click.option("--dry-run", is_flag=True, help="Download and verify, but do not install.")
@click.option("--ignore-rollout", is_flag=True,
              help="Take the version of the channel's staged rollout now.")
@click.option("--snooze", metavar=N_("VERSION"),
              help="Show no update notice for this version (a newer one is announced).")
@click.option("--from", "location", metavar=N_("PATH|URL"),
              help="Install the release in this directory, file or URL (offline or mirrored).")
@click.pass_context
def app(  # noqa: PLR0917 - one parameter for each flag
    ctx: click.Context, check: bool, version: str | None, pre: bool, force: bool,
    allow_downgrade: bool, dry_run: bool, ignore_rollout: bool, location: str | None,
    snooze: str | None,
) -> None:
    if ctx.invoked_subcommand is not None:
        return  # its own flags are checked by the subcommand, once --json is parsed
    if snooze is not None:
        _snooze(snooze)
        return
    from gzia.update import apply, service
    from gzia.update.advice import advice
    from gzia.update.client import make_client
    from gzia.update.settings import UpdateSettings
    from gzia.views import update_check

    settings = UpdateSettings.load()
    options = service.Options(version, pre, force, allow_downgrade, dry_run, ignore_rollout)
    output.current().release_notice = False  # this command reports it with its own result
    with make_client(settings.timeout) as client:
        if location is not None:
            result = _update_from(client, settings, location, options, check=check, pre=pre)
            output.emit(result, lambda: _render_update(result))
            return
        if check:
            result = service.check(client, settings, options, _on_failure,
                                   _on_manifest_problem)
            _add_warnings(update_check.after_check(result, advice(result)))
            output.emit(result, lambda: _render_check(result))
            return
        result = service.update(client, settings, options, apply.running_pyz(),
                                on_failure=_on_failure, on_problem=_on_manifest_problem,
                                progress=_progress_bar(),
                                on_install=lambda v: output.progress(gettext(
                                        "↻ Downloading and installing gz-ia v{version}...",
                                                                             version=v)))
    _add_warnings(update_check.after_update(result))
    output.emit(result, lambda: _render_update(result))


def _snooze(version: str) -> None:
    from gzia.contract import InvalidInputError
    from gzia.update.background import files
    from gzia.update.model import parse_version
    from gzia.update.notice import snooze

    if parse_version(version) is None:
        raise InvalidInputError(N_("invalid version: {version}"), version=version,
                                details={"version": version})
    label = version.strip().removeprefix("v").removeprefix("V")
    snooze(files(), label)
    output.emit({"snoozed": label}, lambda: output.line(
        gettext("✓ no update notice for gz-ia {version}", version=label)))


def _update_from(client: Any, settings: Any, location: str, options: Any, *, check: bool,
                 pre: bool) -> dict[str, Any]:
    from gzia.contract import InvalidInputError
    from gzia.update import apply, offline

    if check or pre:
        raise InvalidInputError(N_("--from does not take {flag}"),
                                flag="--check" if check else "--pre",
                                details={"flag": "--check" if check else "--pre"})
    return offline.update_from(client, settings, location, options, apply.running_pyz(),
                               progress=_progress_bar())


def _render_check(result: dict[str, Any]) -> None:
    from gzia.update.advice import advice
    from gzia.views.update_check import channel_lines, check_verdict

    output.line(gettext("❯ Current version: v{version}", version=result["current"]))
    output.line(gettext("✧ Remote version: v{version} ({source})", version=result["latest"],
                        source=result["source"]))
    output.lines(channel_lines(result))
    output.line(check_verdict(result, advice(result)))


def _render_update(result: dict[str, Any]) -> None:
    if result["updated"]:
        output.line(gettext("✓ gz-ia updated successfully to v{version} in {path}",
                            version=result["version"], path=result["path"]))
    elif result["dry_run"] and result["verified"]:
        output.line(gettext("✓ gz-ia v{version} downloaded and verified; nothing was changed "
                            "(--dry-run)",
                            version=result["version"]))
    else:
        from gzia.update.advice import advice
        from gzia.views.update_check import update_verdict

        output.line(update_verdict(result, advice(result)))


def _refuse_update_flags(ctx: click.Context) -> None:
    """'update --check rollback' must not roll back while the user meant to check."""
    given = ctx.parent.params if ctx.parent is not None else {}
    if any(value not in (None, False) for value in given.values()):
        from gzia.contract import InvalidInputError

        command = str(ctx.info_name)
        raise InvalidInputError(N_("the options of 'gz-ia update' do not apply to 'gz-ia update "
                                   "{command}'"),
                                command=command,
                                hint_key=N_("run 'gz-ia update {command}' alone"),
                                details={"command": command})


@app.command("rollback", help="Go back to the version that ran before the last update.")
@click.pass_context
def rollback(ctx: click.Context) -> None:
    _refuse_update_flags(ctx)
    from gzia.update import apply, service

    result = service.rollback(apply.running_pyz())
    output.emit(result, lambda: output.line(
        gettext("✓ gz-ia rolled back to v{version} in {path}", version=result["version"],
                path=result["path"])))
