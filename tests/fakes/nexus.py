"""A stateful fake of Sonatype Nexus Repository 3 (raw repositories), per registries.md Part 1.

Endpoints: ``GET /service/rest/v1/search`` (components with nested assets) and
``GET /service/rest/v1/search/assets`` (flattened assets), filters ``repository``, ``group``,
``name`` (exact or trailing ``*``), ``q``; ``continuationToken`` pagination (decimal offset,
page of ``page_size`` components, a token whenever the page is full, so a multiple of the
page size ends with an empty page; ``hide`` prefixes emulate asset-level filtering, giving
empty pages that still carry a token); ``GET/HEAD/PUT/DELETE /repository/<repo>/<path>``.

Knobs (plain attributes, change them in a test): ``style`` ("sql": paths with a leading
slash and version ``""``; "orient": no slash, version ``null``), ``checksums`` ("full" or
"legacy": md5+sha1 only, as raw repositories before 3.68), ``file_size`` (False → ``null``),
``duplicate_keys`` (a 3.6x-style duplicated ``blobCreated``), ``users`` (HTTP Basic; empty →
no auth), ``anonymous_read``, ``anonymous_search_empty`` (3.71 with anonymous access off:
an anonymous search gets ``200`` and no items instead of ``401``), ``write_policy``
("allow", "allow_once", "deny"),
``download_base`` (an absolute base for ``downloadUrl``, as behind a reverse proxy).
"""

from __future__ import annotations

import hashlib
import json
from typing import Any
from urllib.parse import quote, unquote

from tests.fakes.http import FakeServer, Request, Response, json_response

SEARCH = "/service/rest/v1/search"
REALM = 'BASIC realm="Sonatype Nexus Repository Manager"'
DATE = "2025-03-14T09:21:07.412+00:00"


