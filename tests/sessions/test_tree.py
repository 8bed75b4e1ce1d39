"""Sessions as a tree (``parent_id``): ``session list --tree`` and the order behind it."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from gzia.sessions.project import find_project
from gzia.sessions.record import SessionRecord
from gzia.sessions.tree import tree_order
from tests.conftest import Result
from tests.sessions.session_testkit import make_repo, make_session


def rec(session_id: str, parent: str | None = None) -> SessionRecord:
    return SessionRecord(id=session_id, provider="shell", parent_id=parent)


def test_children_follow_their_parent_in_the_order_given() -> None:
    newest_first = [rec("c2", "p1"), rec("p2"), rec("g1", "c1"), rec("c1", "p1"), rec("p1"),
                    rec("orphan", "gone")]
    ordered = [(r.id, depth) for r, depth in tree_order(newest_first)]
    assert ordered == [("p2", 0), ("p1", 0), ("c2", 1), ("c1", 1), ("g1", 2), ("orphan", 0)]


def test_a_loop_of_parents_is_listed_once_each() -> None:
    looped = [rec("a", "b"), rec("b", "a"), rec("c", "c")]
    assert sorted((r.id, d) for r, d in tree_order(looped)) == [("a", 0), ("b", 1), ("c", 0)]


def test_session_list_tree_indents_children(tmp_path: Path,
                                            cli: Callable[..., Result]) -> None:
    root = make_repo(tmp_path / "repo")
    project = find_project(root)
    make_session(project, "aaaa0001", started_at="2026-03-01T10:00:00Z")
    make_session(project, "bbbb0002", started_at="2026-03-01T11:00:00Z", parent_id="aaaa0001")
    make_session(project, "cccc0003", started_at="2026-03-01T12:00:00Z", parent_id="bbbb0002")
    make_session(project, "dddd0004", started_at="2026-03-01T13:00:00Z")
    flat = cli("session", "list", cwd=root)
    ids = [line.split()[0] for line in flat.stdout.splitlines()[2:]]
    assert ids == ["dddd0004", "cccc0003", "bbbb0002", "aaaa0001"]
    tree = cli("session", "list", "--tree", cwd=root)
    firsts = [line[:12].rstrip() for line in tree.stdout.splitlines()[2:]]
    assert firsts == ["dddd0004", "aaaa0001", "  bbbb0002", "    cccc0003"]
    listed = cli("--json", "session", "list", "--tree", cwd=root).json["data"]["sessions"]
    assert [(s["id"], s.get("parent_id")) for s in listed] == [
        ("dddd0004", None), ("aaaa0001", None), ("bbbb0002", "aaaa0001"),
        ("cccc0003", "bbbb0002")]
