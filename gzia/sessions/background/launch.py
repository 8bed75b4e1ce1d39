"""Starting a background run: hand the prepared session to a detached holder process.

The command that runs ``chat``/``exec``/``resume -b`` prepares everything a foreground
run would (driver check, workspace, ``running`` record, the agent's command), then starts
a holder (``gz-ia __holder__``: the same gz-ia, see :mod:`gzia.selfexec`) in a
new session, sends it what to run on its stdin, and waits until the holder says the
agent runs (its pid recorded) or that it could not start it. The holder owns the run
from then on (:mod:`gzia.sessions.run`).
"""

from __future__ import annotations

import json
import os
import select
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from gzia import proc
from gzia.contract import GzError, IOFailure, Problem, TimeoutFailure, error_from
from gzia.credentials import without_secrets
from gzia.i18n import N_
from gzia.sessions.background.spec import HolderSpec
from gzia.supervisor.runtime_dir import new_socket_path

if TYPE_CHECKING:
    from gzia.sandbox import SandboxServices
    from gzia.sessions.record import SessionRecord
    from gzia.sessions.store import SessionStore
    from gzia.supervisor.command import Command
    from gzia.supervisor.watchdog import Watchdog

START_TIMEOUT_S = 30.0
"""How long the starting command waits for the holder to report the agent running."""
@dataclass(frozen=True)
class BackgroundOptions:
    log_max_bytes: int
    window: tuple[int, int] = (24, 80)


def start_in_background(
    store: SessionStore,
    record: SessionRecord,
    command: Command,
    watchdog: Watchdog,
    options: BackgroundOptions,
    *,
    orchy: Path | None = None,
    sandbox: SandboxServices | None = None,
) -> SessionRecord:
    """The record once the holder reports the agent running (``pid`` set). ``orchy``:
    the socket the holder serves the session's MCP tools on (gzia.sessions.warm_orchy);
    ``sandbox``: what a sandboxed run's owner serves, which the holder runs."""
    log_path = Path(record.log_path) if record.log_path else store.log_path(record.id)
    spec = HolderSpec(
        project=store.project.root, id=record.id, argv=tuple(command.argv),
        cwd=command.cwd, env=dict(command.env), log_path=log_path,
        log_max_bytes=options.log_max_bytes, window=options.window,
        socket=new_socket_path(record.id), watchdog=watchdog, orchy=orchy, sandbox=sandbox,
    )
    _await_ready(_start_holder(spec), record.id)
    return store.load(record.id)


def _start_holder(spec: HolderSpec) -> subprocess.Popen[bytes]:
    # lazy: start-up speed (off the path of session list and --help)
    from gzia.selfexec import HOLDER_ARG, gzia_argv

    holder = proc.start(  # an agent can read its holder's environment: no secrets
        gzia_argv(HOLDER_ARG), cwd="/", env=without_secrets(os.environ),
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    if holder.stdin is None:  # pragma: no cover - stdin=PIPE always gives one
        raise RuntimeError("no pipe to the holder")
    try:
        holder.stdin.write(spec.to_json())
        holder.stdin.close()
    except BrokenPipeError:
        pass  # it died at once: _await_ready reports it
    return holder


def _await_ready(holder: subprocess.Popen[bytes], session_id: str) -> dict[str, Any]:
    """The holder's one-line report: the agent runs, or why it does not."""
    if holder.stdout is None:  # pragma: no cover - stdout=PIPE always gives one
        raise RuntimeError("no pipe from the holder")
    fd = holder.stdout.fileno()
    deadline = time.monotonic() + START_TIMEOUT_S
    line = b""
    while not line.endswith(b"\n"):
        remaining = deadline - time.monotonic()
        if remaining <= 0 or not select.select([fd], [], [], remaining)[0]:
            raise TimeoutFailure(N_("the holder of session '{id}' "
                                    "did not report within {seconds} s"),
                                 id=session_id,
                                 seconds=int(START_TIMEOUT_S), details={"id": session_id})
        chunk = os.read(fd, 4096)
        if not chunk:
            break
        line += chunk
    holder.stdout.close()
    return _parse_report(line, session_id)


def _parse_report(line: bytes, session_id: str) -> dict[str, Any]:
    try:
        report = json.loads(line)
    except ValueError:
        report = None
    if not isinstance(report, dict):
        raise IOFailure(N_("session '{id}' could not start in the background: {detail}"),
                        id=session_id,
                        detail="the holder process ended before starting the agent",
                        details={"id": session_id})
    if not report.get("ok"):
        raise _start_error(report.get("error"), session_id)
    return report


def _start_error(problem: object, session_id: str) -> GzError:
    """The holder's own error, as the class its code names (:func:`error_from`)."""
    try:
        return error_from(Problem.from_json(problem))
    except ValueError:
        return IOFailure(N_("session '{id}' could not start in the background: {detail}"),
                         id=session_id,
                         detail="the holder's report could not be read",
                         details={"id": session_id})
