"""``gz-ia session wait <id>... [--timeout S] [--any]``: block until sessions end.

Exit 0 when every awaited session completed with exit code 0; 1 when one ended otherwise
(``ok: true``, no errors, ``data.all_succeeded: false``: the call worked, the exit code
carries the outcome); 1 with ``TIMEOUT`` (retryable) when the timeout passes first;
130/143 on Ctrl+C/SIGTERM. The sessions themselves are never touched.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import click

from gzia.cli import output
from gzia.cli.command import argument, command
from gzia.cli.numbers import Seconds
from gzia.cli.session.common import dir_option, open_store
from gzia.contract import TimeoutFailure
from gzia.i18n import N_, gettext
from gzia.sessions.ids import validate_session_ref
from gzia.views.sessions import exit_code_text

if TYPE_CHECKING:
    from gzia.sessions.wait import WaitResult


@command("wait", help="Wait until sessions end; exit 0 only if all completed with exit 0.")
@argument("sessions", nargs=-1, required=True,
          help="The sessions to wait for (ids or prefixes).")
@click.option("--timeout", type=Seconds(),
              help="Give up after S seconds (exit 1, TIMEOUT; the sessions keep running).")
@click.option("--any", "any_one", is_flag=True, help="Return when the first session ends.")
@dir_option
def wait_command(sessions: tuple[str, ...], timeout: float | None, any_one: bool,
                 directory: str | None) -> None:
    from gzia.sessions.wait import resolve_all, wait_for

    for ref in sessions:
        validate_session_ref(ref)
    store = open_store(directory)
    records = resolve_all(store, list(sessions))
    ids = [r.id for r in records]
    result = wait_for(store, records, any_one=any_one, timeout=timeout)
    data = result.to_json(ids)
    if result.timed_out:
        running = [r.id for r in result.records if r is not None and r.is_running]
        raise TimeoutFailure(N_("timed out after {seconds} s waiting for sessions; {count} still "
                                "running (left as they are)"),
                             seconds=timeout, count=len(running),
                             details={"timeout": timeout, "running": running}, data=data)
    if not result.all_succeeded:
        output.exit_with(1)
    output.emit(data, lambda: _render(ids, result))


def _render(ids: list[str], result: WaitResult) -> None:
    for session_id, record in zip(ids, result.records, strict=True):
        if record is None:
            output.line(gettext("{id}  deleted while waiting", id=session_id))
            continue
        output.line(gettext("{id}  {status}  exit code: {exit_code}  end reason: {end_reason}",
                            id=record.id, status=record.status,
                            exit_code=exit_code_text(record.exit_code),
                            end_reason=record.end_reason or "-"))
