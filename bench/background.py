"""Background runs: holder throughput, holder memory, start latency.

Usage: python bench/background.py [--pyz dist/gz-ia.pyz] [--mb 50] [--big-mb 500] [--runs 5]

1. Throughput: an agent ``cat``s N MB through its PTY; the holder appends it to the log.
   Rate = log bytes / the run's recorded duration, against ``cat`` of the same bytes into
   a file, measured in the same run. Goal: at least 0.5x the ``cat`` rate.
   A PTY itself is the ceiling: the same bytes through a bare PTY, read by a tight loop
   that drops them, are measured too, with the terminal as a PTY starts (cooked: output
   processing turns each newline into CR LF) and in raw mode (as full-screen agents set
   it; here the agent runs ``stty raw -echo`` first). Each measurement is taken
   ``--runs`` times, in turns, and reported as the median.
2. Memory: the holder's peak resident size (``VmHWM``) after N MB and after ``--big-mb``
   MB of output (the agent sleeps a second after its output so the holder can be
   measured). Goal: flat, the same for both sizes.
3. Latency: ``exec -b -- true`` (until it returns with the record, ``running``) against
   the foreground ``exec -- true``, both from the zipapp. Medians of ``--runs``.
4. Read sizes: the bare PTY read 4 KiB, 64 KiB and 1 MiB at a time (a PTY hands out at
   most a few KiB per read, whatever the buffer).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
import tty
from collections.abc import Callable
from functools import partial
from pathlib import Path

from _git import make_repo  # bench/, the script's own directory

LINE = b"x" * 99 + b"\n"


def make_data(path: Path, megabytes: int) -> None:
    block = LINE * ((1 << 20) // len(LINE) + 1)
    with path.open("wb") as out:
        for _ in range(megabytes):
            out.write(block[: 1 << 20])


def gz(gzia: list[str], repo: Path, *args: str) -> dict[str, object]:
    done = subprocess.run([*gzia, "--json", *args], cwd=repo, capture_output=True,
                          text=True, check=False,
                          env={**os.environ, "GZ_SESSION_LOG_MAX_BYTES": str(1 << 40)})
    if done.returncode != 0:
        raise SystemExit(f"gz-ia {' '.join(args)} failed: {done.stdout}{done.stderr}")
    data: dict[str, object] = json.loads(done.stdout)["data"]
    return data


def wait_final(repo: Path, session_id: str, holder: int) -> tuple[dict[str, object], int]:
    """The final record, and the holder's peak resident KiB seen while it ran."""
    path = repo / ".harness" / "sessions" / f"{session_id}.json"
    peak = 0
    while True:
        peak = max(peak, _hwm_kib(holder))
        record = json.loads(path.read_text())
        if record["status"] != "running":
            return record, peak
        time.sleep(0.05)


def _hwm_kib(pid: int) -> int:
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return 0
    for line in status.splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1])
    return 0


def holder_run(gzia: list[str], repo: Path, data: Path, raw: bool = False) -> tuple[float, int]:
    """(MB/s through the holder, holder peak KiB); ``raw``: the agent sets raw mode first."""
    script = f'{"stty raw -echo; " if raw else ""}cat "{data}"; sleep 1'
    record = gz(gzia, repo, "exec", "-b", "--", "sh", "-c", script)
    holder = int(record["holder"]["pid"])  # type: ignore[index]
    final, peak = wait_final(repo, str(record["id"]), holder)
    log = Path(str(final["log_path"])).stat().st_size
    seconds = (int(str(final["duration_ms"])) - 1000) / 1000  # minus the agent's sleep
    return log / (1 << 20) / seconds, peak


def cat_rate(data: Path, target: Path) -> float:
    began = time.perf_counter()
    with target.open("wb") as out:
        subprocess.run(["cat", str(data)], stdout=out, check=True)
    return data.stat().st_size / (1 << 20) / (time.perf_counter() - began)


