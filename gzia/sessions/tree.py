"""Sessions as a tree: each sub-session under the session that started it (``parent_id``),
for ``session list --tree`` and the terminal UI's table."""

from __future__ import annotations

from collections.abc import Sequence

from gzia.sessions.record import SessionRecord


def tree_order(records: Sequence[SessionRecord]) -> list[tuple[SessionRecord, int]]:
    """``records`` with each one right after its parent, and its depth (0: a root).

    Roots and the children of one parent keep the order given. A record whose parent is
    not among ``records`` (deleted, or left out by a filter) is a root; records caught in
    a loop of parents (edited by hand) come last, as roots, each once.
    """
    listed = {r.id for r in records}
    children: dict[str, list[SessionRecord]] = {}
    roots: list[SessionRecord] = []
    for record in records:
        if record.parent_id in listed and record.parent_id != record.id:
            children.setdefault(record.parent_id, []).append(record)
        else:
            roots.append(record)
    ordered: list[tuple[SessionRecord, int]] = []
    seen: set[str] = set()
    for root in [*roots, *records]:
        stack = [(root, 0)]
        while stack:
            record, depth = stack.pop()
            if record.id in seen:
                continue
            seen.add(record.id)
            ordered.append((record, depth))
            stack.extend((child, depth + 1) for child in reversed(children.get(record.id, [])))
    return ordered
