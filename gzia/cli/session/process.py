"""Process actions on background sessions: poll, output, send-keys, paste, submit, attach.

Each takes ``--json`` (one document
on stdout) and ``-d/--dir`` like every ``session`` subcommand, so scripts can drive an
agent: ``gz-ia session submit ID 'run the tests'``, then ``gz-ia session output ID --tail 20``.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

import click

from gzia.cli import output
from gzia.cli.command import argument
from gzia.cli.numbers import Count, Seconds
from gzia.cli.session.common import open_session, session_command
from gzia.contract import WarningCode
from gzia.i18n import N_, gettext, ngettext
from gzia.sessions.output_reading import log_of, tail_lines
from gzia.views.words import holder_text, status_text

if TYPE_CHECKING:
    from gzia.sessions.store import SessionStore
    from gzia.supervisor.logfile import LogMark
    from gzia.supervisor.terminal_queries import QueryFilter


@session_command("poll", help="Show a session's status, exit code, bytes of output, seconds "
                              "since its last output and the state of its holder.")
def poll_command(session: str, directory: str | None) -> None:
    from gzia.sessions.background import poll
    from gzia.views.sessions import exit_code_text

    _, record = open_session(session, directory)
    state = poll(record)
    if not state["output_bytes"]:
        warn_no_output_yet(record.id)

    def human() -> None:
        idle = "-" if state["idle_s"] is None else f"{state['idle_s']:.1f}s"
        output.line(gettext("{id}  {status}  exit {exit_code}  {bytes} bytes  idle {idle}  holder "
                            "{holder}",
                            id=record.id, status=status_text(state["status"]),
                            exit_code=exit_code_text(state["exit_code"]),
                            bytes=state["output_bytes"], idle=idle,
                            holder=holder_text(state["holder"])))

    output.emit(state, human)


@session_command(
    "output", help="Print a session's terminal output (-f: follow while it runs).",
    options=[click.option("-f", "--follow", is_flag=True, help="Keep printing while it runs."),
             click.option("--tail", type=Count(0), metavar="N", help="Only the last N lines."),
             click.option("--raw", is_flag=True,
                          help="The bytes as written, escape sequences included (to a "
                               "terminal: without the agent's terminal queries).")])
def output_command(session: str, follow: bool, tail: int | None, raw: bool,
                   directory: str | None) -> None:
    from gzia.supervisor.logfile import read_log_to_end

    store, record = open_session(session, directory)
    logged, start = read_log_to_end(log_of(record))
    data = tail_lines(logged, tail)
    if follow and not output.is_json():
        queries = _query_filter(raw)
        _write(data, raw, queries)
        _follow(store, record.id, start, raw, queries)
        output.emit(None)
        return
    if follow:
        from gzia.sessions.background import follow as follow_log

        data = tail_lines(data + b"".join(follow_log(store, record.id, start)), tail)
    if not data:
        warn_no_output_yet(record.id)
    output.emit(_output_json(record.id, data, raw),
                lambda: _write(data, raw, _query_filter(raw), end=True))


def warn_no_output_yet(session_id: str) -> None:
    """Nothing written yet is an answer (empty output), said as a warning, not an error."""
    output.warn(WarningCode.NO_OUTPUT_YET, N_("session '{id}' has written no output yet"),
                id=session_id,
                details={"id": session_id})


def _output_json(session_id: str, data: bytes, raw: bool) -> dict[str, object]:
    from gzia.supervisor.control import encode_bytes
    from gzia.supervisor.render import render_text

    if raw:
        return {"id": session_id, "bytes": len(data), "data_base64": encode_bytes(data)}
    return {"id": session_id, "bytes": len(data), "text": render_text(data)}


def _query_filter(raw: bool) -> QueryFilter | None:
    """For raw output to a terminal, the filter taking the agent's terminal queries out: the
    terminal would answer them into the shell's input. Anywhere else the bytes go as they
    are (a pipe, a file, ``--json``)."""
    if not raw or not output.current().stdout.isatty():
        return None
    from gzia.supervisor.terminal_queries import QueryFilter

    return QueryFilter()


def _write(data: bytes, raw: bool, queries: QueryFilter | None = None, *,
           end: bool = False) -> None:
    """Write ``data``: raw through ``queries`` when given (``end``: the last piece, so what
    it holds back goes out too), else rendered as text."""
    from gzia.supervisor.render import render_text

    stdout = output.current().stdout
    if raw:
        if queries is not None:
            data = queries.feed(data) + (queries.flush() if end else b"")
        stdout.flush()
        stdout.buffer.write(data)
        stdout.buffer.flush()
    else:
        stdout.write(render_text(data))
        stdout.flush()


def _follow(store: SessionStore, session_id: str, start: LogMark, raw: bool,
            queries: QueryFilter | None) -> None:
    """Print new output as it comes; rendered text goes out a whole line at a time."""
    from gzia.sessions.background import follow

    pending = b""
    for chunk in follow(store, session_id, start):
        if raw:
            _write(chunk, raw=True, queries=queries)
            continue
        pending += chunk
        complete, newline, pending = pending.rpartition(b"\n")
        if newline:
            _write(complete + newline, raw=False)
    if raw:
        _write(b"", raw=True, queries=queries, end=True)
    elif pending:
        _write(pending, raw=False)


@session_command(
    "send-keys", help="Send keys to a background session: tmux-style names (Enter, Escape, "
                      "C-c, Up, M-x) or literal text.",
    options=[argument("keys", nargs=-1, required=True, metavar="KEYS...",
                      help="Key names or text."),
             click.option("-l", "--literal", is_flag=True,
                          help="Send every argument as text, no key names.")])
def send_keys_command(session: str, keys: tuple[str, ...], literal: bool,
                      directory: str | None) -> None:
    from gzia.supervisor.keys import keys_bytes

    data = "".join(keys).encode("utf-8", "surrogateescape") if literal else keys_bytes(list(keys))
    _send(session, directory, data)


@session_command(
    "paste", help="Paste text (or stdin with -) into a background session as a bracketed paste.",
    options=[argument("text", required=False, metavar="[TEXT|-]",
                      help="The text; - or none reads stdin.")])
def paste_command(session: str, text: str | None, directory: str | None) -> None:
    from gzia.supervisor.keys import bracketed_paste

    raw = _read_stdin() if text in (None, "-") else _encode(text)
    _send(session, directory, bracketed_paste(raw))


@session_command(
    "submit", help="Type text into a background session, then Enter.",
    options=[argument("text", required=False, metavar="[TEXT]",
                      help="The text (none: just Enter)."),
             click.option("--when", type=click.Choice(["idle"]),
                          help="Hold the text until the agent's turn is over (idle)."),
             click.option("--timeout", type=Seconds(),
                          help="With --when: give up after S seconds (exit 1, TIMEOUT; "
                               "nothing sent).")])
def submit_command(session: str, text: str | None, when: str | None,
                   timeout: float | None, directory: str | None) -> None:
    if when is not None:
        from gzia.sessions.state_wait import wait_until_idle

        store, record = open_session(session, directory)
        wait_until_idle(store, record, timeout)
    _send(session, directory, _encode(text or "") + b"\r")


def _read_stdin() -> bytes:
    """Stdin up to one byte past what a session takes at once (send_input refuses it)."""
    from gzia.sessions.background import MAX_INPUT_BYTES

    binary = getattr(sys.stdin, "buffer", None)
    if binary is not None:
        return bytes(binary.read(MAX_INPUT_BYTES + 1))
    return _encode(sys.stdin.read(MAX_INPUT_BYTES + 1))


def _encode(text: str | None) -> bytes:
    return (text or "").encode("utf-8", "surrogateescape")


def _send(session: str, directory: str | None, data: bytes) -> None:
    from gzia.sessions.background import send_input

    _, record = open_session(session, directory)
    sent = send_input(record, data)
    output.emit({"id": record.id, "bytes": sent},
                lambda: output.line(ngettext("✓ 1 byte sent to session '{id}'.",
                                             "✓ {count} bytes sent to session '{id}'.", sent,
                                             id=record.id)))


@session_command(
    "attach", help="Attach this terminal to a background session; Ctrl-] detaches and leaves "
                   "it running.",
    options=[click.option("--detach-key", default="C-]", metavar="KEY",
                          help="The key that detaches (tmux-style name).")])
def attach_command(session: str, detach_key: str, directory: str | None) -> None:
    from gzia.sessions.background import attach_session
    from gzia.supervisor.attach import DETACHED, AttachStreams

    store, record = open_session(session, directory)
    stdout = output.current().stdout
    streams = AttachStreams(0, stdout.fileno(), _detach_byte(detach_key))
    output.progress(gettext("[attached to session {id}: {key} detaches]", id=record.id,
                            key=detach_key))
    stdout.flush()
    how, record = attach_session(store, record, streams)
    key = (N_("[detached from session {id}: it keeps running]")
           if how == DETACHED else N_("[session {id} ended: {status}]"))
    output.progress("\r\n" + gettext(key, id=record.id, status=status_text(record.status)))
    output.emit({"id": record.id, "detached": how == DETACHED, "status": record.status})


def _detach_byte(name: str) -> int:
    from gzia.contract import InvalidInputError
    from gzia.supervisor.keys import key_bytes

    data = key_bytes(name)
    if len(data) != 1:
        raise InvalidInputError(N_("the detach key must be one "
                                   "key that sends one byte, not '{key}'"),
                                key=name, details={"key": name})
    return data[0]
