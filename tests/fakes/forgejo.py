"""A stateful fake of the Forgejo API v1 (tags, releases, attachments), per registries.md Part 2.

Endpoints under ``/api/v1/repos/{owner}/{repo}``: ``GET/POST /tags`` (``page``/``limit``,
``X-Total-Count`` only; no ``page`` → every tag; newest first by date), ``GET /tags/{tag}``,
``GET/POST /releases`` (``Link`` + ``X-Total-Count``; drafts only for a write token;
``pre-release`` and ``draft`` filters), ``GET /releases/latest``, ``GET/DELETE
/releases/tags/{tag}`` (drafts included, as the real one), ``GET/PATCH/DELETE
/releases/{id}``, ``GET/POST /releases/{id}/assets`` (multipart field ``attachment`` or an
octet-stream body, ``?name=``), ``GET/DELETE /releases/{id}/assets/{attachment_id}``.
Downloads: ``GET /{owner}/{repo}/releases/download/{tag}/{name}`` and
``GET /attachments/{uuid}``. Auth: ``Authorization: token <t>`` (exact lower case) or
``Bearer``; a bad token → 401 ``user does not exist [uid: 0, name: ]``; writes without a
token → 401 ``token is required``; a private repository is 404 without a token.

State: ``tokens`` maps a token to ``{"login": ..., "write": bool}``; ``repos`` holds
:class:`RepoState`; ``max_limit`` caps page sizes (the server's ``MAX_RESPONSE_ITEMS``). Test
helper: :meth:`ForgejoFake.publish`.
"""

from __future__ import annotations

import email.parser
import email.policy
import itertools
import json
import re
import uuid
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any
from urllib.parse import quote, unquote, urlencode

from tests.fakes.http import FakeServer, Request, Response

API = "/api/v1/repos/"
DEFAULT_LIMIT, MAX_LIMIT = 30, 50
_ids = itertools.count(300)
_clock = itertools.count()


def _now() -> datetime:
    return datetime(2025, 3, 1, tzinfo=UTC) + timedelta(minutes=next(_clock))


@dataclass
class Attachment:
    name: str
    data: bytes
    id: int = field(default_factory=lambda: next(_ids))
    uuid: str = field(default_factory=lambda: str(uuid.uuid4()))
    created: datetime = field(default_factory=_now)
    size: int | None = None  # the size the API reports, when it should lie

    @property
    def reported_size(self) -> int:
        return self.size if self.size is not None else len(self.data)


@dataclass
class Release:
    tag_name: str
    name: str = ""
    body: str = ""
    draft: bool = False
    prerelease: bool = False
    target_commitish: str = "main"
    hide_archive_links: bool = False
    assets: list[Attachment] = field(default_factory=list)
    id: int = field(default_factory=lambda: next(_ids))
    created: datetime = field(default_factory=_now)


@dataclass
class Tag:
    name: str
    message: str = ""
    sha: str = "4b2e8d1f0a3c5e7b9d1f3a5c7e9b1d3f5a7c9e1b"
    created: datetime = field(default_factory=_now)


@dataclass
class RepoState:
    tags: list[Tag] = field(default_factory=list)
    releases: list[Release] = field(default_factory=list)
    private: bool = False