class NexusFake:
    def __init__(self) -> None:
        self.repos: dict[str, dict[str, bytes]] = {"gz-ia": {}}
        self.style = "sql"
        self.checksums = "full"
        self.file_size = True
        self.duplicate_keys = False
        self.page_size = 50
        self.hide: list[str] = []
        self.users: dict[str, str] = {}
        self.anonymous_read = True
        self.anonymous_search_empty = False  # 3.71: anonymous search → 200, no items
        self.write_policy = "allow"
        self.download_base: str | None = None
        self.server: FakeServer | None = None

    # test-side helpers -----------------------------------------------------------------
    def put(self, repo: str, path: str, data: bytes) -> None:
        self.repos.setdefault(repo, {})[path.lstrip("/")] = data

    def publish(self, files: dict[str, bytes], version: str, repo: str = "gz-ia") -> None:
        """Store a release the way release tooling does: ``gz-ia/<version>/<file>``."""
        for name, data in files.items():
            self.put(repo, f"gz-ia/{version}/{name}", data)

    def search_url(self, repo: str = "gz-ia", *, assets: bool = True, **params: str) -> str:
        assert self.server is not None
        query = "&".join(f"{k}={quote(v, safe='/*')}" for k, v in {"repository": repo,
                                                                     **params}.items())
        return f"{self.server.url}{SEARCH}{'/assets' if assets else ''}?{query}"

    # the app ---------------------------------------------------------------------------
    def __call__(self, request: Request) -> Response:
        if request.path.startswith(SEARCH):
            return self._search(request)
        if request.path.startswith("/repository/"):
            return self._content(request)
        return Response(404, b"", {"X-Siesta-FaultId": "0f0e0d0c"})

    def _auth(self, request: Request, *, write: bool) -> Response | None:
        if not self.users:
            return None
        creds = request.basic_auth()
        if creds is None and self.anonymous_read and not write:
            return None
        if creds is None or self.users.get(creds[0]) != creds[1]:
            return Response(401, b"", {"WWW-Authenticate": REALM})
        return None

    def _search(self, request: Request) -> Response:
        if (denied := self._auth(request, write=False)) is not None:
            if self.anonymous_search_empty and request.basic_auth() is None:
                return json_response(self._dumps({"items": [], "continuationToken": None}))
            return denied
        token = request.arg("continuationToken")
        if token is not None and not token.isdigit():
            return json_response('[ {\n  "id" : "*",\n  "message" : '
                                 '"Continuation token should be a number"\n} ]', 400)
        offset = int(token or 0)
        matches = self._matching(request)
        page = matches[offset : offset + self.page_size]
        next_token = str(offset + self.page_size) if len(page) == self.page_size else None
        page = [(r, p) for r, p in page if not any(p.startswith(h.lstrip("/")) for h in self.hide)]
        if request.path.rstrip("/").endswith("/assets"):
            items = [self._asset(r, p) for r, p in page]
        else:
            items = [self._component(r, p) for r, p in page]
        return json_response(self._dumps({"items": items, "continuationToken": next_token}))

    def _matching(self, request: Request) -> list[tuple[str, str]]:
        repo = request.arg("repository")
        found = []
        for name, files in self.repos.items():
            if repo is not None and name != repo:
                continue
            found += [(name, p) for p in files if self._filters_match(request, p)]
        return found

    def _filters_match(self, request: Request, path: str) -> bool:
        group = "/" + path.rsplit("/", 1)[0] if "/" in path else "/"
        checks = {"group": group, "name": self._path(path)}
        for key, actual in checks.items():
            wanted = request.arg(key)
            if wanted is None:
                continue
            if wanted.endswith("*"):
                if not actual.startswith(wanted[:-1]):
                    return False
            elif actual != wanted:
                return False
        q = request.arg("q")
        return q is None or q in path

    def _path(self, path: str) -> str:
        return "/" + path if self.style == "sql" else path

    def _checksum(self, data: bytes) -> dict[str, str]:
        sums = {"sha1": hashlib.sha1(data).hexdigest(), "md5": hashlib.md5(data).hexdigest()}  # noqa: S324
        if self.checksums == "full":
            sums["sha256"] = hashlib.sha256(data).hexdigest()
            sums["sha512"] = hashlib.sha512(data).hexdigest()
        return sums

    def _asset(self, repo: str, path: str) -> dict[str, Any]:
        data = self.repos[repo][path]
        base = self.download_base or (self.server.url if self.server else "")
        asset: dict[str, Any] = {
            "downloadUrl": f"{base}/repository/{repo}/{quote(path)}",
            "path": self._path(path),
            "id": "cmF3LXJlbGVhc2VzOjVkMWEyYjQ0",
            "repository": repo,
            "format": "raw",
            "checksum": self._checksum(data),
            "contentType": "application/octet-stream",
            "lastModified": DATE,
            "lastDownloaded": None,
            "uploader": "ci-publisher",
            "uploaderIp": "10.20.30.40",
            "fileSize": len(data) if self.file_size else None,
            "blobCreated": None if self.duplicate_keys else DATE,
            "blobStoreName": "default",
            "raw": {},
        }
        if self.duplicate_keys:
            asset["__dup_blobCreated__"] = DATE
        return asset

    def _component(self, repo: str, path: str) -> dict[str, Any]:
        group = "/" + path.rsplit("/", 1)[0] if "/" in path else "/"
        return {
            "id": "cmF3LXJlbGVhc2VzOmE4ZjJjMTBl",
            "repository": repo,
            "format": "raw",
            "group": group,
            "name": self._path(path),
            "version": "" if self.style == "sql" else None,
            "assets": [self._asset(repo, path)],
        }

    @staticmethod
    def _dumps(document: dict[str, Any]) -> str:
        text = json.dumps(document, indent=2, separators=(",", " : "))
        return text.replace('"__dup_blobCreated__"', '"blobCreated"')

    def _content(self, request: Request) -> Response:
        _, _, rest = request.path.partition("/repository/")
        repo, _, path = rest.partition("/")
        path = unquote(path)
        if (denied := self._auth(request, write=request.method in ("PUT", "DELETE"))) is not None:
            return denied
        files = self.repos.get(repo)
        if files is None:
            return Response(404, b"", reason="Repository not found")
        if request.method in ("GET", "HEAD"):
            return self._get_content(files, path)
        if request.method == "PUT":
            return self._put_content(repo, files, path, request.body)
        if request.method == "DELETE":
            return Response(204) if files.pop(path, None) is not None else Response(404)
        return Response(405)

    @staticmethod
    def _get_content(files: dict[str, bytes], path: str) -> Response:
        data = files.get(path)
        if data is None:
            return Response(404, b"", reason=f"Not Found: /{path}")
        return Response(200, data, {
            "Content-Type": "application/octet-stream",
            "ETag": f'"{hashlib.sha1(data).hexdigest()}"',  # noqa: S324 - Nexus' ETag is sha1
            "Last-Modified": "Fri, 14 Mar 2025 09:21:07 GMT",
            "Content-Disposition": "attachment",
        })

    def _put_content(self, repo: str, files: dict[str, bytes], path: str, body: bytes) -> Response:
        if self.write_policy == "deny":
            return Response(400, b"", reason=f"{repo}/{path} is read-only")
        if self.write_policy == "allow_once" and path in files:
            return Response(400, b"", reason=f"{repo}/{path} cannot be updated")
        files[path] = body
        return Response(201)


def start_nexus(tls_ca: Any = None) -> tuple[NexusFake, FakeServer]:
    fake = NexusFake()
    server = FakeServer(fake, tls_ca=tls_ca).start()
    fake.server = server
    return fake, server
