"""``gz-ia session output`` over pathological 3 MB logs against reading the file.

Usage: python bench/output.py [--runs N] [--megabytes 3]

For each shape of log it writes a background session's log of that size and a record
naming it, then measures in the same run:

* baseline: reading the log's bytes (what any reader must do at least);
* ``render_text`` of those bytes alone (the renderer ``session output`` and the TUI's
  preview share);
* ``session output ID`` (rendered text) run in-process through ``gzia.cli.main`` (find
  the project, load the record, read the log, render, write).

The shapes: ``long line, many \\r`` (one long write, then many short overwrites of the
same line: what made the renderer quadratic), ``progress bars`` (many ``\\r`` redraws of
growing bars), ``short lines``, ``ANSI`` (colours, titles, line erases on every line) and
``backspaces``. Prints the best of ``--runs`` CPU times and the ratio to reading the file.
Goal: ``session output`` of each 3 MB log in under one second.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

from metrics import best_seconds  # bench/, the script's own directory

GOAL_S = 1.0
SESSION_ID = "0b7e11a5"


def long_line_many_returns(size: int) -> bytes:
    return b"=" * (size // 2) + b"\r-" * (size // 4) + b"\n"


def progress_bars(size: int) -> bytes:
    out, step = bytearray(), 0
    while len(out) < size:
        out += b"\r[" + b"#" * (step % 70) + b" " * (70 - step % 70) + b"] %3d%%" % (step % 101)
        step += 1
        if step % 5000 == 0:
            out += b"\n"
    return bytes(out) + b"\n"


def short_lines(size: int) -> bytes:
    return b"test ok\n" * (size // 8)


def ansi(size: int) -> bytes:
    line = (b"\x1b]0;agent\x07\x1b[2K\x1b[1;32mPASS\x1b[0m tests/test_one.py "
            b"\x1b[2m(12 ms)\x1b[0m\r\n")
    return line * (size // len(line))


def backspaces(size: int) -> bytes:
    return b"typed\b\b\bx" * (size // 9) + b"\n"


SHAPES: dict[str, Callable[[int], bytes]] = {
    "long line, many \\r": long_line_many_returns, "progress bars": progress_bars,
    "short lines": short_lines, "ANSI": ansi, "backspaces": backspaces}


def make_project(root: Path, log: bytes) -> Path:
    """A project in direct mode whose one finished background session logged ``log``."""
    from gzia.sessions.record import SessionRecord

    project = root / "project"
    sessions = project / ".harness" / "sessions"
    logs = project / ".harness" / "logs"
    sessions.mkdir(parents=True)
    logs.mkdir()
    (logs / f"{SESSION_ID}.log").write_bytes(log)
    record = SessionRecord(id=SESSION_ID, provider="shell", status="completed",
                           working_dir=str(project), started_at="2026-12-01T12:00:00Z",
                           finished_at="2026-12-01T12:01:00Z", duration_ms=60_000,
                           exit_code=0, end_reason="process_exit",
                           log_path=str(logs / f"{SESSION_ID}.log"))
    (sessions / f"{SESSION_ID}.json").write_text(record.to_text())
    return project


def read_log(log: Path) -> None:
    log.read_bytes()


def render_log(data: bytes) -> None:
    from gzia.supervisor.render import render_text

    render_text(data)


def session_output(project: Path) -> None:
    from gzia.cli import main

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = main(["session", "output", SESSION_ID, "-d", str(project)])
    assert code == 0, out.getvalue()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--megabytes", type=float, default=3.0)
    args = parser.parse_args()
    size = int(args.megabytes * 1_000_000)
    print(f"{'log (' + str(args.megabytes) + ' MB)':<22} {'read file':>10} {'render':>10} "
          f"{'ratio':>7} {'session output':>15} {'ratio':>7}")
    verdicts = []
    with tempfile.TemporaryDirectory(prefix="gzia-bench-output-") as scratch:
        for n, (name, shape) in enumerate(SHAPES.items()):
            project = make_project(Path(scratch) / str(n), shape(size))
            log = project / ".harness" / "logs" / f"{SESSION_ID}.log"
            data = log.read_bytes()
            base, render, command = best_seconds(
                [lambda f=log: read_log(f), lambda d=data: render_log(d),
                 lambda p=project: session_output(p)], args.runs)
            verdicts.append(command < GOAL_S)
            print(f"{name:<22} {base * 1000:>7.2f} ms {render * 1000:>7.1f} ms "
                  f"{render / base:>6.0f}x {command * 1000:>12.1f} ms {command / base:>6.0f}x"
                  f"  {'ok' if command < GOAL_S else 'OVER'}")
    print(f"goal: session output under {GOAL_S:.0f} s for each log: "
          f"{'met' if all(verdicts) else 'NOT met'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
