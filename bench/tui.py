"""``gz-ia start`` (the zipapp, on a real PTY): time to the first full frame over 1,000
sessions, and key press -> answered frame while 20 background sessions write output.

Usage: python bench/tui.py [--pyz dist/gz-ia.pyz] [--sessions 1000] [--runs 5]
                           [--writers 20] [--presses 40]

The program runs on a PTY whose output a terminal emulator (pyte) draws as it arrives
(tests/tui/pty_screen.py); every time is taken when the deciding bytes arrive.

1. Start: from spawning ``gz-ia start`` in a repository holding ``--sessions`` records
   (written as bench/session_list.py writes them) to the first frame that shows the
   table's rows and the footer. Baselines in the same run, on the same PTY: a bare
   Textual app drawing one line (Textual's own floor), and ``gz-ia --version``.
   Goal: under 1.0 s.
2. Keys: the same TUI while ``--writers`` background sessions (``exec -b``) each print a
   line every 50 ms; Down and Up alternate, and each press is timed until the frame
   with the cursor on the expected row arrives. Baseline: the same presses with no
   writer running. Goal: under 100 ms (median and 95th percentile are printed).
"""

from __future__ import annotations

import argparse
import json
import os
import queue
import re
import select
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import partial
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT)]  # tests/tui/pty_screen.py: the PTY and pyte driver

from _git import make_repo  # noqa: E402 - bench/ is the script's directory
from session_list import write_records  # noqa: E402

from tests.tui.pty_screen import Lines, PtyScreen  # noqa: E402

START_GOAL_S = 1.0
KEY_GOAL_S = 0.1
UNANSWERED_S = 5.0
"""A press whose frame has not come after this long counts as this long (and unanswered)."""
DOWN, UP, CTRL_Q = b"\x1b[B", b"\x1b[A", b"\x11"
ROW = re.compile(r" ([0-9a-f]{8})  ")
WRITER = "i=0; while :; do i=$((i+1)); echo \"output line $i\"; sleep 0.05; done"
HELLO = ("from textual.app import App\nfrom textual.widgets import Static\n"
         "class Hello(App):\n    BINDINGS = [('ctrl+q', 'quit')]\n"
         "    def compose(self):\n        yield Static('hello from textual')\n"
         "Hello().run()\n")


def terminal_env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES")}
    return {**env, "TERM": "xterm-256color"}


def rows(lines: Lines) -> list[tuple[int, str]]:
    return [(y, m.group(1)) for y, line in enumerate(lines) if (m := ROW.match(line))]


def header_drawn(lines: Lines) -> bool:
    """The sessions screen is up: its footer is drawn (the rows may still be loading)."""
    return "Quit" in lines[-1]


def table_drawn(lines: Lines) -> bool:
    """The first full frame: the footer, and the table's rows."""
    return bool(rows(lines)) and header_drawn(lines)


class StampedScreen(PtyScreen):
    """A PtyScreen whose output is read, and each chunk stamped, by a thread that does
    nothing else. Drawing a chunk (pyte) and testing the screen take milliseconds each;
    read in between, a chunk that came meanwhile was stamped late, which once added about
    0.1 s to every key press measured (a bare Textual table answers in under 10 ms)."""

    def __init__(self, argv: list[str], **options: Any) -> None:
        super().__init__(argv, **options)
        self.arrivals: queue.SimpleQueue[tuple[float, bytes]] = queue.SimpleQueue()
        self.stopped = threading.Event()
        self.pump = threading.Thread(target=self._pump, daemon=True)
        self.pump.start()

    def _pump(self) -> None:
        while not self.stopped.is_set():
            ready, _, _ = select.select([self.master], [], [], 0.05)
            if not ready:
                continue
            try:
                data = os.read(self.master, 65536)
            except OSError:
                return
            if not data:
                return
            self.arrivals.put((time.monotonic(), data))

    def read(self, timeout: float) -> float | None:
        try:
            arrived, data = self.arrivals.get(timeout=max(0.0, timeout))
        except queue.Empty:
            return None
        self.raw += data
        self.stream.feed(data)
        return arrived

    def _pending(self) -> bool:
        return not self.arrivals.empty()

    def close(self) -> None:
        self.stopped.set()
        self.pump.join()
        super().close()


@contextmanager
def running(argv: list[str]) -> Iterator[PtyScreen]:
    screen = StampedScreen(argv, env=terminal_env(), size=(120, 40))
    try:
        yield screen
    finally:
        screen.close()


def first_frame_s(argv: list[str], drawn: Callable[[Lines], bool]) -> float:
    """Seconds from spawning ``argv`` to the frame ``drawn`` recognises; then it quits."""
    start = time.monotonic()
    with running(argv) as screen:
        arrived = screen.wait_for(drawn, "the first frame", timeout=60)
        screen.type(CTRL_Q)
        screen.wait_exit()
    return arrived - start


def median_s(action: Callable[[], float], runs: int) -> float:
    action()  # warm: the zipapp's first run extracts it
    return statistics.median(action() for _ in range(runs))


