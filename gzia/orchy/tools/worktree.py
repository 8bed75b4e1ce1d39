"""``worktree_read`` (a session's diff) and ``worktree_get`` (merge it; opt-in).

They mirror ``gz-ia session diff`` and ``gz-ia session merge``: the same id validation,
locks, checks and messages, because they call the same services.
"""

from __future__ import annotations

from typing import Any

from gzia.orchy.tool import Tool, ToolContext, ToolPlugin, object_schema
from gzia.sessions.diff import session_diff
from gzia.sessions.merge import merge_session

SESSION_ID = {"type": "string", "description": "Session id (or a unique prefix of 4-8 hex)."}


def read(context: ToolContext, args: dict[str, Any]) -> dict[str, Any]:
    record = context.session(args["session_id"])
    return session_diff(context.store.project, record, stat=args["stat_only"]).to_json()


def get(context: ToolContext, args: dict[str, Any]) -> dict[str, Any]:
    record = context.session(args["session_id"])
    result = merge_session(context.store, record, squash=args["squash"],
                           no_commit=args["no_commit"])
    return result.to_json()


READ = Tool(
    "worktree_read",
    "Show what a gz-ia session changed (its diff against where its branch left the base), "
    "without touching any work tree.",
    object_schema({
        "session_id": SESSION_ID,
        "stat_only": {"type": "boolean", "default": False,
                      "description": "Only the summary of changed files (diff --stat)."},
    }, required=("session_id",)),
    read, read_only=True,
)

GET = Tool(
    "worktree_get",
    "Merge a finished gz-ia session's branch into the base work tree's current branch "
    "(as `gz-ia session merge`).",
    object_schema({
        "session_id": SESSION_ID,
        "squash": {"type": "boolean", "default": False,
                   "description": "Squash the session's commits into one change."},
        "no_commit": {"type": "boolean", "default": False,
                      "description": "Stage the merge without committing it."},
    }, required=("session_id",)),
    get,
)


def _tools(context: ToolContext) -> list[Tool]:
    return [READ, GET] if context.allow_agent_get else [READ]


plugin = ToolPlugin(_tools)
