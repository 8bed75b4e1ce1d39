"""The update screen's calls: the service functions ``gz-ia update`` makes, unrendered.

Each runs in a worker thread of the screen; a source that fails and a channel manifest that
is refused are reported through ``warn`` as the CLI's warnings (:mod:`gzia.views.update_check`),
and errors propagate as the CLI's :class:`gzia.contract.GzError` (the screen shows their
message and hint). The screen adds the warnings the CLI gives once it has its answer.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from gzia.contract import Problem
from gzia.views.update_check import manifest_refused, source_failed

if TYPE_CHECKING:
    from gzia.update.download import Progress
    from gzia.update.errors import SourceFailure
    from gzia.update.service import OnFailure
    from gzia.update.sources import Source

Say = Callable[[str], None]
Warn = Callable[[Problem], None]


def running_version() -> str:
    from gzia.update.client import current_version

    return current_version()


def installed_path() -> Path | None:
    """The zipapp an update replaces (and a rollback restores): the one running."""
    from gzia.selfexec import running_pyz

    return running_pyz()


def previous_of(path: Path) -> Path:
    """The file ``update rollback`` would put back (:func:`gzia.update.apply.found_previous`)."""
    from gzia.update.apply import found_previous

    return found_previous(path)


def advice(result: dict[str, Any]) -> dict[str, Any]:
    """What the screen advises after a check or an install: ``gz-ia update``'s own decision
    (:func:`gzia.update.advice.advice`)."""
    from gzia.update.advice import advice as decide

    return decide(result)


def check(warn: Warn) -> dict[str, Any]:
    """``gz-ia update --check``: current, latest, source, newer."""
    from gzia.update import service
    from gzia.update.client import make_client
    from gzia.update.settings import UpdateSettings

    settings = UpdateSettings.load()
    with make_client(settings.timeout) as client:
        return service.check(client, settings, service.Options(), _reporter(warn),
                             _problem_reporter(warn))


def install(warn: Warn, progress: Progress, on_install: Say) -> dict[str, Any]:
    """``gz-ia update``: the newest release, verified, in place of the running zipapp."""
    from gzia.update import service
    from gzia.update.client import make_client
    from gzia.update.settings import UpdateSettings

    settings = UpdateSettings.load()
    with make_client(settings.timeout) as client:
        return service.update(client, settings, service.Options(), installed_path(),
                              on_failure=_reporter(warn), on_problem=_problem_reporter(warn),
                              progress=progress,
                              on_install=on_install)


def rollback() -> dict[str, Any]:
    """``gz-ia update rollback``: the previous zipapp back in place."""
    from gzia.update import service

    return service.rollback(installed_path())


def _reporter(warn: Warn) -> OnFailure:
    from gzia.update.errors import source_failed_params

    def on_failure(source: Source, failure: SourceFailure) -> None:
        warn(source_failed(source_failed_params(source.name, failure), source.name,
                           failure.reason_code))

    return on_failure


def _problem_reporter(warn: Warn) -> OnFailure:
    def on_problem(source: Source, failure: SourceFailure) -> None:
        warn(manifest_refused(source.name, failure.message, failure.reason_code))

    return on_problem