def cursor_row(screen: PtyScreen) -> int | None:
    """The line of the table row drawn in the one background no other row has."""
    lines = screen.lines  # built anew from pyte's buffer on every access
    found = rows(lines)
    backgrounds = [str(screen.screen.buffer[y][lines[y].index(sid)].bg) for y, sid in found]
    unique = [y for (y, _), bg in zip(found, backgrounds, strict=True)
              if backgrounds.count(bg) == 1]
    return unique[0] if len(found) > 1 and len(unique) == 1 else None


def cursor_moved(screen: PtyScreen, before: int | None, _lines: Lines) -> bool:
    return cursor_row(screen) not in (None, before)


def key_latencies(screen: PtyScreen, presses: int) -> list[float]:
    """Down, then Up, ...: each timed until the cursor is drawn on another line (the
    list's own refresh may redraw the rows meanwhile, but it keeps the cursor's line)."""
    samples = []
    for _ in range(presses):
        screen.wait_for(lambda _: cursor_row(screen) is not None, "the cursor", timeout=60)
        before = cursor_row(screen)
        top = rows(screen.lines)[0][0]
        sent = time.monotonic()
        screen.type(DOWN if before == top else UP)
        try:
            arrived = screen.wait_for(partial(cursor_moved, screen, before),
                                      "the cursor to move", timeout=UNANSWERED_S)
        except AssertionError:  # counted as the whole wait: the percentiles show it
            arrived = sent + UNANSWERED_S
        samples.append(arrived - sent)
    return samples


def start_writers(gzia: list[str], repo: Path, count: int) -> list[str]:
    ids = []
    for _ in range(count):
        done = subprocess.run([*gzia, "--json", "exec", "-b", "--timeout", "600", "--", "sh",
                               "-c", WRITER], cwd=repo, capture_output=True, text=True,
                              check=True)
        ids.append(json.loads(done.stdout)["data"]["id"])
    return ids


def stop_writers(gzia: list[str], repo: Path, ids: list[str]) -> None:
    for session_id in ids:
        subprocess.run([*gzia, "session", "kill", session_id], cwd=repo,
                       capture_output=True, check=False)


def percentile(samples: list[float], fraction: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def report_keys(label: str, samples: list[float]) -> float:
    median, p95 = statistics.median(samples), percentile(samples, 0.95)
    unanswered = sum(1 for sample in samples if sample >= UNANSWERED_S)
    print(f"{label:<44} median {median * 1000:6.1f} ms   p95 {p95 * 1000:6.1f} ms   "
          f"unanswered after {UNANSWERED_S:.0f} s: {unanswered}/{len(samples)}")
    return p95


def bench_start(gzia: list[str], repo: Path, runs: int) -> float:
    start = [*gzia, "start", "-d", str(repo)]
    hello = [sys.executable, "-c", HELLO]
    baseline = median_s(lambda: first_frame_s(hello, lambda ls: "hello" in ls[0]), runs)
    version = median_s(lambda: _wall_s([*gzia, "--version"]), runs)
    screen_s = median_s(lambda: first_frame_s(start, header_drawn), runs)
    seconds = median_s(lambda: first_frame_s(start, table_drawn), runs)
    print(f"{'bare Textual app, first frame':<44} {baseline * 1000:7.1f} ms   1.00x")
    print(f"{'gz-ia --version':<44} {version * 1000:7.1f} ms")
    print(f"{'gz-ia start, first frame with the footer':<44} {screen_s * 1000:7.1f} ms  "
          f"{screen_s / baseline:5.2f}x")
    print(f"{'gz-ia start, first full frame':<44} {seconds * 1000:7.1f} ms  "
          f"{seconds / baseline:5.2f}x")
    return seconds


def bench_keys(gzia: list[str], repo: Path, writers: int, presses: int) -> float:
    argv = [*gzia, "start", "-d", str(repo)]
    with running(argv) as screen:
        report_keys("keys, no writer (baseline)", key_latencies(screen, presses))
        screen.type(CTRL_Q)
        screen.wait_exit()
    ids = start_writers(gzia, repo, writers)
    try:
        with running(argv) as screen:
            p95 = report_keys(f"keys, {writers} background sessions writing",
                              key_latencies(screen, presses))
            screen.type(CTRL_Q)
            screen.wait_exit()
    finally:
        stop_writers(gzia, repo, ids)
    return p95


def _wall_s(argv: list[str]) -> float:
    start = time.monotonic()
    subprocess.run(argv, stdout=subprocess.DEVNULL, check=True)
    return time.monotonic() - start


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pyz", default="dist/gz-ia.pyz")
    parser.add_argument("--sessions", type=int, default=1000)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--writers", type=int, default=20)
    parser.add_argument("--presses", type=int, default=40)
    args = parser.parse_args()
    gzia = [sys.executable, str(Path(args.pyz).resolve())]
    with tempfile.TemporaryDirectory(prefix="gzia-bench-") as scratch:
        repo = make_repo(Path(scratch))
        write_records(repo, args.sessions)
        print(f"{args.sessions} sessions in the store, a 120x40 terminal")
        start = bench_start(gzia, repo, args.runs)
        p95 = bench_keys(gzia, repo, args.writers, args.presses)
    print(f"goal: first full frame < {START_GOAL_S:.1f} s: "
          f"{'met' if start < START_GOAL_S else 'NOT met'}")
    print(f"goal: key press answered < {KEY_GOAL_S * 1000:.0f} ms (p95): "
          f"{'met' if p95 < KEY_GOAL_S else 'NOT met'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