class ForgejoFake:
    def __init__(self) -> None:
        self.repos: dict[tuple[str, str], RepoState] = {("ops", "gz-ia"): RepoState()}
        self.tokens: dict[str, dict[str, Any]] = {}
        self.max_limit = MAX_LIMIT  # the server's [api] MAX_RESPONSE_ITEMS
        self.server: FakeServer | None = None

    # test-side helpers -----------------------------------------------------------------
    def repo(self, owner: str = "ops", name: str = "gz-ia") -> RepoState:
        return self.repos.setdefault((owner, name), RepoState())

    def publish(self, tag: str, files: dict[str, bytes], *, draft: bool = False,
                prerelease: bool = False, owner: str = "ops", name: str = "gz-ia") -> Release:
        repo = self.repo(owner, name)
        if not any(t.name == tag for t in repo.tags):
            repo.tags.append(Tag(tag, f"Release {tag}"))
        release = Release(tag, tag, draft=draft, prerelease=prerelease)
        release.assets = [Attachment(n, d) for n, d in files.items()]
        repo.releases.append(release)
        return release

    def tags_url(self, owner: str = "ops", name: str = "gz-ia") -> str:
        assert self.server is not None
        return f"{self.server.url}{API}{owner}/{name}/tags"

    @property
    def root(self) -> str:
        return self.server.url if self.server else ""

    # the app ---------------------------------------------------------------------------
    def __call__(self, request: Request) -> Response:
        if request.path.startswith(API):
            return self._api(request)
        if request.path.startswith("/attachments/"):
            return self._attachment_by_uuid(request.path.rsplit("/", 1)[1])
        match = re.fullmatch(r"/([^/]+)/([^/]+)/releases/download/([^/]+)/([^/]+)", request.path)
        if match:
            return self._download(request, *map(unquote, match.groups()))
        return self._error(404, "The target couldn't be found.", errors=[])

    def _json(self, value: Any, status: int = 200, **headers: str) -> Response:
        body = (json.dumps(value, separators=(",", ":")) + "\n").encode()
        return Response(status, body, {"Content-Type": "application/json;charset=utf-8",
                                       **headers})

    def _error(self, status: int, message: str, **extra: Any) -> Response:
        return self._json({"message": message, "url": f"{self.root}/api/swagger", **extra},
                          status)

    def _caller(self, request: Request) -> dict[str, Any] | bool | None:
        """None: anonymous; False: bad token; else the token's user."""
        value = request.headers.get("authorization")
        if value is None:
            return None
        scheme, _, token = value.partition(" ")
        if scheme != "token" and scheme.lower() != "bearer":
            return False
        return self.tokens.get(token, False)

    def _api(self, request: Request) -> Response:
        caller = self._caller(request)
        if caller is False:
            return self._error(401, "user does not exist [uid: 0, name: ]")
        parts = [unquote(p) for p in request.path[len(API):].split("/")]
        if len(parts) < 3:
            return self._error(404, "The target couldn't be found.", errors=[])
        repo = self.repos.get((parts[0], parts[1]))
        if repo is None or (repo.private and caller is None):
            return self._error(404, "The target couldn't be found.", errors=[])
        write = isinstance(caller, dict) and bool(caller.get("write"))
        if request.method not in ("GET", "HEAD"):
            if caller is None:
                return self._error(401, "token is required")
            if not write:
                return self._error(403, "user should have a permission to write to a repo")
        base = f"{self.root}{API}{parts[0]}/{parts[1]}"
        return _Routes(self, repo, request, base, write).dispatch(parts[2:])

    def _attachment_by_uuid(self, wanted: str) -> Response:
        for repo in self.repos.values():
            for release in repo.releases:
                for asset in release.assets:
                    if asset.uuid == wanted:
                        return _bytes(asset.data)
        return Response(404, b"Not Found")

    def _download(self, request: Request, owner: str, name: str, tag: str, file: str) -> Response:
        repo = self.repos.get((owner, name))
        caller = self._caller(request)
        if repo is None or (repo.private and not isinstance(caller, dict)):
            return Response(404, b"Not Found")
        releases = [r for r in repo.releases if r.tag_name == tag]
        if tag == "latest" and not releases:
            releases = _latest(repo)
        for release in releases:
            for asset in release.assets:
                if asset.name == file:
                    return _bytes(asset.data)
        return Response(404, b"Not Found")


def _bytes(data: bytes) -> Response:
    return Response(200, data, {"Content-Type": "application/octet-stream"})


def _latest(repo: RepoState) -> list[Release]:
    published = [r for r in repo.releases if not r.draft and not r.prerelease]
    return sorted(published, key=lambda r: (r.created, r.id), reverse=True)[:1]


def _page_args(request: Request, max_limit: int = MAX_LIMIT) -> tuple[int, int]:
    page = int(request.arg("page") or 0)
    limit = int(request.arg("limit") or 0)
    if limit <= 0:
        limit = DEFAULT_LIMIT
    return page, min(limit, max_limit)


