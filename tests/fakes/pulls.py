"""A forge's pull-request API on 127.0.0.1: Forgejo (API v1) or GitHub (REST), as documented.

Forgejo (docs/../registries.md part 2, and the quirks the issue names): ``Authorization:
token <PAT>``; ``draft`` is ignored on create (a ``WIP:`` title is the draft); ``?head=``
is ignored when listing (every open pull request comes back, ``limit`` at most 50, pages
from 1, ``X-Total-Count``); a merge that cannot be made answers 405; a bad token 401
``{"message": "user does not exist [uid: 0, name: ]", "url": ...}``; a token without the
scope 403; an unknown repository 404 ``{"message": "The target couldn't be found.", ...}``.
GitHub: ``Authorization: Bearer <PAT>``, ``draft`` honoured, ``per_page`` up to 100, merge
with ``PUT``, 405 "Pull Request is not mergeable".
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from tests.fakes.http import FakeServer, Request, Response, json_response


@dataclass
class PullsFake:
    kind: str = "forgejo"  # or "github"
    owner: str = "acme"
    repo: str = "widget"
    token: str = "pr-t0ken-5ecret"
    writable: bool = True  # False: the token lacks the write scope (403 on writes)
    mergeable: bool = True  # False: a merge answers 405
    pulls: list[dict[str, Any]] = field(default_factory=list)
    server: FakeServer | None = None

    @property
    def prefix(self) -> str:
        return "/api/v1" if self.kind == "forgejo" else ""

    @property
    def api_url(self) -> str:
        assert self.server is not None
        return self.server.url + self.prefix

    @property
    def root_url(self) -> str:
        """What ``forgejo_url`` is set to (GitHub: the API URL itself)."""
        assert self.server is not None
        return self.server.url + "/" if self.kind == "forgejo" else self.api_url

    def add_pull(self, head: str, *, title: str = "someone else's", state: str = "open",
                 base: str = "main") -> dict[str, Any]:
        number = len(self.pulls) + 1
        pull = {"number": number, "title": title, "body": "", "state": state, "merged": False,
                "merged_at": None, "merge_commit_sha": None, "draft": False,
                "html_url": f"{self.server_web}/{self.owner}/{self.repo}/pulls/{number}",
                "head": {"ref": head, "label": head,
                         "repo": {"full_name": f"{self.owner}/{self.repo}"}},
                "base": {"ref": base}, "requested_reviewers": []}
        self.pulls.append(pull)
        return pull

    def merge_on_server(self, number: int, sha: str = "f" * 40) -> None:
        """Someone merged it in the forge's web page."""
        pull = self.pulls[number - 1]
        pull.update(state="closed", merged=True, merged_at="2026-03-02T10:00:00Z",
                    merge_commit_sha=sha)

    @property
    def requests(self) -> list[Request]:
        assert self.server is not None
        return self.server.requests

    @property
    def server_web(self) -> str:
        assert self.server is not None
        return self.server.url

    # serving -------------------------------------------------------------------------------
    def __call__(self, request: Request) -> Response:
        if not self._authorized(request):
            return self._error(401, "user does not exist [uid: 0, name: ]" if self.kind ==
                               "forgejo" else "Bad credentials")
        base = f"{self.prefix}/repos/{self.owner}/{self.repo}/pulls"
        if not request.path.startswith(base):
            return self._error(404, "The target couldn't be found." if self.kind == "forgejo"
                               else "Not Found")
        if request.method != "GET" and not self.writable:
            return self._error(403, "token does not have at least one of required scope(s): "
                               "[write:repository]")
        rest = [p for p in request.path[len(base):].split("/") if p]
        return self._route(request, rest)

    def _route(self, request: Request, rest: list[str]) -> Response:
        if not rest:
            return self._list(request) if request.method == "GET" else self._create(request)
        if not rest[0].isdigit() or not 1 <= int(rest[0]) <= len(self.pulls):
            return self._error(404, "The target couldn't be found.")
        pull = self.pulls[int(rest[0]) - 1]
        if rest[1:] == ["merge"]:
            return self._merge(pull, request)
        if rest[1:] == ["requested_reviewers"]:
            pull["requested_reviewers"] += json.loads(request.body)["reviewers"]
            return json_response(json.dumps(pull), 201)
        if request.method == "PATCH":
            pull.update({k: v for k, v in json.loads(request.body).items()
                         if k in ("title", "body")})
        return json_response(json.dumps(pull))

    def _list(self, request: Request) -> Response:
        size_name, cap = ("limit", 50) if self.kind == "forgejo" else ("per_page", 100)
        size = min(int(request.arg(size_name) or 30), cap)
        page = int(request.arg("page") or 1)
        wanted = request.arg("state") or "open"
        chosen = [p for p in self.pulls if wanted == "all" or p["state"] == wanted]
        # ?head= is ignored, as Forgejo does
        items = chosen[(page - 1) * size: page * size]
        return json_response(json.dumps(items), **{"X-Total-Count": str(len(chosen))})

    def _create(self, request: Request) -> Response:
        fields = json.loads(request.body)
        head = fields["head"]
        if any(p["head"]["ref"] == head and p["state"] == "open" for p in self.pulls):
            return self._error(409 if self.kind == "forgejo" else 422,
                               "pull request already exists for these targets")
        pull = self.add_pull(head, title=fields["title"], base=fields["base"])
        pull["body"] = fields.get("body", "")
        if self.kind == "github":
            pull["draft"] = bool(fields.get("draft"))  # Forgejo ignores it
        return json_response(json.dumps(pull), 201)

    def _merge(self, pull: dict[str, Any], request: Request) -> Response:
        if request.method != ("POST" if self.kind == "forgejo" else "PUT"):
            return self._error(405, "Method Not Allowed")
        if not self.mergeable:
            return self._error(405, "Please try again later" if self.kind == "forgejo"
                               else "Pull Request is not mergeable")
        self.merge_on_server(pull["number"], "e" * 40)
        return Response(200) if self.kind == "forgejo" else json_response(
            json.dumps({"merged": True, "sha": "e" * 40}))

    def _authorized(self, request: Request) -> bool:
        scheme = "token" if self.kind == "forgejo" else "Bearer"
        return request.headers.get("authorization") == f"{scheme} {self.token}"

    def _error(self, status: int, message: str) -> Response:
        assert self.server is not None
        body: dict[str, Any] = {"message": message, "url": f"{self.server.url}/api/swagger"}
        if status == 404:
            body["errors"] = []
        return json_response(json.dumps(body), status)


def start_pulls(kind: str = "forgejo", tls_ca: Any = None) -> tuple[PullsFake, FakeServer]:
    fake = PullsFake(kind)
    fake.server = FakeServer(fake, tls_ca=tls_ca).start()
    return fake, fake.server
