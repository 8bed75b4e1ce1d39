"""Process actions on background sessions: poll, output, send-keys, paste, submit, attach.

:func:`register` adds them to the ``session`` group. Each takes ``--json`` (one document
on stdout) and ``-d/--dir`` like every ``session`` subcommand, so scripts can drive an
agent: ``gz-ia session submit ID 'run the tests'``, then ``gz-ia session output ID --tail 20``.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Annotated

import typer

from gzia.cli import output
from gzia.cli.numbers import Count
from gzia.cli.session.common import Dir, SessionRef, open_session
from gzia.contract import WarningCode
from gzia.i18n import N_, gettext, ngettext
from gzia.sessions.output_reading import log_of, tail_lines
from gzia.views.words import holder_text, status_text

if TYPE_CHECKING:
    from gzia.sessions.store import SessionStore
    from gzia.supervisor.logfile import LogMark


def register(app: typer.Typer) -> None:
    app.command("poll", help="Show a session's state, exit code, bytes of output and "
                             "seconds since its last output.")(poll_command)
    app.command("output", help="Print a session's terminal output (-f: follow while it "
                               "runs).")(output_command)
    app.command("send-keys", help="Send keys to a background session: tmux-style names "
                                  "(Enter, Escape, C-c, Up, M-x) or literal text.")(send_keys)
    app.command("paste", help="Paste text (or stdin with -) into a background session as "
                              "a bracketed paste.")(paste_command)
    app.command("submit", help="Type text into a background session, then Enter.")(submit)
    app.command("attach", help="Attach this terminal to a background session; Ctrl-] "
                               "detaches and leaves it running.")(attach_command)


def poll_command(ctx: typer.Context, session: SessionRef, directory: Dir = None) -> None:
    from gzia.sessions.background import poll
    from gzia.views.sessions import exit_code_text

    _, record = open_session(ctx, session, directory)
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


Follow = Annotated[bool, typer.Option("-f", "--follow", help="Keep printing while it runs.")]
Tail = Annotated[int | None, typer.Option("--tail", click_type=Count(0), metavar="N",
                                          help="Only the last N lines.")]
Raw = Annotated[bool, typer.Option("--raw", help="The bytes as written, escape sequences "
                                                 "included.")]


def output_command(ctx: typer.Context, session: SessionRef, follow: Follow = False,  # noqa: PLR0917 - typer maps each flag to one parameter
                   tail: Tail = None, raw: Raw = False, directory: Dir = None) -> None:
    from gzia.supervisor.logfile import read_log_to_end

    store, record = open_session(ctx, session, directory)
    logged, start = read_log_to_end(log_of(record))
    data = tail_lines(logged, tail)
    if follow and not output.is_json():
        _write(data, raw)
        _follow(store, record.id, start, raw)
        output.emit(None)
        return
    if follow:
        from gzia.sessions.background import follow as follow_log

        data = tail_lines(data + b"".join(follow_log(store, record.id, start)), tail)
    if not data:
        warn_no_output_yet(record.id)
    output.emit(_output_json(record.id, data, raw), lambda: _write(data, raw))


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


def _write(data: bytes, raw: bool) -> None:
    from gzia.supervisor.render import render_text

    if raw:
        sys.stdout.flush()
        sys.stdout.buffer.write(data)
        sys.stdout.buffer.flush()
    else:
        sys.stdout.write(render_text(data))
        sys.stdout.flush()


def _follow(store: SessionStore, session_id: str, start: LogMark, raw: bool) -> None:
    """Print new output as it comes; rendered text goes out a whole line at a time."""
    from gzia.sessions.background import follow

    pending = b""
    for chunk in follow(store, session_id, start):
        if raw:
            _write(chunk, raw=True)
            continue
        pending += chunk
        complete, newline, pending = pending.rpartition(b"\n")
        if newline:
            _write(complete + newline, raw=False)
    if pending:
        _write(pending, raw=False)


Keys = Annotated[list[str], typer.Argument(metavar="KEYS...", help="Key names or text.")]
Literal = Annotated[bool, typer.Option("-l", "--literal",
                                       help="Send every argument as text, no key names.")]


def send_keys(ctx: typer.Context, session: SessionRef, keys: Keys,
              literal: Literal = False, directory: Dir = None) -> None:
    from gzia.supervisor.keys import keys_bytes

    data = "".join(keys).encode("utf-8", "surrogateescape") if literal else keys_bytes(keys)
    _send(ctx, session, directory, data)


Text = Annotated[str | None, typer.Argument(metavar="[TEXT|-]",
                                            help="The text; - or none reads stdin.")]


def paste_command(ctx: typer.Context, session: SessionRef, text: Text = None,
                  directory: Dir = None) -> None:
    from gzia.supervisor.keys import bracketed_paste

    raw = _read_stdin() if text in (None, "-") else _encode(text)
    _send(ctx, session, directory, bracketed_paste(raw))


SubmitText = Annotated[str | None, typer.Argument(metavar="[TEXT]",
                                                  help="The text (none: just Enter).")]


def submit(ctx: typer.Context, session: SessionRef, text: SubmitText = None,
           directory: Dir = None) -> None:
    _send(ctx, session, directory, _encode(text or "") + b"\r")


def _read_stdin() -> bytes:
    """Stdin up to one byte past what a session takes at once (send_input refuses it)."""
    from gzia.sessions.background import MAX_INPUT_BYTES

    binary = getattr(sys.stdin, "buffer", None)
    if binary is not None:
        return bytes(binary.read(MAX_INPUT_BYTES + 1))
    return _encode(sys.stdin.read(MAX_INPUT_BYTES + 1))


def _encode(text: str | None) -> bytes:
    return (text or "").encode("utf-8", "surrogateescape")


def _send(ctx: typer.Context, session: str, directory: str | None, data: bytes) -> None:
    from gzia.sessions.background import send_input

    _, record = open_session(ctx, session, directory)
    sent = send_input(record, data)
    output.emit({"id": record.id, "bytes": sent},
                lambda: output.line(ngettext("✓ 1 byte sent to session '{id}'.",
                                             "✓ {count} bytes sent to session '{id}'.", sent,
                                             id=record.id)))


DetachKey = Annotated[str, typer.Option("--detach-key", metavar="KEY",
                                        help="The key that detaches (tmux-style name).")]


def attach_command(ctx: typer.Context, session: SessionRef, detach_key: DetachKey = "C-]",
                   directory: Dir = None) -> None:
    from gzia.sessions.background import attach_session
    from gzia.supervisor.attach import DETACHED, AttachStreams

    store, record = open_session(ctx, session, directory)
    streams = AttachStreams(0, sys.stdout.fileno(), _detach_byte(detach_key))
    output.progress(gettext("[attached to session {id}: {key} detaches]", id=record.id,
                            key=detach_key))
    sys.stdout.flush()
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
