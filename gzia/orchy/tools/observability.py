"""``session_log`` (append an event, as ``gz-ia session log``) and ``session_info``."""

from __future__ import annotations

from typing import Any

from gzia.orchy.tool import Tool, ToolContext, ToolPlugin, object_schema
from gzia.sessions.events import DEFAULT_AGENT, STAGES, STATUSES, append_event, new_event
from gzia.sessions.workspace import workspace_of


def log(context: ToolContext, args: dict[str, Any]) -> dict[str, Any]:
    record = context.record()
    event = new_event(record.id, args["action"], args["stage"], status=args.get("status"),
                      agent_id=args["agent"], role=args.get("role"),
                      error=args.get("error"), duration_ms=args.get("duration"))
    append_event(context.store, event)
    return event.to_json()


def info(context: ToolContext, args: dict[str, Any]) -> dict[str, Any]:
    record = context.record()
    workspace = workspace_of(context.store.project, record)
    return {**record.to_json(), "project": str(context.store.project.root),
            "work_tree": str(workspace.target_dir)}


LOG = Tool(
    "session_log",
    "Record a step of the served session in its event log (as `gz-ia session log`).",
    object_schema({
        "action": {"type": "string", "minLength": 1, "description": "What happened."},
        "stage": {"type": "string", "enum": list(STAGES), "default": "PENDING",
                  "description": "READ, PENDING or FINISH."},
        "status": {"type": "string", "enum": list(STATUSES), "description": "OK or FAILED."},
        "agent": {"type": "string", "default": DEFAULT_AGENT, "description": "Agent id."},
        "role": {"type": "string", "description": "Agent role."},
        "duration": {"type": "integer", "minimum": 0, "description": "Milliseconds."},
        "error": {"type": "string", "description": "Error text."},
    }, required=("action",)),
    log,
)

INFO = Tool(
    "session_info",
    "The served session's record: id, status, mode, branch, base and work tree.",
    object_schema({}), info, read_only=True,
)

plugin = ToolPlugin(lambda context: [LOG, INFO])
