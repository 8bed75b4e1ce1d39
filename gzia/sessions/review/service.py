"""``session pr``: push the session's branch, then open (or find) its pull request.

The forge and its API come from the remote's URL (:mod:`.remotes`), or from the settings
when the URL cannot say (``forge``, ``forgejo_url``, ``github_api_url``); the token from
``forgejo_token`` / ``github_token``. A second ``pr`` pushes again and reports the pull
request already open for the branch. The record keeps the pull request (``pull_request``:
number, url, state); a merged one marks the session merged as ``session merge`` does
(``merged_at``, ``merged_commit``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from gzia.contract import InvalidInputError, NotFoundError
from gzia.i18n import N_
from gzia.sessions.git import git_ok
from gzia.sessions.naming import summary_of
from gzia.sessions.publish_trail import log_pull_request
from gzia.sessions.record import SessionRecord, now_rfc3339
from gzia.sessions.review.forge import Forge, PullRequest
from gzia.sessions.review.forgejo import ForgejoForge, forgejo_api
from gzia.sessions.review.github import PUBLIC_HOSTS, GitHubForge, github_api
from gzia.sessions.review.push import PushResult, push_session, remote_url
from gzia.sessions.review.remotes import api_root, parse_remote_url
from gzia.sessions.store import SessionStore

if TYPE_CHECKING:
    import httpx

    from gzia.config import Config

TITLE_WIDTH = 72
PROMPT_IN_BODY = 4000
"""Characters of the prompt a pull request's description quotes at most."""


@dataclass
class PrOptions:
    remote: str = "origin"
    base: str | None = None
    title: str | None = None
    body: str | None = None
    draft: bool = False
    reviewers: list[str] = field(default_factory=list)
    squash: bool = False


@dataclass
class PrResult:
    pull_request: PullRequest
    created: bool
    push: PushResult | None
    session: SessionRecord

    def to_json(self) -> dict[str, Any]:
        return {"id": self.session.id, "created": self.created,
                "push": self.push.to_json() if self.push else None,
                "pull_request": self.session.pull_request, "session": self.session.to_json()}


def forge_for(store: SessionStore, remote: str, config: Config,
              client: httpx.Client) -> Forge:
    """The forge the remote's repository lives on, per the remote's URL and the settings."""
    url = remote_url(store.project, remote)
    repository = parse_remote_url(url)
    if repository is None:
        raise InvalidInputError(N_("the URL of remote '{remote}' names no owner/repository"),
                                remote=remote, details={"remote": remote})
    kind = config.get("forge")
    if kind == "auto":
        kind = "github" if repository.host in PUBLIC_HOSTS else "forgejo"
    if kind == "github":
        configured = config.get("github_api_url")
        api = api_root(configured) if configured else github_api(repository.host,
                                                                 repository.web_root)
        if api is None:
            raise _no_api(remote, "github_api_url")
        return GitHubForge(client, api, repository, config.get("github_token"))
    configured = config.get("forgejo_url")
    root = api_root(configured) if configured else repository.web_root
    if root is None:
        raise _no_api(remote, "forgejo_url")
    return ForgejoForge(client, forgejo_api(root), repository, config.get("forgejo_token"))


def _no_api(remote: str, key: str) -> InvalidInputError:
    return InvalidInputError(
        N_("cannot tell which server the remote '{remote}' is on: its URL names no web host"),
        remote=remote, key=key, hint_key=N_("set it: gz-ia config set {key} https://..."),
        details={"remote": remote, "setting": key})


def open_pull_request(store: SessionStore, record: SessionRecord, forge: Forge,
                      options: PrOptions) -> PrResult:
    base = options.base or record.base_branch
    if not base:
        raise InvalidInputError(N_("session '{id}' started from no branch: name the pull "
                                   "request's target with --base"), id=record.id,
                                details={"id": record.id, "option": "--base"})
    pushed = push_session(store, record, options.remote, squash=options.squash)
    found = forge.find_open(pushed.branch)
    created = found is None
    if found is None:
        found = forge.create(branch=pushed.branch, base=base,
                             title=options.title or default_title(record),
                             body=options.body if options.body is not None
                             else default_body(store, record, pushed), draft=options.draft)
    elif options.title is not None or options.body is not None:
        found = forge.update(found.number, _edits(forge, options))
    if options.reviewers:
        forge.request_reviewers(found.number, options.reviewers)
    session = record_pull_request(store, record.id, found, remote=options.remote, base=base,
                                  forge=forge.kind)
    log_pull_request(store, record.id, "opened" if created else "updated",
                     session.pull_request or {})
    return PrResult(found, created, pushed, session)


def _edits(forge: Forge, options: PrOptions) -> dict[str, Any]:
    fields: dict[str, Any] = {}
    if options.title is not None:
        fields.update(forge.create_fields(options.title, options.draft))
        fields.pop("draft", None)  # GitHub changes drafts through another call
    if options.body is not None:
        fields["body"] = options.body
    return fields


def refresh_pull_request(store: SessionStore, record: SessionRecord, config: Config,
                         client: httpx.Client, *, merge: bool = False) -> PrResult:
    """``--status`` (and ``--merge``): the pull request's state now, in the record."""
    known = record.pull_request
    if not known:
        raise NotFoundError(N_("session '{id}' has no pull request"), id=record.id,
                            hint_key=N_("open one with gz-ia session pr {id}"),
                            details={"id": record.id})
    remote = str(known.get("remote") or "origin")
    forge = forge_for(store, remote, config, client)
    if merge:
        forge.merge(known["number"])
    current = forge.get(known["number"])
    session = record_pull_request(store, record.id, current, remote=remote,
                                  base=known.get("base"), forge=forge.kind)
    if merge:
        log_pull_request(store, record.id, "merged", session.pull_request or {})
    return PrResult(current, False, None, session)


def record_pull_request(store: SessionStore, session_id: str, pr: PullRequest, *, remote: str,
                        base: Any, forge: str) -> SessionRecord:
    """Keep the pull request in the record; a merged one marks the session merged."""

    def keep(record: SessionRecord) -> None:
        record.pull_request = {**pr.to_json(), "remote": remote, "base": base, "forge": forge}
        if pr.state == "merged" and (record.merged_at is None
                                     or record.merged_commit != pr.merge_commit):
            record.merged_at = now_rfc3339()
            record.merged_commit = pr.merge_commit

    return store.update(session_id, keep)


def default_title(record: SessionRecord) -> str:
    """The session's name, else its prompt's first line (else its command), cut to 72."""
    text = summary_of(record) or f"gz-ia session {record.id}"
    return text if len(text) <= TITLE_WIDTH else text[:TITLE_WIDTH - 1].rstrip() + "…"


def default_body(store: SessionStore, record: SessionRecord, pushed: PushResult) -> str:
    """The prompt, the agent, the diff stat and the session id."""
    prompt = (record.initial_prompt or "").strip()
    if len(prompt) > PROMPT_IN_BODY:
        prompt = prompt[:PROMPT_IN_BODY] + "…"
    since = record.base_commit or "HEAD"
    stat = git_ok(["diff", "--stat", f"{since}...{pushed.commit}"], store.project.root).rstrip()
    parts = [prompt] if prompt else []
    parts += [f"Agent: {record.provider or '-'}", f"Session: {record.id}"]
    if stat:
        parts.append(f"```\n{stat}\n```")
    return "\n\n".join(parts) + "\n"
