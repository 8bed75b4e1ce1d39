"""``gz-ia session wait <id>... [--until STATE] [--timeout S] [--any]``: block until
sessions end, or (``--until``) until their agents are ``waiting``, ``idle``, ``exited``, or
change state (:mod:`gzia.sessions.state_wait`): exit 1 (``data.all_reached: false``) when
a session ended without getting there.

Exit 0 when every awaited session completed with exit code 0; 1 when one ended otherwise
(``ok: true``, no errors, ``data.all_succeeded: false``: the call worked, the exit code
carries the outcome), or with ``--exit-code`` the agent's own code of the first that did
not succeed (what ``exec --exit-code`` exits with: a ``-b`` run's code is read here); 1
with ``TIMEOUT`` (retryable) when the timeout passes first;
130/143 on Ctrl+C/SIGTERM. The sessions themselves are never touched.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import click

from gzia.cli import output
from gzia.cli.command import argument, command
from gzia.cli.numbers import Seconds
from gzia.cli.session.common import dir_option, open_store
from gzia.contract import InvalidInputError, TimeoutFailure
from gzia.i18n import N_, gettext
from gzia.sessions.ids import validate_session_ref
from gzia.views.sessions import exit_code_text
from gzia.views.words import end_reason_text, status_text

if TYPE_CHECKING:
    from gzia.sessions.record import SessionRecord
    from gzia.sessions.store import SessionStore
    from gzia.sessions.wait import WaitResult


@command("wait", help="Wait until sessions end; exit 0 only if all completed with exit 0.")
@argument("sessions", nargs=-1, required=True,
          help="The sessions to wait for (ids or prefixes).")
@click.option("--timeout", type=Seconds(),
              help="Give up after S seconds (exit 1, TIMEOUT; the sessions keep running).")
@click.option("--any", "any_one", is_flag=True, help="Return when the first session ends.")
@click.option("--until", type=click.Choice(["waiting", "idle", "exited", "state-change"]),
              help="Wait for the agents' state instead: waiting, idle, exited or state-change.")
@click.option("--exit-code", "agent_code", is_flag=True,
              help="Exit with the agent's own exit code (128+N if signal N ended it) of the "
                   "first session that did not succeed, instead of 1.")
@dir_option
def wait_command(sessions: tuple[str, ...], timeout: float | None, any_one: bool,  # noqa: PLR0917 - one per option
                 until: str | None, agent_code: bool, directory: str | None) -> None:
    from gzia.sessions.wait import resolve_all, wait_for

    if agent_code and until is not None:
        raise InvalidInputError(N_("--exit-code applies to sessions that end, not to --until"),
                                details={"option": "--exit-code"})
    for ref in sessions:
        validate_session_ref(ref)
    store = open_store(directory)
    records = resolve_all(store, list(sessions))
    ids = [r.id for r in records]
    if until is not None:
        _wait_for_state(store, records, until, any_one, timeout)
        return
    result = wait_for(store, records, any_one=any_one, timeout=timeout)
    data = result.to_json(ids)
    if result.timed_out:
        running = [r.id for r in result.records if r is not None and r.is_running]
        raise TimeoutFailure(N_("timed out after {seconds} s waiting for sessions; {count} still "
                                "running (left as they are)"),
                             seconds=timeout, count=len(running),
                             details={"timeout": timeout, "running": running}, data=data)
    if not result.all_succeeded:
        output.exit_with(result.agent_exit_code if agent_code else 1)
    output.emit(data, lambda: _render(ids, result))


def _wait_for_state(store: SessionStore, records: list[SessionRecord], until: str,
                    any_one: bool, timeout: float | None) -> None:
    from gzia.sessions.state_wait import wait_for_state

    goal, result = wait_for_state(store, records, until, any_one=any_one, timeout=timeout)
    data = goal.to_json([r.id for r in records], result)
    reached = [goal.reached(r) for r in result.records]
    if result.timed_out:
        waiting = [r.id for r, done in zip(records, reached, strict=True) if not done]
        raise TimeoutFailure(N_("timed out after {seconds} s waiting for sessions to be {state}; "
                                "{count} not yet (left as they are)"),
                             seconds=timeout, state=until, count=len(waiting),
                             details={"timeout": timeout, "until": until, "waiting": waiting},
                             data=data)
    if not (any(reached) if any_one else all(reached)):
        output.exit_with(1)
    output.emit(data, lambda: _render_states(data))


def _render_states(data: dict[str, Any]) -> None:
    for session in data["sessions"]:
        output.line(gettext("{id}  {state}  status: {status}", id=session["id"],
                            state=session["state"] or "-", status=session["status"] or "-"))


def _render(ids: list[str], result: WaitResult) -> None:
    for session_id, record in zip(ids, result.records, strict=True):
        if record is None:
            output.line(gettext("{id}  deleted while waiting", id=session_id))
            continue
        output.line(gettext("{id}  {status}  exit code: {exit_code}  end reason: {end_reason}",
                            id=record.id, status=status_text(record.status),
                            exit_code=exit_code_text(record.exit_code),
                            end_reason=end_reason_text(record.end_reason)))
