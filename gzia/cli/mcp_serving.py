"""``gz-ia mcp`` as both command lines run it (gzia.cli.mcp, and gzia.cli.quick, which
must not import the framework): once the session's kernel is built, stdout belongs to the
protocol, so no envelope follows it, not even with ``--json``."""

from __future__ import annotations

from gzia.orchy.limits import DEFAULT_MAX_FAILURES, DEFAULT_TIMEOUT


def serve_session(session: str, directory: str | None, *, allow_agent_get: bool = False,
                  timeout: float = DEFAULT_TIMEOUT,
                  max_failures: int = DEFAULT_MAX_FAILURES) -> None:
    from gzia.cli.output import give_stdout_away
    from gzia.orchy.service import start

    start(session, directory, on_serving=give_stdout_away, allow_agent_get=allow_agent_get,
          timeout=timeout, max_failures=max_failures)