def pty_rate(data: Path, raw: bool = False, read_size: int = 1 << 16) -> float:
    """The ceiling: ``cat`` into a PTY whose master side a tight loop reads and drops."""
    master, slave = os.openpty()
    if raw:
        tty.setraw(slave)
    began = time.perf_counter()
    child = subprocess.Popen(["cat", str(data)], stdout=slave, stderr=slave)
    os.close(slave)
    total = 0
    while True:
        try:
            chunk = os.read(master, read_size)
        except OSError:  # EIO: the writer is gone
            break
        if not chunk:
            break
        total += len(chunk)
    child.wait()
    os.close(master)
    return total / (1 << 20) / (time.perf_counter() - began)


def medians(runs: int, measures: dict[str, Callable[[], float]]) -> dict[str, float]:
    """Each measure taken ``runs`` times, in turns (so load from elsewhere hits all)."""
    seen: dict[str, list[float]] = {name: [] for name in measures}
    for _ in range(runs):
        for name, measure in measures.items():
            seen[name].append(measure())
    return {name: statistics.median(values) for name, values in seen.items()}


def load() -> str:
    return "load average " + ", ".join(f"{x:.2f}" for x in os.getloadavg())


def latency(gzia: list[str], repo: Path, args: list[str], runs: int) -> float:
    times = []
    for _ in range(runs):
        began = time.perf_counter()
        gz(gzia, repo, *args)
        times.append(time.perf_counter() - began)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--pyz", default="dist/gz-ia.pyz")
    parser.add_argument("--mb", type=int, default=50)
    parser.add_argument("--big-mb", type=int, default=500)
    parser.add_argument("--runs", type=int, default=5)
    options = parser.parse_args()
    gzia = [sys.executable, str(Path(options.pyz).resolve())]
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        repo = make_repo(root)
        small, big = root / "small.bin", root / "big.bin"
        make_data(small, options.mb)
        print(f"before: {load()}")
        rates = medians(options.runs, {
            "cat": lambda: cat_rate(small, root / "cat.out"),
            "pty": lambda: pty_rate(small),
            "pty_raw": lambda: pty_rate(small, raw=True),
            "holder": lambda: holder_run(gzia, repo, small)[0],
            "holder_raw": lambda: holder_run(gzia, repo, small, raw=True)[0],
        })
        cat, pty, pty_raw = rates["cat"], rates["pty"], rates["pty_raw"]
        print(f"throughput {options.mb} MB, medians of {options.runs}: cat to a file "
              f"{cat:.0f} MB/s; bare PTY {pty:.0f} MB/s cooked, {pty_raw:.0f} MB/s raw")
        for name, ceiling in (("holder", pty), ("holder_raw", pty_raw)):
            rate = rates[name]
            print(f"  {'holder, agent in raw mode' if name == 'holder_raw' else 'holder':26}"
                  f"{rate:4.0f} MB/s: {rate / cat:.3f}x cat (goal >= 0.5x), "
                  f"{rate / ceiling:.2f}x the bare PTY")
        _, peak_small = holder_run(gzia, repo, small)
        make_data(big, options.big_mb)
        _, peak_big = holder_run(gzia, repo, big)
        print(f"holder peak RSS: {peak_small / 1024:.1f} MiB after {options.mb} MB, "
              f"{peak_big / 1024:.1f} MiB after {options.big_mb} MB (goal: flat)")
        background = latency(gzia, repo, ["exec", "-b", "--", "true"], options.runs)
        foreground = latency(gzia, repo, ["exec", "--", "true"], options.runs)
        print(f"start latency (median of {options.runs}): exec -b {background * 1000:.0f} ms, "
              f"foreground exec of true {foreground * 1000:.0f} ms, "
              f"ratio {background / foreground:.2f}x")
        sizes = medians(options.runs, {f"{size >> 10} KiB": partial(pty_rate, small, read_size=size)
                                       for size in (1 << 12, 1 << 16, 1 << 20)})
        print("bare PTY (cooked) by read size: "
              + ", ".join(f"{name} {rate:.0f} MB/s" for name, rate in sizes.items()))
        print(f"after: {load()}")


if __name__ == "__main__":
    main()
