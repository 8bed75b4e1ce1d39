"""Notification latency: from the event to the webhook's receipt of its POST.

Usage: python bench/notify_latency.py [--runs N] [--debounce-ms MS]
A webhook receiver runs on 127.0.0.1 and notes when each POST arrives.

- end of a run: a real background session (``python -m gzia exec -b -- <agent>`` in a
  fresh git repository, the webhook in the user's settings file) whose agent notes the
  time and exits; latency = receipt - the agent's last moment, against the baseline of
  the same run's final record (``finished_at`` - that moment). The difference is the
  holder's POST, httpx and the TLS context imported then (a holder imports them only
  when it has something to send). Goal: median < baseline + 1 s.
- a state transition: the notifier of a run (in this process, as the owner runs it) told
  of a ``waiting`` transition that then holds; latency = receipt - (transition +
  debounce), the baseline being the debounce itself. Goal: median < 50 ms.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import ClassVar

from _git import make_repo  # bench/, the script's own directory

END_GOAL_S = 1.0
STATE_GOAL_S = 0.05
AGENT = "import sys, time\nopen(sys.argv[1], 'w').write(repr(time.time()))\n"


class Receiver(BaseHTTPRequestHandler):
    arrivals: ClassVar[list[float]] = []

    def do_POST(self) -> None:
        arrived = time.time()
        self.rfile.read(int(self.headers.get("Content-Length") or 0))
        self.send_response(200)
        self.send_header("Content-Length", "0")
        self.end_headers()
        Receiver.arrivals.append(arrived)

    def log_message(self, format: str, *args: object) -> None:
        pass


def serve() -> ThreadingHTTPServer:
    server = ThreadingHTTPServer(("127.0.0.1", 0), Receiver)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def wait_arrivals(count: int, timeout: float = 30.0) -> float:
    deadline = time.monotonic() + timeout
    while len(Receiver.arrivals) < count:
        if time.monotonic() > deadline:
            raise RuntimeError("no notification arrived")
        time.sleep(0.001)
    return Receiver.arrivals[count - 1]


def one_end(repo: Path, agent: Path, env: dict[str, str], mark: Path) -> tuple[float, float]:
    """(agent's exit -> final record, agent's exit -> the POST's arrival)."""
    from gzia.sessions.record import parse_rfc3339

    mark.unlink(missing_ok=True)
    expected = len(Receiver.arrivals) + 1
    started = subprocess.run([sys.executable, "-m", "gzia", "--json", "exec", "-b", "--",
                              sys.executable, str(agent), str(mark)], cwd=repo, env=env,
                             check=True, capture_output=True, text=True)
    session_id = json.loads(started.stdout)["data"]["id"]
    arrived = wait_arrivals(expected)
    exited = float(mark.read_text())
    record = json.loads((repo / ".harness" / "sessions" / f"{session_id}.json").read_text())
    return parse_rfc3339(record["finished_at"]).timestamp() - exited, arrived - exited


def one_state(repo: Path, url: str, debounce_s: float, number: int) -> float:
    from gzia.sessions.agent_state import AgentState, Transition
    from gzia.sessions.notify import Notifier
    from gzia.sessions.notify.settings import NotifySettings
    from gzia.sessions.project import find_project
    from gzia.sessions.record import SessionRecord, now_rfc3339
    from gzia.sessions.store import SessionStore

    store = SessionStore(find_project(repo))
    session_id = f"{number:08x}"
    store.create(SessionRecord(id=session_id, provider="shell", status="running",
                               started_at=now_rfc3339(), working_dir=str(repo)))
    settings = NotifySettings(None, url, False, debounce_s, 5.0)
    notifier = Notifier(store, session_id, settings, lambda: False)
    expected = len(Receiver.arrivals) + 1
    change = Transition(session_id, AgentState.WAITING, now_rfc3339(),
                        previous=AgentState.WORKING)
    store.update(session_id, lambda r: vars(r).update(state="waiting", state_since=change.since))
    began = time.time()
    notifier.transition(change)
    return wait_arrivals(expected) - (began + debounce_s)


def report(name: str, samples: list[float], goal_s: float) -> bool:
    median = statistics.median(samples)
    print(f"{name:<18} median {median * 1000:7.1f} ms  max {max(samples) * 1000:7.1f} ms  "
          f"goal < {goal_s * 1000:.0f} ms: {'met' if median < goal_s else 'NOT met'}")
    return median < goal_s


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--debounce-ms", type=int, default=200)
    args = parser.parse_args()
    server = serve()
    url = f"http://127.0.0.1:{server.server_address[1]}/hook"
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        repo = make_repo(root)
        config = root / "config.toml"
        config.write_text(f"notify_webhook = {json.dumps(url)}\nnotify_desktop = false\n")
        env = {**os.environ, "GZ_CONFIG_FILE": str(config)}
        agent = root / "agent.py"
        agent.write_text(AGENT)
        ends = [one_end(repo, agent, env, root / "exited") for _ in range(args.runs)]
        states = [one_state(repo, url, args.debounce_ms / 1000, n) for n in range(args.runs)]
    server.shutdown()
    baseline = statistics.median(record for record, _ in ends)
    print(f"baseline: exit -> final record, median {baseline * 1000:.1f} ms")
    verdicts = [report("end of a run", [posted for _, posted in ends], baseline + END_GOAL_S),
                report(f"waiting (+{args.debounce_ms} ms)", states, STATE_GOAL_S)]
    print(f"goals: {'met' if all(verdicts) else 'NOT met'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