class _Routes:
    def __init__(self, fake: ForgejoFake, repo: RepoState, request: Request, base: str,
                 write: bool) -> None:
        self.fake, self.repo, self.request, self.base, self.write = fake, repo, request, base, write
        self.html = base.replace("/api/v1/repos", "")

    def dispatch(self, rest: list[str]) -> Response:  # noqa: PLR0911 - a routing table
        method = self.request.method
        match rest:
            case ["tags"] if method == "GET":
                return self.list_tags()
            case ["tags"] if method == "POST":
                return self.create_tag()
            case ["tags", *name] if method == "GET":
                return self.get_tag("/".join(name))
            case ["releases"] if method == "GET":
                return self.list_releases()
            case ["releases"] if method == "POST":
                return self.create_release()
            case ["releases", "latest"]:
                latest = _latest(self.repo)
                return self.fake._json(self.release_json(latest[0])) if latest else self.missing()
            case ["releases", "tags", *name]:
                return self.by_tag("/".join(name))
            case ["releases", rid, "assets"] if method == "POST":
                return self.upload(int(rid))
            case ["releases", rid, "assets", aid]:
                return self.one_asset(int(rid), int(aid))
            case ["releases", rid, "assets"]:
                release = self.find(int(rid))
                return self.fake._json([self.asset_json(release, a) for a in release.assets]) \
                    if release else self.missing()
            case ["releases", rid]:
                return self.one_release(int(rid))
        return self.missing()

    def missing(self) -> Response:
        return self.fake._error(404, "The target couldn't be found.", errors=[])

    def find(self, rid: int) -> Release | None:
        return next((r for r in self.repo.releases if r.id == rid), None)

    # tags ------------------------------------------------------------------------------
    def tag_json(self, tag: Tag) -> dict[str, Any]:
        return {"name": tag.name, "message": tag.message, "id": tag.sha,
                "commit": {"url": f"{self.base}/git/commits/{tag.sha}", "sha": tag.sha,
                           "created": tag.created.isoformat()},
                "zipball_url": f"{self.html}/archive/{tag.name}.zip",
                "tarball_url": f"{self.html}/archive/{tag.name}.tar.gz",
                "archive_download_count": {"zip": 0, "tar_gz": 0}}

    def list_tags(self) -> Response:
        tags = sorted(self.repo.tags, key=lambda t: t.created, reverse=True)
        page, limit = _page_args(self.request, self.fake.max_limit)
        total = len(tags)
        if page > 0:
            tags = tags[(page - 1) * limit : page * limit]
        return self.fake._json([self.tag_json(t) for t in tags], **{
            "X-Total-Count": str(total), "Access-Control-Expose-Headers": "X-Total-Count"})

    def get_tag(self, name: str) -> Response:
        tag = next((t for t in self.repo.tags if t.name == name), None)
        return self.fake._json(self.tag_json(tag)) if tag else self.fake._error(404, name,
                                                                               errors=[])

    def create_tag(self) -> Response:
        body = json.loads(self.request.body or b"{}")
        tag = Tag(body["tag_name"], body.get("message", ""), body.get("target") or Tag.sha)
        self.repo.tags.append(tag)
        return self.fake._json(self.tag_json(tag), 201)

    # releases --------------------------------------------------------------------------
    def asset_json(self, release: Release, asset: Attachment) -> dict[str, Any]:
        names = [a.name for a in release.assets]
        url = (f"{self.html}/releases/download/{release.tag_name}/{quote(asset.name)}"
               if names.count(asset.name) == 1 else f"{self.fake.root}/attachments/{asset.uuid}")
        return {"id": asset.id, "name": asset.name, "size": asset.reported_size,
                "download_count": 0, "created_at": asset.created.isoformat(),
                "uuid": asset.uuid, "browser_download_url": url, "type": "attachment"}

    def release_json(self, release: Release, *, created: bool = False) -> dict[str, Any]:
        stamp = release.created.isoformat()
        assets = sorted(release.assets, key=lambda a: a.name)
        return {
            "id": release.id, "tag_name": release.tag_name,
            "target_commitish": release.target_commitish, "name": release.name,
            "body": release.body, "url": f"{self.base}/releases/{release.id}",
            "html_url": f"{self.html}/releases/tag/{release.tag_name}",
            "tarball_url": f"{self.html}/archive/{release.tag_name}.tar.gz",
            "zipball_url": f"{self.html}/archive/{release.tag_name}.zip",
            "hide_archive_links": release.hide_archive_links,
            "upload_url": f"{self.base}/releases/{release.id}/assets",
            "draft": release.draft, "prerelease": release.prerelease,
            "created_at": stamp, "published_at": stamp,
            "author": {"id": 7, "login": "release-bot", "login_name": "",
                       "email": "release-bot@noreply.forgejo.example.com",
                       "last_login": "0001-01-01T00:00:00Z", "username": "release-bot"},
            "assets": [self.asset_json(release, a) for a in assets],
            "archive_download_count": None if created else {"zip": 0, "tar_gz": 0},
        }

    def visible(self) -> list[Release]:
        releases = [r for r in self.repo.releases if self.write or not r.draft]
        for key, attr in (("draft", "draft"), ("pre-release", "prerelease")):
            wanted = self.request.arg(key)
            if wanted is not None:
                releases = [r for r in releases if getattr(r, attr) == (wanted == "true")]
        return sorted(releases, key=lambda r: (r.created, r.id), reverse=True)

    def list_releases(self) -> Response:
        releases = self.visible()
        page, limit = _page_args(self.request, self.fake.max_limit)
        page = max(page, 1)
        total = len(releases)
        chunk = releases[(page - 1) * limit : page * limit]
        headers = {"X-Total-Count": str(total),
                   "Access-Control-Expose-Headers": "Link, X-Total-Count"}
        if link := self.link(page, limit, total):
            headers["Link"] = link
        return self.fake._json([self.release_json(r) for r in chunk], **headers)

    def link(self, page: int, limit: int, total: int) -> str:
        last = max(1, -(-total // limit))
        query = {k: v[0] for k, v in self.request.query.items()}
        rels = []
        wanted = [("next", page + 1, page < last), ("last", last, page < last),
                  ("first", 1, page > 1), ("prev", page - 1, page > 1)]
        for rel, number, present in wanted:
            if present:
                q = urlencode(sorted({**query, "page": str(number)}.items()))
                rels.append(f'<{self.fake.root}{self.request.path}?{q}>; rel="{rel}"')
        return ",".join(rels)

    def create_release(self) -> Response:
        try:
            body = json.loads(self.request.body or b"{}")
        except ValueError:
            return self.fake._error(422, "invalid JSON")
        tag = body.get("tag_name")
        if not tag:
            return self.fake._error(422, "[TagName]: Required")
        if any(r.tag_name == tag for r in self.repo.releases):
            return self.fake._error(409, "Release has no Tag")
        release = Release(tag, body.get("name", ""), body.get("body", ""),
                          bool(body.get("draft")), bool(body.get("prerelease")),
                          body.get("target_commitish") or "main",
                          bool(body.get("hide_archive_links")))
        self.repo.releases.append(release)
        if not release.draft and not any(t.name == tag for t in self.repo.tags):
            self.repo.tags.append(Tag(tag))
        return self.fake._json(self.release_json(release, created=True), 201)

    def by_tag(self, tag: str) -> Response:
        release = next((r for r in self.repo.releases if r.tag_name == tag), None)
        if release is None:
            return self.missing()
        if self.request.method == "DELETE":
            if not self.write:
                return self.fake._error(401, "token is required")
            self.repo.releases.remove(release)
            return Response(204)
        return self.fake._json(self.release_json(release))

    def one_release(self, rid: int) -> Response:
        release = self.find(rid)
        if release is None:
            return self.missing()
        if self.request.method == "PATCH":
            body = json.loads(self.request.body or b"{}")
            for key in ("name", "body", "draft", "prerelease", "hide_archive_links",
                        "target_commitish", "tag_name"):
                if key in body and body[key] is not None:
                    setattr(release, key, body[key])
            if not release.draft and not any(t.name == release.tag_name for t in self.repo.tags):
                self.repo.tags.append(Tag(release.tag_name))
        elif self.request.method == "DELETE":
            self.repo.releases.remove(release)
            return Response(204)
        return self.fake._json(self.release_json(release))

    def one_asset(self, rid: int, aid: int) -> Response:
        """``GET`` or ``DELETE .../releases/{id}/assets/{attachment_id}`` (204 on delete)."""
        release = self.find(rid)
        asset = next((a for a in release.assets if a.id == aid), None) if release else None
        if release is None or asset is None:
            return self.missing()
        if self.request.method == "DELETE":
            release.assets.remove(asset)
            return Response(204)
        return self.fake._json(self.asset_json(release, asset))

    def upload(self, rid: int) -> Response:
        release = self.find(rid)
        if release is None:
            return self.missing()
        name = self.request.arg("name")
        ctype = self.request.headers.get("content-type", "")
        if ctype.startswith("multipart/form-data"):
            part = _multipart_file(ctype, self.request.body, "attachment")
            if part is None:
                return self.fake._error(400, "Could not upload attachment")
            name = name or part[0]
            data = part[1]
        else:
            if not name:
                return self.fake._error(400, "Missing 'name' parameter")
            data = self.request.body
        asset = Attachment(name, data)
        release.assets.append(asset)
        result = self.asset_json(release, asset)
        result["browser_download_url"] = f"{self.fake.root}/attachments/{asset.uuid}"
        return self.fake._json(result, 201)


def _multipart_file(ctype: str, body: bytes, field_name: str) -> tuple[str, bytes] | None:
    head = f"Content-Type: {ctype}\r\nMIME-Version: 1.0\r\n\r\n".encode()
    message = email.parser.BytesParser(policy=email.policy.HTTP).parsebytes(head + body)
    for part in message.iter_parts():
        if part.get_param("name", header="content-disposition") == field_name:
            filename = part.get_filename() or field_name
            return filename, part.get_payload(decode=True) or b""
    return None


def start_forgejo(tls_ca: Any = None) -> tuple[ForgejoFake, FakeServer]:
    fake = ForgejoFake()
    server = FakeServer(fake, tls_ca=tls_ca).start()
    fake.server = server
    return fake, server
