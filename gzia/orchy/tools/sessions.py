"""Sub-session tools: the served session's agent runs sessions of its own.

``session_start`` starts a child (:mod:`gzia.sessions.children`, within the caps of
:mod:`gzia.sessions.caps`); the other tools act on the served session's own children
only (any other id is ``INVALID_INPUT``). Each is a thin layer over the services the
CLI uses: ``session wait [--until]``, ``poll``/``diff --stat``, ``output``, ``submit``,
``stop``, ``merge``. Every one goes through the ToolProxy like any tool.

``read_only`` marks the tools that change nothing (``session_wait``,
``session_status``, ``session_output``, ``session_children``).
"""

from __future__ import annotations

import math
import os
from typing import Any

from gzia.config import load_config
from gzia.contract import InvalidInputError, Permission
from gzia.i18n import N_
from gzia.orchy.tool import Tool, ToolContext, ToolFunction, ToolPlugin, object_schema
from gzia.sessions import child_start, children
from gzia.sessions.agent_state import state_of
from gzia.sessions.background import send_input
from gzia.sessions.diff import session_diff
from gzia.sessions.graceful_stop import stop_gracefully
from gzia.sessions.guard import without_guard
from gzia.sessions.labels import parse_labels
from gzia.sessions.output_reading import rendered_output
from gzia.sessions.record import SessionRecord
from gzia.sessions.state_wait import wait_for_state
from gzia.sessions.wait import wait_for

UNTIL = ("ended", "waiting", "idle", "exited", "state-change")
DEFAULT_WAIT_S = 20
DEFAULT_TAIL = 50
MAX_IDS = 64

_ID = {"type": "string", "description": "A sub-session's id (or unique prefix)."}
_IDS = {"type": "array", "items": {"type": "string"}, "minItems": 1, "maxItems": MAX_IDS,
        "description": "Sub-session ids (or unique prefixes)."}
_PERMISSIONS = [level.value for level in Permission]
MAX_ARGUMENTS = 4096
"""The most items ``command`` or ``profile`` may hold."""


def start(context: ToolContext, args: dict[str, Any]) -> dict[str, Any]:
    asked = child_start.ChildRequest(
        provider=args.get("provider"), command=_strings(args, "command"),
        prompt=args.get("prompt"), name=args.get("name"), labels=_labels(args),
        profiles=tuple(_strings(args, "profile") or ()), timeout_s=_seconds(args, "timeout"),
        idempotency_key=args.get("idempotency_key"), permission=args.get("permission"))
    started = child_start.start_child(context.store, context.session_id, asked, os.environ)
    return {"id": started.record.id, "reused": started.reused,
            "session": started.record.to_json()}


def wait(context: ToolContext, args: dict[str, Any]) -> dict[str, Any]:
    records = _own(context, args["ids"])
    timeout = _seconds(args, "timeout")
    ids = [r.id for r in records]
    if args["until"] == "ended":
        result = wait_for(context.store, records, timeout=timeout)
        return result.to_json(ids)
    goal, reached = wait_for_state(context.store, records, args["until"], timeout=timeout)
    return goal.to_json(ids, reached)


def status(context: ToolContext, args: dict[str, Any]) -> dict[str, Any]:
    return {"sessions": [_status_of(context, r) for r in _own(context, args["ids"])]}


def _status_of(context: ToolContext, record: SessionRecord) -> dict[str, Any]:
    state = state_of(record)
    diff = session_diff(context.store.project, record, stat=True)
    return {"id": record.id, "name": record.name, "status": record.status,
            "state": state.value if state is not None else None,
            "exit_code": record.exit_code, "end_reason": record.end_reason,
            "branch": record.branch_name, "files": diff.files, "diff_stat": diff.text}


def output(context: ToolContext, args: dict[str, Any]) -> dict[str, Any]:
    record = children.own_child(context.store, context.session_id, args["id"])
    return {"id": record.id, "status": record.status,
            "text": rendered_output(record, args["tail"])}


def send(context: ToolContext, args: dict[str, Any]) -> dict[str, Any]:
    record = children.own_child(context.store, context.session_id, args["id"])
    sent = send_input(record, args["text"].encode("utf-8", "surrogateescape") + b"\r")
    return {"id": record.id, "bytes": sent}


def stop(context: ToolContext, args: dict[str, Any]) -> dict[str, Any]:
    record = children.own_child(context.store, context.session_id, args["id"])
    timeout_s = float(load_config().get("stop_timeout"))
    outcome = stop_gracefully(context.store, record.id, timeout_s)
    return {**outcome.record.to_json(), "stop": outcome.to_json()}


def merge_into_parent(context: ToolContext, args: dict[str, Any]) -> dict[str, Any]:
    record = children.own_child(context.store, context.session_id, args["id"])
    return child_start.merge_into_parent(context.store, context.session_id, record,
                                         squash=args["squash"])


def list_children(context: ToolContext, args: dict[str, Any]) -> dict[str, Any]:
    found = children.children_of(context.store, context.session_id)
    return {"sessions": [
        {"id": r.id, "name": r.name, "provider": r.provider, "status": r.status,
         "state": (s.value if (s := state_of(r)) is not None else None),
         "exit_code": r.exit_code, "branch": r.branch_name, "started_at": r.started_at}
        for r in found]}


