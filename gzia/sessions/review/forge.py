"""A forge's pull-request API, the part Forgejo (Gitea) and GitHub share.

One code path: :class:`Forge` lists, creates, reads and merges pull requests of one
repository through the update's HTTP client (:func:`gzia.update.client.make_client`:
proxies, the system trust store plus ``SSL_CERT_FILE``); :mod:`.forgejo` and
:mod:`.github` say where each forge differs (the token's header, page sizes, drafts,
the merge call). Pull requests of a branch are found by listing the open ones and
matching the head branch here: Forgejo ignores ``?head=`` filters.

The token travels only in the ``Authorization`` header, only to the API's origin, and
never over plain http except to this machine; messages name hosts, never the token.
Answers: 401 and 403 are :class:`AuthError`, 404 :class:`NotFoundError`, 405 and 409 on
a merge and 409 and 422 on a creation (one already open, no commits between the branches)
:class:`ConflictError`, anything else unexpected :class:`NetworkError`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from gzia.contract import (
    AuthError,
    ConflictError,
    GzError,
    InvalidInputError,
    NetworkError,
    NotFoundError,
)
from gzia.credentials import mask_credentials
from gzia.i18n import N_
from gzia.sessions.review.remotes import RemoteRepository
from gzia.update.client import Credentials, host_of, origin_of, translate_errors
from gzia.update.errors import SourceFailure

if TYPE_CHECKING:
    import httpx

MAX_PAGES = 100
"""Pages of open pull requests read at most while looking for a branch's."""


@dataclass(frozen=True)
class PullRequest:
    number: int
    url: str
    state: str
    """``open``, ``closed`` or ``merged``."""
    head: str
    merge_commit: str | None = None

    @classmethod
    def from_api(cls, raw: Any) -> PullRequest:
        """The fields Forgejo and GitHub both send: ``number``, ``html_url``, ``state``,
        ``merged`` (Forgejo) or ``merged_at`` (both), ``head.ref``, ``merge_commit_sha``."""
        if not isinstance(raw, dict) or type(raw.get("number")) is not int:
            raise NetworkError(N_("the forge sent a pull request gz-ia cannot read"))
        merged = bool(raw.get("merged")) or bool(raw.get("merged_at"))
        state = "merged" if merged else ("open" if raw.get("state") == "open" else "closed")
        head = raw.get("head")
        head = head if isinstance(head, dict) else {}
        sha = raw.get("merge_commit_sha")
        return cls(raw["number"], str(raw.get("html_url") or ""), state,
                   str(head.get("ref") or ""), sha if merged and isinstance(sha, str) else None)

    def to_json(self) -> dict[str, Any]:
        return {"number": self.number, "url": self.url, "state": self.state}


