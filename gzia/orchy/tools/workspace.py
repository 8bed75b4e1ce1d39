"""``workspace_status`` and ``workspace_commit``: the served session's own work tree.

gz-ia's own directories (``.harness/``, ``.harness-session/``) are never listed nor
committed: injected files may hold credentials. Nor are the files a profile projected
into the worktree.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from gzia.contract import NotFoundError, SafetyBlockError
from gzia.i18n import N_
from gzia.orchy.tool import Tool, ToolContext, ToolPlugin, object_schema
from gzia.sessions.git import changed_paths, rev_parse
from gzia.sessions.record import SessionRecord
from gzia.sessions.session_commit import commit_session_work
from gzia.sessions.workspace import HARNESS_PATHS, workspace_of


def status(context: ToolContext, args: dict[str, Any]) -> dict[str, Any]:
    record = context.record()
    directory = _work_tree(context, record)
    return {"id": record.id, "is_isolated": record.is_isolated, "path": str(directory),
            "branch": record.branch_name, "base_branch": record.base_branch,
            "head": rev_parse(directory, "HEAD"),
            "changes": changed_paths(directory, ignore_dirs=HARNESS_PATHS)}


def commit(context: ToolContext, args: dict[str, Any]) -> dict[str, Any]:
    """What stays out (gz-ia's directories, the session's projected files) is read from
    the session's own files, whatever the server's environment holds
    (:mod:`gzia.sessions.session_commit`)."""
    record = context.record()
    if not record.is_isolated:
        raise SafetyBlockError(N_("session {id} works directly in the project (no worktree): "
                                  "workspace_commit commits only in an isolated session"),
                               id=record.id,
                               details={"id": record.id})
    worktree = _work_tree(context, record)
    done = commit_session_work(context.store.project, record.id, worktree, args["message"])
    return {"id": record.id, "committed": done.committed, "commit": done.commit,
            "files": done.files}


def _work_tree(context: ToolContext, record: SessionRecord) -> Path:
    """Where the session's agent works (paths from the project, never from the record)."""
    workspace = workspace_of(context.store.project, record)
    if workspace.is_isolated and not (workspace.target_dir / ".git").is_file():
        raise NotFoundError(N_("session '{id}': neither its worktree nor its branch is available"),
                            id=record.id,
                            details={"id": record.id})
    return workspace.target_dir


STATUS = Tool(
    "workspace_status",
    "The served session's work tree: path, branch, HEAD and the changed files.",
    object_schema({}), status, read_only=True,
)

COMMIT = Tool(
    "workspace_commit",
    "Commit every change in the served session's work tree on its branch "
    "(isolated sessions only).",
    object_schema({"message": {"type": "string", "minLength": 1,
                               "description": "The commit message."}},
                  required=("message",)),
    commit,
)

plugin = ToolPlugin(lambda context: [STATUS, COMMIT])
