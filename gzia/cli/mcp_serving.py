"""Serving ``gz-ia mcp``: once the session's kernel is built, stdout belongs to the
protocol, so no envelope follows it, not even with ``--json``."""

from __future__ import annotations


def serve_session(session: str, directory: str | None, *, allow_agent_get: bool,
                  timeout: float, max_failures: int) -> None:
    from gzia.cli.output import current
    from gzia.orchy.service import start

    start(session, directory, on_serving=current().give_stdout_away,
          allow_agent_get=allow_agent_get, timeout=timeout, max_failures=max_failures)
