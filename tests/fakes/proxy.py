"""A real HTTP proxy with basic auth: the ``proxy.py`` package in a child process.

``ProxyProcess(user, password)`` starts ``python -m proxy`` on 127.0.0.1 with an ephemeral
port (``--port-file``), ``--basic-auth`` and an access log; :attr:`url` carries the
credentials (``http://user:password@127.0.0.1:port``), :meth:`url_with` other ones, and
:meth:`log_since` returns the access-log text written after a mark (``mark()``), so a test
can prove a request went through the proxy (``CONNECT 127.0.0.1:<port>`` for HTTPS, ``GET
127.0.0.1:<port>/...`` for plain HTTP) or was refused (``ProxyAuthenticationFailed``).
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path


class ProxyProcess:
    def __init__(self, workdir: Path, user: str = "proxyuser", password: str = "s3cr3t-pr0xy"):  # noqa: S107
        self.user, self.password = user, password
        self.workdir = workdir
        self.log = workdir / "proxy.log"
        self.port = 0
        self._child: subprocess.Popen[bytes] | None = None

    def start(self) -> ProxyProcess:
        port_file = self.workdir / "proxy.port"
        argv = [sys.executable, "-m", "proxy", "--hostname", "127.0.0.1", "--port", "0",
                "--port-file", str(port_file), "--basic-auth", f"{self.user}:{self.password}",
                "--num-acceptors", "1", "--log-file", str(self.log),
                "--data-dir", str(self.workdir / "data")]
        self._child = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                       start_new_session=True)
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            text = port_file.read_text().strip() if port_file.exists() else ""
            if text and _listening(int(text)):
                self.port = int(text)
                return self
            if self._child.poll() is not None:
                break
            time.sleep(0.05)
        self.stop()
        log = self.log.read_text() if self.log.exists() else ""
        raise RuntimeError(f"proxy.py did not start: {log}")

    def stop(self) -> None:
        if self._child is not None and self._child.poll() is None:
            os.killpg(self._child.pid, signal.SIGTERM)
            try:
                self._child.wait(5)
            except subprocess.TimeoutExpired:
                os.killpg(self._child.pid, signal.SIGKILL)
                self._child.wait(5)
        self._child = None

    @property
    def url(self) -> str:
        return self.url_with(self.user, self.password)

    def url_with(self, user: str, password: str) -> str:
        return f"http://{user}:{password}@127.0.0.1:{self.port}"

    def mark(self) -> int:
        return self.log.stat().st_size if self.log.exists() else 0

    def log_since(self, mark: int) -> str:
        time.sleep(0.1)  # the access log line is written when the connection closes
        with self.log.open("rb") as stream:
            stream.seek(mark)
            return stream.read().decode(errors="replace")


def _listening(port: int) -> bool:
    import socket

    try:
        with socket.create_connection(("127.0.0.1", port), timeout=0.2):
            return True
    except OSError:
        return False
