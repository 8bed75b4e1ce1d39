"""What chat, exec and resume share: the watchdog from config, the launch line, the result.

Every run ends with the session record as ``data``: on success through ``output.emit``,
otherwise inside the error (``AGENT_FAILED`` exit 1, ``INTERRUPTED`` 130, ``TERMINATED``
143), so ``data.id`` is always the session id.
"""

from __future__ import annotations

from gzia.cli import output
from gzia.contract import WarningCode
from gzia.i18n import N_, gettext
from gzia.sessions.record import SessionRecord
from gzia.sessions.run import RunEnd, SessionRun
from gzia.sessions.run_errors import run_error
from gzia.sessions.workspace import Workspace
from gzia.views.words import status_text


def warn_at_launch(workspace: Workspace, *, base_changes: bool = True) -> None:
    """The launch warnings (:func:`gzia.views.launch.launch_warnings`), reported."""
    from gzia.views.launch import launch_warnings

    for problem in launch_warnings(workspace, base_changes=base_changes):
        output.add_warning(problem)


def report_run(run: SessionRun) -> None:
    data = run.record.to_json()
    if run.reused is not None:
        _report_reused(run)
        return
    if run.end is RunEnd.COMPLETED:
        output.emit(data, human=lambda: _finished(run.record))
        return
    raise run_error(run)


def _report_reused(run: SessionRun) -> None:
    """The idempotency key's session answered: no new run; its record, whatever its state."""
    record = run.record
    if run.reused is not None and run.reused.metadata_differs:
        output.warn(WarningCode.IDEMPOTENCY_METADATA_DIFFERS,
                    N_("session {id} holds this idempotency key with other {fields}; it is "
                       "returned as it is"),
                    id=record.id, fields=", ".join(run.reused.metadata_differs),
                    details={"session_id": record.id,
                             "differs": run.reused.metadata_differs})
    output.emit(record.to_json(), human=lambda: output.progress(
        gettext("session {id} already holds this idempotency key ({status}): nothing was started",
                id=record.id, status=status_text(record.status))))


def _finished(record: SessionRecord) -> None:
    from gzia.views.sessions import finished_lines

    for line in finished_lines(record):
        output.progress(line)


def report_outcome(run: SessionRun, *, background: bool) -> None:
    """A ``-b`` run as started (:func:`report_started`), any other as it ended."""
    if background:
        report_started(run)
        return
    report_run(run)


def report_started(run: SessionRun) -> None:
    """A ``-b`` run: the record (``status: running``) and, for people, what to do next."""
    if run.reused is not None:  # the idempotency key's session: reported as it is
        report_run(run)
        return
    record = run.record

    def human() -> None:
        output.line(gettext("● Session '{id}' is running in the background (PID {pid}).",
                            id=record.id, pid=record.pid))
        output.line(gettext("  Output: gz-ia session output {id} -f   Attach: gz-ia session attach "
                            "{id}   Stop: gz-ia session kill {id}",
                            id=record.id))

    output.emit(record.to_json(), human)
