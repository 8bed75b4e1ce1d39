"""GitHub's REST API: ``https://api.github.com`` (GitHub Enterprise: ``<root>/api/v3``),
``Authorization: Bearer …``, the ``draft`` field honoured, merges with ``PUT``."""

from __future__ import annotations

from typing import Any, ClassVar

from gzia.sessions.review.forge import Forge

PUBLIC_API = "https://api.github.com"
PUBLIC_HOSTS = frozenset({"github.com", "www.github.com"})


class GitHubForge(Forge):
    kind = "GitHub"
    page_size_param = "per_page"
    page_size = 100
    headers: ClassVar[dict[str, str]] = {"Accept": "application/vnd.github+json",
                                         "X-GitHub-Api-Version": "2022-11-28"}

    def auth_header(self, token: str) -> str:
        return f"Bearer {token}"

    def create_fields(self, title: str, draft: bool) -> dict[str, Any]:
        return {"title": title, "draft": draft}

    def merge(self, number: int) -> None:
        self.call("PUT", f"{self.repo_path}/pulls/{number}/merge", body={}, merging=True)


def github_api(host: str | None, root: str | None) -> str | None:
    """The API of a github.com remote, or of a GitHub Enterprise server's web root."""
    if host in PUBLIC_HOSTS:
        return PUBLIC_API
    return f"{root.rstrip('/')}/api/v3" if root else None
