"""How gz-ia imports the MCP SDK fast: three shortcuts, all for bench/orchy.py.

Process start → ``initialize`` answered is a goal of under a second, and importing the
SDK is nearly all of a server's start. Each shortcut leaves the server working the same,
only slower without it. They are pinned against mcp==2.3.0 (pyproject.toml pins it
exactly) and pydantic 2.14 by tests/orchy/test_sdk_shortcuts.py, which fails and says
what moved when an upgrade changes what they rely on:

- the ``mcp`` and ``mcp.server`` package inits are skipped: they import the client, the
  high-level server and their models, which the stdio low-level server never uses;
- protocol models and type adapters build their validators when first used, not when
  made or rebuilt at import;
- the modules the low-level server imports only for its HTTP transports (Starlette,
  OAuth, streamable HTTP) are stand-ins while it is imported: its stdio side never
  touches them.
"""

from __future__ import annotations

import contextlib
import importlib.abc
import importlib.machinery
import importlib.util
import sys
import types as modules
from collections.abc import Iterator
from typing import Any

SDK_PACKAGES = ("mcp", "mcp.server")
HTTP_ONLY = ("starlette", "mcp.server.auth", "mcp.server.streamable_http",
             "mcp.server.streamable_http_manager", "mcp.server._streamable_http_modern",
             "mcp.server.transport_security")
"""Imported by ``mcp.server.lowlevel.server`` for ``streamable_http_app`` and its
helpers alone; every name taken from them is used inside those methods only."""


@contextlib.contextmanager
def sdk_shortcuts() -> Iterator[None]:
    """Import the SDK's stdio low-level server inside this block, with the shortcuts."""
    skip_package_inits(*SDK_PACKAGES)
    with deferred_model_builds(), http_stand_ins(HTTP_ONLY):
        yield


def skip_package_inits(*names: str) -> None:
    """Register ``names`` as bare packages so importing their submodules skips their
    ``__init__``. Only when the SDK is not imported yet (a process that uses it keeps
    the real ones)."""
    if names[0] in sys.modules:
        return
    for name in names:
        spec = importlib.util.find_spec(name)
        if spec is None or spec.submodule_search_locations is None:
            return
        package = modules.ModuleType(name)
        package.__path__ = list(spec.submodule_search_locations)
        package.__spec__ = spec
        sys.modules[name] = package


@contextlib.contextmanager
def deferred_model_builds() -> Iterator[None]:
    """Pydantic models and type adapters made meanwhile build their validators when first
    used, not when made (pydantic's ``defer_build``): the SDK defines about a thousand
    protocol models for two protocol generations, and a session uses a few dozen; of the
    seven union adapters it makes at import, a stdio server uses one. Set through
    pydantic's table of config defaults (models) and the adapters' ``_defer_build``
    (adapters of a plain union have no config to read it from). A plain
    ``model_rebuild()`` made meanwhile (the SDK's, to resolve forward references) is left
    to that first use too, which resolves them from the model's module the same way.
    All restored on the way out."""
    try:
        from pydantic import BaseModel
        from pydantic._internal._config import config_defaults
        from pydantic.type_adapter import TypeAdapter
    except ImportError:
        yield
        return
    adapters: Any = TypeAdapter
    models: Any = BaseModel
    adapters_defer = adapters.__dict__.get("_defer_build")
    rebuild = models.__dict__.get("model_rebuild")
    if (config_defaults.get("defer_build") is not False
            or not isinstance(adapters_defer, property) or not isinstance(rebuild, classmethod)):
        yield
        return
    config_defaults["defer_build"] = True
    adapters._defer_build = property(lambda adapter: True)
    models.model_rebuild = _rebuilt_when_used(rebuild)
    try:
        yield
    finally:
        config_defaults["defer_build"] = False
        adapters._defer_build = adapters_defer
        models.model_rebuild = rebuild


def _rebuilt_when_used(rebuild: Any) -> Any:
    """``model_rebuild`` that leaves a plain call to the model's first use; a forced one,
    or one given a namespace, runs as asked."""

    def rebuild_when_used(model: Any, /, **options: Any) -> bool | None:
        if options:
            options["_parent_namespace_depth"] = options.get("_parent_namespace_depth", 2) + 1
            result: bool | None = rebuild.__func__(model, **options)
            return result
        return None

    return classmethod(rebuild_when_used)


class StandIn:
    """A name imported from a stand-in module: it can be kept, annotated and used as a
    default value, and fails when called."""

    def __init__(self, name: str) -> None:
        self._name = name

    def __getattr__(self, attribute: str) -> StandIn:
        if attribute.startswith("__"):
            raise AttributeError(attribute)
        return StandIn(f"{self._name}.{attribute}")

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        raise RuntimeError(f"{self._name} is not available: gz-ia imported the MCP SDK "
                           "without its HTTP transports")

    def __repr__(self) -> str:
        return f"<stand-in for {self._name}>"


class StandInModule(modules.ModuleType):
    def __getattr__(self, attribute: str) -> StandIn:
        if attribute.startswith("__"):
            raise AttributeError(attribute)
        return StandIn(f"{self.__name__}.{attribute}")


class StandInFinder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Finds a :class:`StandInModule` for each of ``names`` and their submodules."""

    def __init__(self, names: tuple[str, ...]) -> None:
        self.names = names

    def covers(self, name: str) -> bool:
        return any(name == covered or name.startswith(covered + ".") for covered in self.names)

    def find_spec(self, fullname: str, path: Any = None,
                  target: Any = None) -> importlib.machinery.ModuleSpec | None:
        if not self.covers(fullname):
            return None
        return importlib.machinery.ModuleSpec(fullname, self, is_package=True)

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> modules.ModuleType:
        module = StandInModule(spec.name)
        module.__path__ = []
        return module

    def exec_module(self, module: modules.ModuleType) -> None:
        return None


@contextlib.contextmanager
def http_stand_ins(names: tuple[str, ...]) -> Iterator[None]:
    """Inside the block, importing any of ``names`` (not imported yet) gives a stand-in;
    on the way out the stand-ins leave ``sys.modules``, so a later import anywhere gets
    the real module."""
    finder = StandInFinder(tuple(name for name in names if name not in sys.modules))
    sys.meta_path.insert(0, finder)
    try:
        yield
    finally:
        sys.meta_path.remove(finder)
        for name in [name for name, module in sys.modules.items()
                     if isinstance(module, StandInModule)]:
            del sys.modules[name]
