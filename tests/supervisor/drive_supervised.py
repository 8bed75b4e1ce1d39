"""Runs one supervised command in its own process, as gz-ia would, and reports the outcome.

Usage: drive_supervised.py SPEC.json REPORT.json. The spec gives argv, cwd, env, pty,
grace_ms, timeout_s, log_path. The report holds the outcome, the pids passed to
``on_started``, and the state of the terminal (if stdin is one) before and after.
"""

from __future__ import annotations

import json
import os
import sys
import termios
from pathlib import Path
from typing import Any

from gzia.contract import GzError
from gzia.supervisor.command import Command
from gzia.supervisor.run import Started, run_supervised
from gzia.supervisor.watchdog import Watchdog


def terminal_state() -> dict[str, Any] | None:
    if not os.isatty(0):
        return None
    return {"foreground": os.tcgetpgrp(0) == os.getpgrp(), "lflag": termios.tcgetattr(0)[3]}


def main() -> int:
    spec = json.loads(Path(sys.argv[1]).read_text())
    report_path = Path(sys.argv[2])
    report: dict[str, Any] = {"terminal_before": terminal_state(), "gz_pid": os.getpid()}
    command = Command(
        tuple(spec["argv"]), Path(spec["cwd"]), dict(spec["env"]), pty=spec.get("pty", False),
        log_path=Path(spec["log_path"]) if spec.get("log_path") else None,
    )
    watchdog = Watchdog(kill_grace_ms=spec.get("grace_ms", 100), timeout_s=spec.get("timeout_s"))

    def started(info: Started) -> None:
        report["started"] = {"pid": info.pid, "pgid": info.pgid, "getpgid": os.getpgid(info.pid)}

    try:
        outcome = run_supervised(command, watchdog=watchdog, on_started=started)
    except GzError as exc:
        report["error"] = {"code": str(exc.code), "message": exc.message}
    else:
        report["outcome"] = {
            "pid": outcome.pid, "pgid": outcome.pgid, "exit_code": outcome.exit_code,
            "signal": outcome.signal, "end_reason": outcome.end_reason,
            "received_signal": outcome.received_signal,
        }
    report["terminal_after"] = terminal_state()
    report_path.write_text(json.dumps(report))
    return 0


if __name__ == "__main__":
    sys.exit(main())
