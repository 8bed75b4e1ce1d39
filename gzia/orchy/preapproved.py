"""gz-ia's own tools that only read: a supervised agent calls them without asking.

They are the tools of gz-ia's built-in plugins (the modules of :mod:`gzia.orchy.tools`)
made with ``read_only=True``: the flag on the tool is the only list. A third-party
plugin's tools are never pre-approved, whatever they say of themselves. The drivers put
them in the agent's per-session settings (docs/orchy.md, "Pre-approved tools").
"""

from __future__ import annotations

import importlib
import pkgutil

import gzia.orchy.tools
from gzia.orchy.tool import Tool


def read_only_tools() -> tuple[str, ...]:
    """The names of gz-ia's own read-only tools, sorted."""
    names: set[str] = set()
    package = gzia.orchy.tools
    for module_info in pkgutil.iter_modules(package.__path__):
        module = importlib.import_module(f"{package.__name__}.{module_info.name}")
        names.update(value.name for value in vars(module).values()
                     if isinstance(value, Tool) and value.read_only)
    return tuple(sorted(names))
