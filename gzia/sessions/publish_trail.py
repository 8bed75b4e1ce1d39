"""What a session's work became, in its events: each merge, push and pull request opened,
updated or merged is one event (docs/sessions.md, "Publishing"), ``stage: FINISH``,
``status: OK``, ``agent_id: gz-ia``, with ``metadata.type`` ``merge``, ``push`` or
``pull_request`` and the answer's fields beside it."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from gzia.i18n import N_, gettext
from gzia.sessions.events import log_lifecycle_event

if TYPE_CHECKING:
    from gzia.sessions.store import SessionStore

_PR_ACTIONS = {
    "opened": N_("pull request #{number} opened: {url}"),
    "updated": N_("pull request #{number} updated: {url}"),
    "merged": N_("pull request #{number} merged: {url}"),
}


MERGE_FIELDS = ("id", "branch", "into", "squash", "no_commit", "already_up_to_date", "head",
                "safety_commit")
"""A merge's answer in its event (not its files nor its record: an event stays small)."""


def log_merge(store: SessionStore, merged: dict[str, Any]) -> None:
    """``merged``: the merge's answer (``session merge --json``'s ``data``)."""
    action = gettext("merged {branch} into {into}", branch=merged["branch"],
                     into=merged["into"] or "HEAD")
    log_lifecycle_event(store, merged["id"], action, "FINISH", failed=False,
                        metadata={"type": "merge", **{k: merged[k] for k in MERGE_FIELDS}})


def log_push(store: SessionStore, pushed: dict[str, Any]) -> None:
    """``pushed``: the push's answer (``session push --json``'s ``data``)."""
    action = gettext("pushed {branch} to {remote}", branch=pushed["branch"],
                     remote=pushed["remote"])
    log_lifecycle_event(store, pushed["id"], action, "FINISH", failed=False,
                        metadata={"type": "push", **pushed})


def log_pull_request(store: SessionStore, session_id: str, what: str,
                     pull_request: dict[str, Any]) -> None:
    """``what``: ``opened``, ``updated`` or ``merged``; ``pull_request``: as the record
    keeps it (number, url, state, remote, base, forge)."""
    action = gettext(_PR_ACTIONS[what], number=pull_request["number"],
                     url=pull_request["url"])
    log_lifecycle_event(store, session_id, action, "FINISH", failed=False,
                        metadata={"type": "pull_request", "action": what, "id": session_id,
                                  **pull_request})
