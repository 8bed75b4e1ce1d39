"""``--resolve-with-agent`` on ``session merge`` and ``session update``: start the session
that resolves a conflict (:mod:`gzia.sessions.merge.handoff` says what it starts from)."""

from __future__ import annotations

from gzia.contract import ConflictError, InvalidInputError
from gzia.drivers.base import Driver, takes_prompt
from gzia.drivers.registry import get_driver, parse_permission
from gzia.i18n import N_
from gzia.sessions.git import rev_parse
from gzia.sessions.mcp_command import server_command
from gzia.sessions.merge import RESOLVES_LABEL, prepare_handoff
from gzia.sessions.record import SessionRecord
from gzia.sessions.run import SessionRequest, SessionRun, start_session
from gzia.sessions.run_settings import background_options, configured_watchdog
from gzia.sessions.store import SessionStore
from gzia.sessions.workspace import current_branch

NAME_CHARS = 60


def resolver_driver(record: SessionRecord, provider: str | None) -> Driver:
    """``-p``, else the session's own agent; one that takes no prompt cannot resolve."""
    driver = get_driver(provider or record.provider)
    if not takes_prompt(driver):
        raise InvalidInputError(N_("{name} takes no prompt, so it cannot resolve a conflict: "
                                   "choose an agent with -p"),
                                name=driver.display_name, details={"provider": driver.id})
    return driver


def resolve_with_agent(store: SessionStore, record: SessionRecord, conflict: ConflictError, *,
                       base_commit: str, base_name: str, driver: Driver) -> SessionRun:
    """Start, in the background, the session that resolves ``conflict`` (which named the
    files) between ``record`` and the base at ``base_commit``."""
    files = [str(name) for name in conflict.details.get("files", [])]
    handoff = prepare_handoff(store, record, base_commit=base_commit, base_name=base_name,
                              files=files)
    name = f"resolve {record.name or record.id}"[:NAME_CHARS]
    request = SessionRequest(
        store.project.root, driver, parse_permission(record.permission_level),
        prompt=handoff.prompt(record), mode="chat", pty=True,
        background=background_options(True), mcp_server=server_command(),
        labels={RESOLVES_LABEL: record.id}, name=name, notify=record.notify is not False,
        conflict=handoff)
    return start_session(request, watchdog=configured_watchdog(None, None))


def merge_base(store: SessionStore) -> tuple[str, str]:
    """What ``session merge`` merges into: the base work tree's HEAD and its branch."""
    base = store.project.base
    head = rev_parse(base, "HEAD") or "HEAD"
    return head, current_branch(base) or head[:12]