class Forge:
    """One repository's pull requests on one forge (a subclass per kind of forge)."""

    kind: ClassVar[str] = ""
    page_size_param: ClassVar[str] = "limit"
    page_size: ClassVar[int] = 50
    headers: ClassVar[dict[str, str]] = {}

    def __init__(self, client: httpx.Client, api: str, repository: RemoteRepository,
                 token: str | None) -> None:
        self.client = client
        self.api = api.rstrip("/")
        self.repository = repository
        self.credentials = Credentials(origin_of(api), self.auth_header(token)) \
            if token else None
        if self.credentials is not None and not self.credentials.protected:
            raise InvalidInputError(
                N_("refusing to send the {forge} token to {host} over plain http"),
                forge=self.kind, host=host_of(api),
                hint_key=N_("use an https URL for the forge's API"),
                details={"host": host_of(api)})

    # what each forge says differently ----------------------------------------------------
    def auth_header(self, token: str) -> str:
        return f"token {token}"

    def create_fields(self, title: str, draft: bool) -> dict[str, Any]:
        """``draft`` as the forge honours it: Forgejo ignores the field and reads a
        ``WIP:`` title prefix instead."""
        return {"title": title if not draft or title.startswith("WIP:") else f"WIP: {title}"}

    def merge(self, number: int) -> None:
        raise NotImplementedError

    # the shared path -------------------------------------------------------------------
    @property
    def repo_path(self) -> str:
        return f"/repos/{self.repository.owner}/{self.repository.name}"

    def find_open(self, branch: str) -> PullRequest | None:
        """The open pull request whose head is ``branch`` of this repository."""
        for page in range(1, MAX_PAGES + 1):
            items = self.call("GET", f"{self.repo_path}/pulls", params={
                "state": "open", "page": str(page), self.page_size_param: str(self.page_size)})
            if not isinstance(items, list) or not items:
                return None
            for raw in items:
                if self._same_head(raw, branch):
                    return PullRequest.from_api(raw)
        return None

    def _same_head(self, raw: Any, branch: str) -> bool:
        head = raw.get("head") if isinstance(raw, dict) else None
        if not isinstance(head, dict) or head.get("ref") != branch:
            return False
        repo = head.get("repo")
        full = repo.get("full_name") if isinstance(repo, dict) else None
        return not isinstance(full, str) or full.lower() == self.repository.full_name.lower()

    def create(self, *, branch: str, base: str, title: str, body: str,
               draft: bool) -> PullRequest:
        fields = {"head": branch, "base": base, "body": body, **self.create_fields(title, draft)}
        return PullRequest.from_api(self.call("POST", f"{self.repo_path}/pulls", body=fields))

    def update(self, number: int, fields: dict[str, Any]) -> PullRequest:
        return PullRequest.from_api(
            self.call("PATCH", f"{self.repo_path}/pulls/{number}", body=fields))

    def get(self, number: int) -> PullRequest:
        return PullRequest.from_api(self.call("GET", f"{self.repo_path}/pulls/{number}"))

    def request_reviewers(self, number: int, reviewers: list[str]) -> None:
        self.call("POST", f"{self.repo_path}/pulls/{number}/requested_reviewers",
                  body={"reviewers": reviewers})

    def call(self, method: str, path: str, *, body: Any = None,
             params: dict[str, str] | None = None, merging: bool = False) -> Any:
        url = self.api + path
        headers = {"Accept": "application/json", **self.headers}
        if self.credentials is not None:
            headers["Authorization"] = self.credentials.header
        try:
            with translate_errors(url, self.client):
                response = self.client.request(method, url, headers=headers, json=body,
                                               params=params)
        except SourceFailure as exc:
            raise NetworkError(N_("{forge} at {host}: {reason}"), forge=self.kind,
                               host=host_of(url), reason=exc.message,
                               details={"host": host_of(url)}) from exc
        if response.status_code >= 300:
            raise self._refusal(response, method, merging=merging)
        try:
            return response.json() if response.content.strip() else None
        except ValueError as exc:
            raise NetworkError(N_("{forge} at {host} sent an invalid JSON document"),
                               forge=self.kind, host=host_of(url),
                               details={"host": host_of(url)}) from exc

    def _refusal(self, response: httpx.Response, method: str, *, merging: bool) -> GzError:
        status, host = response.status_code, host_of(str(response.url))
        said = _server_message(response)
        params: dict[str, Any] = {"forge": self.kind, "host": host, "status": status, "said": said,
                  "repo": self.repository.full_name,
                  "details": {"status": status, "host": host, "message": said}}
        if status in (401, 403):
            return AuthError(N_("{forge} at {host} refused the request (HTTP {status}): {said}"),
                             hint_key=_TOKEN_HINTS[self.kind], **params)
        if status == 404:
            return NotFoundError(N_("{forge} at {host} has no {repo} or no such pull request, "
                                    "or the token may not see it (HTTP 404): {said}"), **params)
        if status in (405, 409) and merging:
            return ConflictError(N_("{forge} at {host} cannot merge the pull request (HTTP "
                                    "{status}): {said}"),
                                 hint_key=N_("resolve the conflicts on the session's branch, push "
                                             "it again, then merge"), **params)
        if status in (409, 422) and method == "POST":
            return ConflictError(N_("{forge} at {host} refused to open the pull request (HTTP "
                                    "{status}): {said}"), **params)
        return NetworkError(N_("{forge} at {host} answered HTTP {status} to {method}: {said}"),
                            method=method, **params)


_TOKEN_HINTS = {
    "Forgejo": N_("check forgejo_token (gz-ia config set forgejo_token ..., or GZ_FORGEJO_TOKEN): "
                  "it needs the write:repository scope"),
    "GitHub": N_("check github_token (gz-ia config set github_token ..., or GZ_GITHUB_TOKEN): it "
                 "needs pull-request write access to the repository"),
}


def _server_message(response: httpx.Response) -> str:
    """The ``message`` of the forge's error body (both forges send one), masked, short."""
    try:
        document = response.json()
    except ValueError:
        document = None
    message = document.get("message") if isinstance(document, dict) else None
    text = message if isinstance(message, str) and message else response.reason_phrase
    return mask_credentials(" ".join(text.split()))[:300]
