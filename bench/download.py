"""Download benchmark: gz-ia's streaming download against curl, in the same run.

Serves a 10 MB and a 100 MB file on 127.0.0.1 (a sendfile server in a child process),
downloads the 100 MB one with curl and with gz-ia's download step (hashing while it
streams, as an update does), each several times, and prints the best throughput and the
ratio. Then prints gz-ia's peak memory (max RSS of a child process that downloads only)
for 10 MB and 100 MB. Goals: ratio >= 0.8 against curl; peak memory flat (the 100 MB
download needs no more memory than the 10 MB one).

Run: ``.venv/bin/python bench/download.py [--repeat N]``
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

MB = 1_000_000
SIZES = {"10MB": 10 * MB, "100MB": 100 * MB}

CHILD = """
import json, sys, time
from pathlib import Path
from gzia.update.client import make_client
from gzia.update.download import stream_to_file
from gzia.update.model import ReleaseFile
url, size, out = sys.argv[1], int(sys.argv[2]), Path(sys.argv[3])
def peak_kb():  # VmHWM restarts at exec, unlike ru_maxrss (inherited from the parent)
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1])
client = make_client(30.0)
before = peak_kb()
start = time.perf_counter()
digest, received = stream_to_file(client, ReleaseFile(out.name, url, size), None, out)
seconds = time.perf_counter() - start
after = peak_kb()
print(json.dumps({"seconds": seconds, "received": received, "rss_before_kb": before,
                  "rss_peak_kb": after, "sha256": digest}))
"""


class SendfileHandler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    root = Path()

    def log_message(self, format: str, *args: object) -> None:
        pass

    def do_GET(self) -> None:
        path = self.root / self.path.lstrip("/")
        if not path.is_file():
            self.send_error(404)
            return
        self.send_response(200)
        self.send_header("Content-Type", "application/octet-stream")
        self.send_header("Content-Length", str(path.stat().st_size))
        self.end_headers()
        with path.open("rb") as stream:
            self.connection.sendfile(stream)


def serve(root: str, port_file: str) -> None:
    SendfileHandler.root = Path(root)
    server = ThreadingHTTPServer(("127.0.0.1", 0), SendfileHandler)
    Path(port_file).write_text(str(server.server_address[1]))
    server.serve_forever()


def start_server(root: Path) -> tuple[subprocess.Popen[bytes], str]:
    port_file = root / "port"
    child = subprocess.Popen([sys.executable, __file__, "--serve", str(root), str(port_file)],
                             start_new_session=True)
    deadline = time.monotonic() + 10
    while not (port_file.exists() and port_file.read_text()):
        if time.monotonic() > deadline:
            raise SystemExit("server did not start")
        time.sleep(0.02)
    return child, f"http://127.0.0.1:{port_file.read_text()}"


def run_curl(url: str, out: Path) -> float:
    start = time.perf_counter()
    subprocess.run(["curl", "-sS", "--fail", "-o", str(out), url], check=True)
    return time.perf_counter() - start


def run_gzia(url: str, size: int, out: Path) -> dict[str, float]:
    env = {k: v for k, v in os.environ.items() if "proxy" not in k.lower()}
    done = subprocess.run([sys.executable, "-c", CHILD, url, str(size), str(out)], env=env,
                          check=True, capture_output=True, text=True)
    return json.loads(done.stdout)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    if shutil.which("curl") is None:
        raise SystemExit("curl is required for the baseline")
    with tempfile.TemporaryDirectory(prefix="gz-ia-bench-") as folder:
        root = Path(folder)
        for name, size in SIZES.items():
            with (root / name).open("wb") as out:
                for _ in range(size // MB):
                    out.write(os.urandom(MB))
        server, base = start_server(root)
        try:
            report(base, root, args.repeat)
        finally:
            os.killpg(server.pid, signal.SIGTERM)
            server.wait(10)


def report(base: str, root: Path, repeat: int) -> None:
    size = SIZES["100MB"]
    out = root / "out.bin"
    curl = min(run_curl(f"{base}/100MB", out) for _ in range(repeat))
    gzia = min(run_gzia(f"{base}/100MB", size, out)["seconds"] for _ in range(repeat))
    curl_rate, gzia_rate = size / curl / MB, size / gzia / MB
    print(f"100 MB download, best of {repeat}:")
    print(f"  curl   {curl_rate:8.1f} MB/s  ({curl:.3f} s)")
    print(f"  gz-ia  {gzia_rate:8.1f} MB/s  ({gzia:.3f} s, sha256 while streaming)")
    print(f"  ratio  {gzia_rate / curl_rate:8.2f}x curl (goal >= 0.80)")
    peaks = {name: run_gzia(f"{base}/{name}", n, out) for name, n in SIZES.items()}
    print("peak memory of the gz-ia download process (VmHWM):")
    for name, result in peaks.items():
        print(f"  {name:>6}  {result['rss_peak_kb'] / 1024:7.1f} MiB "
              f"(before download {result['rss_before_kb'] / 1024:.1f} MiB)")
    growth = peaks["100MB"]["rss_peak_kb"] / peaks["10MB"]["rss_peak_kb"]
    print(f"  ratio  {growth:8.2f}x for 10x the bytes (goal: flat, ~1.00)")


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "--serve":
        serve(sys.argv[2], sys.argv[3])
    else:
        main()