def _own(context: ToolContext, refs: object) -> list[SessionRecord]:
    ids = _checked_strings("ids", refs, MAX_IDS)
    found: dict[str, SessionRecord] = {}
    for ref in ids:
        record = children.own_child(context.store, context.session_id, ref)
        found.setdefault(record.id, record)
    return list(found.values())


def _strings(args: dict[str, Any], name: str) -> list[str] | None:
    return None if name not in args else _checked_strings(name, args[name], MAX_ARGUMENTS)


def _checked_strings(name: str, value: object, most: int) -> list[str]:
    if (not isinstance(value, list) or not value or len(value) > most
            or not all(isinstance(item, str) and item for item in value)):
        raise InvalidInputError(N_("argument '{name}' must be a list of 1 to {most} non-empty "
                                   "strings"),
                                name=name, most=most, details={"argument": name})
    return value


def _labels(args: dict[str, Any]) -> dict[str, str] | None:

    raw = args.get("labels")
    if raw is None:
        return None
    if not all(isinstance(value, str) for value in raw.values()):
        raise InvalidInputError(N_("argument '{name}' must map names to strings"),
                                name="labels", details={"argument": "labels"})
    return parse_labels([f"{key}={value}" for key, value in raw.items()])


def _seconds(args: dict[str, Any], name: str) -> float | None:
    value = args.get(name)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float) \
            or not math.isfinite(value) or value <= 0 or value > 86400:
        raise InvalidInputError(N_("argument '{name}' must be a number of seconds greater than 0 "
                                   "and at most 86400"),
                                name=name, details={"argument": name})
    return float(value)


def _tool(name: str, description: str, properties: dict[str, dict[str, Any]],
          function: ToolFunction, required: tuple[str, ...] = (), *,
          read_only: bool) -> Tool:
    """``read_only``: the tool changes nothing, so a supervised agent may call it without
    asking (:mod:`gzia.orchy.preapproved`)."""
    return Tool(name, description, object_schema(properties, required), function,
                read_only=read_only)


START = _tool("session_start", "Start a sub-session in the background, in its own worktree "
              "branched from this session's current commit; returns its id.", {
                  "provider": {"type": "string", "description": "The agent to run."},
                  "command": {"type": "array", "items": {"type": "string"}, "minItems": 1,
                              "description": "A program and its arguments, instead of an agent."},
                  "prompt": {"type": "string", "description": "The agent's first prompt."},
                  "name": {"type": "string", "description": "What to call the session."},
                  "labels": {"type": "object", "additionalProperties": {"type": "string"},
                             "description": "Labels (name: value)."},
                  "profile": {"type": "array", "items": {"type": "string"},
                              "description": "Profiles to project into its worktree."},
                  "timeout": {"type": "number", "description": "Seconds the run may last."},
                  "permission": {"type": "string", "enum": _PERMISSIONS,
                                 "description": "This session's level or a stricter one."},
                  "idempotency_key": {"type": "string",
                                      "description": "A retried start with this key returns "
                                                     "the same sub-session."},
              }, start, read_only=False)
WAIT = _tool("session_wait", "Wait until sub-sessions end, or their agents reach a state.", {
    "ids": _IDS,
    "until": {"type": "string", "enum": list(UNTIL), "default": "ended",
              "description": "ended, waiting, idle, exited or state-change."},
    "timeout": {"type": "number", "default": DEFAULT_WAIT_S,
                "description": "Seconds to wait at most (then timed_out is true)."},
}, wait, ("ids",), read_only=True)
STATUS = _tool("session_status", "Status, agent state, exit code and diff stat of sub-sessions.",
               {"ids": _IDS}, status, ("ids",), read_only=True)
OUTPUT = _tool("session_output", "The last lines a sub-session's agent wrote, as text.", {
    "id": _ID,
    "tail": {"type": "integer", "minimum": 0, "default": DEFAULT_TAIL,
             "description": "How many lines."},
}, output, ("id",), read_only=True)
SEND = _tool("session_send", "Type text into a sub-session's agent, then Enter.", {
    "id": _ID, "text": {"type": "string", "description": "The text."},
}, send, ("id", "text"), read_only=False)
STOP = _tool("session_stop", "Ask a sub-session's agent to end, then kill it if it does not "
             "(its own sub-sessions too).", {"id": _ID}, stop, ("id",), read_only=False)
MERGE = _tool("session_merge_into_parent", "Merge an ended sub-session's branch into this "
              "session's worktree (the checks of gz-ia session merge).", {
                  "id": _ID,
                  "squash": {"type": "boolean", "default": False,
                             "description": "One squashed commit."},
              }, merge_into_parent, ("id",), read_only=False)
CHILDREN = _tool("session_children", "This session's sub-sessions.", {}, list_children,
                 read_only=True)

TOOLS = (START, WAIT, STATUS, OUTPUT, SEND, STOP, MERGE, CHILDREN)


def _boot(context: ToolContext) -> list[Tool]:
    """Orchy's own git acts for gz-ia, not under the guardrail of the agent that started
    the server: a child's branch and the merge of its work are refs the agent's git may
    not touch (:func:`gzia.sessions.guard.without_guard`)."""
    cleaned = without_guard(os.environ)
    for name in set(os.environ) - set(cleaned):
        del os.environ[name]
    os.environ.update(cleaned)
    return list(TOOLS)


plugin = ToolPlugin(_boot)
