"""``gz-ia session push <id>`` and ``gz-ia session pr <id>``: publish a session's work."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import click

from gzia.cli import output
from gzia.cli.session.common import open_session, session_command
from gzia.cli.session.resolve import RESOLVE_OPTIONS, hand_off
from gzia.contract import InvalidInputError
from gzia.i18n import N_, gettext

if TYPE_CHECKING:
    import httpx

    from gzia.config import Config
    from gzia.sessions.record import SessionRecord
    from gzia.sessions.review import PrResult
    from gzia.sessions.store import SessionStore

BODY_LIMIT = 1 << 20
"""Bytes of ``--body-file`` read at most (far above what a forge shows)."""

remote_option = click.option("--remote", default="origin", show_default=True, metavar="NAME",
                             help="The git remote to push to.")
squash_option = click.option("--squash", is_flag=True,
                             help="Push one commit holding the session's changes (replaces the "
                                  "remote branch).")


@session_command("push", help="Push the session's branch to a remote with your own git "
                              "credentials.", options=[remote_option, squash_option])
def push_command(session: str, remote: str, squash: bool, directory: str | None) -> None:
    from gzia.sessions.review import push_session
    from gzia.views.merging import commits_identity_warning

    store, record = open_session(session, directory)
    result = push_session(store, record, remote, squash=squash)
    if (warning := commits_identity_warning(record.id, result.fallback_identity)) is not None:
        output.add_warning(warning)
    output.emit(result.to_json(), lambda: output.line(gettext(
        "✓ Session '{id}' pushed to {remote} as {branch} ({commit}).", id=result.id,
        remote=result.remote, branch=result.branch, commit=result.commit[:12])))


@session_command("pr", help="Push the session's branch and open its pull request (Forgejo or "
                            "GitHub); again: push and show the open one.", options=[
    remote_option, squash_option,
    click.option("--base", metavar="BRANCH",
                 help="The branch to merge into (default: the session's base branch)."),
    click.option("--title", metavar="T", help="Title (default: the session's name or prompt)."),
    click.option("--body-file", metavar="F", type=click.Path(dir_okay=False),
                 help="Description from this file (default: prompt, agent, diff stat, id)."),
    click.option("--draft", is_flag=True, help="Open it as a draft (WIP: on Forgejo)."),
    click.option("--reviewer", "reviewers", multiple=True, metavar="U",
                 help="Ask this user to review (repeatable)."),
    click.option("--status", "refresh", is_flag=True,
                 help="Only read the pull request's state now (open, merged, closed)."),
    click.option("--merge", is_flag=True, help="Merge the pull request on the forge."),
    *RESOLVE_OPTIONS,
])
def pr_command(session: str, remote: str, squash: bool, base: str | None,  # noqa: PLR0917 - one per option
               title: str | None, body_file: str | None, draft: bool,
               reviewers: tuple[str, ...], refresh: bool, merge: bool,
               resolve_with_agent: bool, provider: str | None,
               directory: str | None) -> None:
    from gzia.config import load_config
    from gzia.sessions.review import (
        PrOptions,
        forge_for,
        open_pull_request,
        pushable_branch,
        refresh_pull_request,
    )
    from gzia.update.client import make_client
    from gzia.views.merging import commits_identity_warning
    from gzia.views.review import render_pr

    if resolve_with_agent and not merge:
        raise InvalidInputError(N_("--resolve-with-agent applies to --merge: it hands a "
                                   "conflict that stops the merge to an agent"),
                                details={"option": "--resolve-with-agent"})
    store, record = open_session(session, directory)
    body = _read_body(body_file) if body_file is not None else None
    config = load_config()
    with make_client() as client:
        if merge and resolve_with_agent:
            result = _merge_or_hand_off(store, record, config, client, provider)
            if result is None:
                return
        elif refresh or merge:
            result = refresh_pull_request(store, record, config, client, merge=merge)
        else:
            pushable_branch(record)  # a running session: said before the remote is read
            forge = forge_for(store, remote, config, client)
            options = PrOptions(remote, base, title, body, draft, list(reviewers), squash)
            result = open_pull_request(store, record, forge, options)
    if result.push is not None and (warning := commits_identity_warning(
            record.id, result.push.fallback_identity)) is not None:
        output.add_warning(warning)
    output.emit(result.to_json(), lambda: output.lines(render_pr(result)))


def _merge_or_hand_off(store: SessionStore, record: SessionRecord, config: Config,
                       client: httpx.Client, provider: str | None) -> PrResult | None:
    """Merge on the forge; a conflict that stops it goes to a resolving session, as
    ``session update --resolve-with-agent`` hands one (None: handed off, reported)."""
    from gzia.contract import ConflictError
    from gzia.sessions.review import pr_conflict, refresh_pull_request

    try:
        return refresh_pull_request(store, record, config, client, merge=True)
    except ConflictError as refused:
        conflict = pr_conflict(store, record, refused)
        if "base_commit" not in conflict.details:
            raise conflict from None
    hand_off(store, record, conflict, base_commit=conflict.details["base_commit"],
             base_name=conflict.details["base"], provider=provider)
    return None


def _read_body(path: str) -> str:
    try:
        with Path(path).open("rb") as stream:
            data = stream.read(BODY_LIMIT + 1)
    except OSError as exc:
        raise InvalidInputError(N_("cannot read --body-file {path}: {detail}"), path=path,
                                detail=exc.strerror or str(exc),
                                details={"option": "--body-file", "path": path}) from exc
    if len(data) > BODY_LIMIT:
        raise InvalidInputError(N_("--body-file {path} is larger than {limit} bytes"),
                                path=path, limit=BODY_LIMIT,
                                details={"option": "--body-file", "path": path})
    return data.decode("utf-8", "replace")
