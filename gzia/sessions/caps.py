"""The caps on sessions an agent starts through Orchy (sub-sessions), decided in one place.

Before a sub-session starts (:mod:`gzia.sessions.children`), :func:`refuse_over_caps`
checks, against the records as they are now (reconciled):

- depth: a session with no parent is at depth 0, its child at 1; a child deeper than
  ``subsession_max_depth`` (2) is refused;
- children: a parent with ``subsession_max_children`` (4) children still running may
  start no other;
- project: a project with ``subsession_max_running`` (16) running sessions, whoever
  started them, gets no sub-session more.

Each refusal is ``SAFETY_BLOCK`` with ``details.cap`` (``depth``, ``children`` or
``project``), ``limit`` and ``current``. A child's permission level is its parent's or a
stricter one (:func:`child_permission`); a looser one is ``SAFETY_BLOCK`` with
``details.cap: permission``.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from gzia.config import load_config
from gzia.contract import Permission, SafetyBlockError
from gzia.i18n import N_
from gzia.sessions.record import SessionRecord

_STRICTNESS = (Permission.READONLY, Permission.SUPERVISED, Permission.AUTONOMOUS)
"""Strictest first."""

_MSG_CAP: dict[object, str] = {
    "depth": N_("session '{id}' is at depth {current} of sub-sessions: a child would pass the "
                "limit of {limit} (subsession_max_depth)"),
    "children": N_("session '{id}' already has {current} sub-sessions running, the most it may "
                   "have (subsession_max_children: {limit})"),
    "project": N_("the project already has {current} sessions running, the most before a "
                  "sub-session starts (subsession_max_running: {limit})"),
}


@dataclass(frozen=True)
class Caps:
    max_depth: int
    max_children: int
    max_running: int
    idle_timeout_s: int
    """0: a sub-session is never stopped for being idle."""

    @classmethod
    def configured(cls) -> Caps:
        config = load_config()
        return cls(int(config.get("subsession_max_depth")),
                   int(config.get("subsession_max_children")),
                   int(config.get("subsession_max_running")),
                   int(config.get("subsession_idle_timeout")))


def depth_of(record: SessionRecord, parent_of: dict[str, str | None]) -> int:
    """How many parents ``record`` has (a loop in hand-edited records ends the walk)."""
    depth, seen, current = 0, {record.id}, record.parent_id
    while current is not None and current not in seen:
        depth += 1
        seen.add(current)
        current = parent_of.get(current)
    return depth


def refuse_over_caps(parent: SessionRecord, records: Iterable[SessionRecord],
                     caps: Caps) -> None:
    """``SAFETY_BLOCK`` when a new child of ``parent`` would pass a cap (see the module)."""
    every = list(records)
    depth = depth_of(parent, {r.id: r.parent_id for r in every})
    if depth + 1 > caps.max_depth:
        _refuse("depth", parent.id, caps.max_depth, depth)
    running = [r for r in every if r.is_running]
    children = sum(1 for r in running if r.parent_id == parent.id)
    if children >= caps.max_children:
        _refuse("children", parent.id, caps.max_children, children)
    if len(running) >= caps.max_running:
        _refuse("project", parent.id, caps.max_running, len(running))


def _refuse(cap: str, parent_id: str, limit: int, current: int) -> None:
    raise SafetyBlockError(_MSG_CAP[cap], id=parent_id, limit=limit, current=current,
                           hint_key=N_("wait for a sub-session to end (session_wait), or stop "
                                       "one (session_stop)") if cap != "depth" else None,
                           details={"cap": cap, "id": parent_id, "limit": limit,
                                    "current": current})


def child_permission(parent_level: str | None, asked: str | None) -> Permission:
    """The permission of a new child: ``asked``, else its parent's; never looser."""
    parent = _known(parent_level)
    child = parent if asked is None else Permission(asked)
    if _STRICTNESS.index(child) > _STRICTNESS.index(parent):
        raise SafetyBlockError(N_("a sub-session may not have a looser permission level than "
                                  "its parent: '{asked}' asked, the parent has '{parent}'"),
                               asked=child.value, parent=parent.value,
                               details={"cap": "permission", "asked": child.value,
                                        "parent": parent.value})
    return child


def _known(level: str | None) -> Permission:
    """A record's level; one this version does not know counts as the strictest."""
    try:
        return Permission(level or Permission.SUPERVISED.value)
    except ValueError:
        return Permission.READONLY
