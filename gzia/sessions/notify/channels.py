"""The notification channels: a command hook, a webhook, the desktop.

Each sends one :class:`~gzia.sessions.notify.event.Notification` within the configured
time and says how it went (:class:`Delivery`); none raises. What a failure says names
no credential: a webhook is named by its host alone, a program's own words are masked.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from gzia import proc
from gzia.contract import GzError
from gzia.credentials import mask_credentials
from gzia.i18n import N_, gettext
from gzia.sessions.notify.event import Notification

_MSG_FAILURE: dict[object, str] = {
    "exit": N_("'{program}' exited with code {code}: {output}"),
    "bad_url": N_("the webhook setting is not an http or https URL"),
    "status": N_("{host} answered HTTP {status}"),
}
DESKTOP_PROGRAM = "notify-send"
OUTPUT_LIMIT = 200
"""Characters of a failing program's output kept in the warning."""
WEBHOOK_ATTEMPTS = 3
BACKOFF_S = (0.5, 1.0)
"""Pauses before the second and third attempt (cut short by the channel's deadline)."""
RETRIED_STATUSES = frozenset({408, 425, 429, 500, 502, 503, 504})

if TYPE_CHECKING:
    import httpx


@dataclass(frozen=True)
class Delivery:
    channel: str
    ok: bool
    detail: str | None = None
    attempts: int = 1

    def to_json(self) -> dict[str, object]:
        return {"channel": self.channel, "ok": self.ok, "detail": self.detail,
                "attempts": self.attempts}


class WebhookClient:
    """A run's one HTTP client for its webhook, made once (:func:`make_client`: proxies,
    the trust store; its TLS context alone costs a tenth of a second) and shared by its
    posts; :meth:`warm` makes it ahead, while a state waits out its debounce."""

    def __init__(self, timeout_s: float) -> None:
        self.timeout_s = timeout_s
        self._lock = threading.Lock()
        self._client: httpx.Client | None = None

    def get(self) -> httpx.Client:
        """The client; :class:`GzError` when the proxy or ``SSL_CERT_FILE`` is unusable."""
        # lazy: ssl and the HTTP client load only when a webhook is sent
        from gzia.update.client import make_client

        with self._lock:
            if self._client is None:
                self._client = make_client(self.timeout_s)
            return self._client

    def warm(self) -> None:
        def make() -> None:
            with contextlib.suppress(GzError):  # the post itself reports it
                self.get()

        threading.Thread(target=make, daemon=True).start()

    def close(self) -> None:
        with self._lock:
            if self._client is not None:
                self._client.close()
                self._client = None


def desktop_program() -> str | None:
    return shutil.which(DESKTOP_PROGRAM)


def run_command(argv: Sequence[str], notification: Notification, timeout_s: float,
                cwd: Path) -> Delivery:
    """The hook: ``argv`` (never a shell), the document on stdin, ``GZ_SESSION_*`` set."""
    env = {**os.environ, **notification.environment()}
    stdin = json.dumps(notification.document, ensure_ascii=False) + "\n"
    try:
        done = proc.run(argv, cwd=cwd, env=env, timeout=timeout_s, input_text=stdin)
    except GzError as exc:  # not found, or stopped at the deadline
        return Delivery("command", False, mask_credentials(exc.message))
    except OSError as exc:  # not executable, a cwd gone
        return Delivery("command", False, mask_credentials(f"{argv[0]}: {exc.strerror or exc}"))
    if done.ok:
        return Delivery("command", True)
    output = (done.stderr.strip() or done.stdout.strip()).splitlines()
    detail = gettext(_MSG_FAILURE["exit"], program=argv[0], code=done.returncode,
                     output=(output[-1] if output else "")[:OUTPUT_LIMIT])
    return Delivery("command", False, mask_credentials(detail))


def show_on_desktop(notification: Notification, timeout_s: float, cwd: Path) -> Delivery:
    program = desktop_program()
    if program is None:
        return Delivery("desktop", False, gettext(N_("{program} is not installed"),
                                                  program=DESKTOP_PROGRAM))
    argv = [program, "--app-name=gz-ia", "gz-ia", notification.text]
    try:
        done = proc.run(argv, cwd=cwd, timeout=timeout_s)
    except (GzError, OSError) as exc:
        return Delivery("desktop", False, str(getattr(exc, "message", exc)))
    detail = None if done.ok else done.stderr.strip()[:OUTPUT_LIMIT] or str(done.returncode)
    return Delivery("desktop", done.ok, detail)


def post_webhook(url: str, notification: Notification, timeout_s: float,
                 clients: WebhookClient | None = None) -> Delivery:
    """POST the document (through ``clients``' client, else a client of its own);
    connection failures, timeouts and the statuses a retry may cure are tried again after
    a pause, within ``timeout_s`` in all."""
    # lazy: ssl and the HTTP client load only when a webhook is sent
    from gzia.update.client import usable_url

    if not usable_url(url):
        return Delivery("webhook", False, gettext(_MSG_FAILURE["bad_url"]))
    deadline = time.monotonic() + timeout_s
    own = clients is None
    clients = clients or WebhookClient(timeout_s)
    try:
        return _post_with_retries(clients.get(), url, notification, deadline)
    except GzError as exc:  # an unusable proxy setting or SSL_CERT_FILE
        return Delivery("webhook", False, exc.message)
    finally:
        if own:
            clients.close()


def _post_with_retries(client: httpx.Client, url: str, notification: Notification,
                       deadline: float) -> Delivery:
    detail, attempt = "", 0
    for attempt in range(1, WEBHOOK_ATTEMPTS + 1):
        retry, detail = _post_once(client, url, notification, deadline)
        if not detail:
            return Delivery("webhook", True, attempts=attempt)
        pause = BACKOFF_S[min(attempt, len(BACKOFF_S)) - 1]
        if not retry or attempt == WEBHOOK_ATTEMPTS or time.monotonic() + pause >= deadline:
            break
        time.sleep(pause)
    return Delivery("webhook", False, detail, attempts=attempt)


def _post_once(client: httpx.Client, url: str, notification: Notification,
               deadline: float) -> tuple[bool, str]:
    """One POST: (whether a retry may help, what failed; empty when it went through)."""
    # lazy: ssl and the HTTP client load only when a webhook is sent
    from gzia.update.client import host_of, translate_errors
    from gzia.update.errors import SourceFailure

    remaining = max(0.1, deadline - time.monotonic())
    try:
        with translate_errors(url, client):
            response = client.post(url, json=notification.document, timeout=remaining)
    except SourceFailure as exc:
        return True, exc.message
    if 200 <= response.status_code < 300:
        return False, ""
    return response.status_code in RETRIED_STATUSES, gettext(
        _MSG_FAILURE["status"], host=host_of(url), status=response.status_code)
