"""Everything ``gz-ia mcp`` does, from the session's id to the end of stdin."""

from __future__ import annotations

import logging
import sys
from collections.abc import Callable

from gzia._version import __version__
from gzia.orchy.kernel import Kernel, load_plugins
from gzia.orchy.limits import checked_options
from gzia.orchy.tool import ToolContext
from gzia.sessions.ids import validate_session_ref
from gzia.sessions.project import find_project
from gzia.sessions.reconcile import get_session
from gzia.sessions.store import SessionStore

log = logging.getLogger("gzia.orchy")


def build_kernel(session: str, directory: str | None, *, allow_agent_get: bool,
                 timeout: float, max_failures: int) -> Kernel:
    """The booted kernel of ``session`` (NotFound/InvalidInput before anything starts)."""
    ref = validate_session_ref(session)
    store = SessionStore(find_project(directory))
    record = get_session(store, ref)
    context = ToolContext(store, record.id, allow_agent_get=allow_agent_get)
    plugins, problems = load_plugins()
    for problem in problems:
        log.warning("tool plugin %s not loaded: %s", problem.plugin, problem.error)
    kernel = Kernel(context, plugins, max_failures=max_failures, timeout=timeout)
    context.kernel = kernel
    if not kernel.boot() and kernel.boot_failure:
        log.error("tool plugin %s failed to boot, every plugin was shut down: %s",
                  kernel.boot_failure.plugin, kernel.boot_failure.error)
    return kernel


def start(session: str, directory: str | None, *, on_serving: Callable[[], None],
          allow_agent_get: bool, timeout: float, max_failures: int) -> None:
    """Serve ``session``'s tools on stdin/stdout until stdin ends. A bad session fails
    before anything is served; ``on_serving`` is called once the kernel is built, when
    stdout becomes the protocol's alone. Options out of range (gzia.orchy.limits) fail
    first, with ``INVALID_INPUT``."""
    timeout, max_failures = checked_options(timeout, max_failures)
    logging.basicConfig(stream=sys.stderr, level=logging.WARNING,
                        format="gz-ia mcp: %(levelname)s %(message)s")
    kernel = build_kernel(session, directory, allow_agent_get=allow_agent_get,
                          timeout=timeout, max_failures=max_failures)
    on_serving()
    # lazy: the MCP SDK (most of a second) only once the session and options are good
    from gzia.orchy.server import serve

    serve(kernel, __version__)
