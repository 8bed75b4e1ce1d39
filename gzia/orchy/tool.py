"""What a tool is: a name, a description, an exact input schema and a function.

A tool function runs in a worker thread and gets the validated arguments and the
:class:`ToolContext` of the server (the session it serves). It returns anything JSON can
hold; it fails by raising (a :class:`gzia.contract.GzError` keeps its message).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from gzia.contract import ErrorCode, GzError, InvalidInputError, Problem, problem_from
from gzia.i18n import N_
from gzia.sessions.ids import validate_session_ref
from gzia.sessions.reconcile import get_session

if TYPE_CHECKING:
    from gzia.sessions.record import SessionRecord
    from gzia.sessions.store import SessionStore


class Breaker(Protocol):
    """What the operator tools see of a tool's proxy (:class:`gzia.orchy.proxy.ToolProxy`)."""

    def reset(self) -> None: ...
    def to_json(self) -> dict[str, Any]: ...


class KernelView(Protocol):
    def to_json(self) -> dict[str, Any]: ...


@dataclass
class ToolContext:
    """What every tool may use: the session the server was started for."""

    store: SessionStore
    session_id: str
    allow_agent_get: bool = False
    proxies: dict[str, Breaker] = field(default_factory=dict)
    kernel: KernelView | None = None

    def record(self) -> SessionRecord:
        """The record of the session this server serves, as it is now."""
        return self.session(self.session_id)

    def session(self, ref: str) -> SessionRecord:
        """A session of the project by id or prefix, validated as the CLI does."""
        return get_session(self.store, validate_session_ref(ref))


ToolFunction = Callable[[ToolContext, dict[str, Any]], Any]


def failure_problem(exc: BaseException) -> Problem:
    """What a tool or a tool plugin failed with, in the contract's problem shape: a
    :class:`GzError` as it is (its code, message, hint and details), any other exception
    ``INTERNAL``, naming its type. :func:`gzia.contract.error_from` turns it back into
    the error class its code names."""
    if isinstance(exc, GzError):
        return problem_from(exc)
    return Problem(ErrorCode.INTERNAL, f"{type(exc).__name__}: {exc}")


@dataclass(frozen=True)
class Tool:
    name: str
    description: str
    input_schema: dict[str, Any]
    function: ToolFunction
    guarded: bool = True
    """Whether the circuit breaker guards the tool: ``False`` only for the breaker's own
    controls (``orchy_health``, ``orchy_reset``), which must answer when others are DEAD."""
    read_only: bool = False
    """The tool only reads (changes no file, record or process): a supervised agent may
    call gz-ia's own such tools without asking (gzia.orchy.preapproved)."""


def object_schema(properties: Mapping[str, dict[str, Any]],
                  required: tuple[str, ...] = ()) -> dict[str, Any]:
    """An exact object schema: the listed properties only."""
    schema: dict[str, Any] = {"type": "object", "properties": dict(properties),
                              "additionalProperties": False}
    if required:
        schema["required"] = list(required)
    return schema


_PYTHON_TYPES: dict[str, tuple[type, ...]] = {
    "string": (str,), "boolean": (bool,), "integer": (int,), "object": (dict,),
}


def validate_arguments(schema: Mapping[str, Any], arguments: object) -> dict[str, Any]:
    """Check ``arguments`` against an :func:`object_schema`; defaults filled in."""
    if not isinstance(arguments, dict):
        raise InvalidInputError(N_("the tool's arguments must be a JSON object"))
    properties: Mapping[str, Any] = schema.get("properties", {})
    unknown = sorted(set(arguments) - set(properties))
    if unknown and schema.get("additionalProperties") is False:
        raise InvalidInputError(N_("unknown argument '{name}'"), name=unknown[0])
    for name in schema.get("required", ()):
        if name not in arguments:
            raise InvalidInputError(N_("missing required argument '{name}'"), name=name)
    values = {name: spec["default"] for name, spec in properties.items() if "default" in spec}
    for name, value in arguments.items():
        _check_value(name, properties.get(name, {}), value)
        values[name] = value
    return values


def _check_value(name: str, spec: Mapping[str, Any], value: object) -> None:
    expected = spec.get("type")
    kinds = _PYTHON_TYPES.get(expected) if isinstance(expected, str) else None
    wrong_bool = isinstance(value, bool) and expected == "integer"
    if kinds is not None and (not isinstance(value, kinds) or wrong_bool):
        raise InvalidInputError(N_("argument '{name}' must be of type {type}"), name=name,
                                type=expected)
    if "enum" in spec and value not in spec["enum"]:
        choices = ", ".join(str(c) for c in spec["enum"])
        raise InvalidInputError(N_("argument '{name}' must be one of: {choices}"), name=name,
                                choices=choices)
    if isinstance(value, str) and len(value.strip()) < spec.get("minLength", 0):
        raise InvalidInputError(N_("argument '{name}' must not be empty"), name=name)
    if isinstance(value, int) and "minimum" in spec and value < spec["minimum"]:
        raise InvalidInputError(N_("argument '{name}' must be at least {minimum}"), name=name,
                                minimum=spec["minimum"])


@dataclass(frozen=True)
class ToolPlugin:
    """The simplest plugin: tools made from the context, nothing to release."""

    make_tools: Callable[[ToolContext], list[Tool]]

    def boot(self, context: ToolContext) -> list[Tool]:
        return self.make_tools(context)
