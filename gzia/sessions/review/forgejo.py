"""Forgejo (and Gitea): API v1 under ``<root>/api/v1``, ``Authorization: token …``.

Its quirks, which :class:`gzia.sessions.review.forge.Forge` is built around: ``draft`` is
ignored when a pull request is created (a ``WIP:`` title prefix marks a draft), ``?head=``
filters are ignored when listing, pages hold at most 50, and a merge that cannot be made
answers 405.
"""

from __future__ import annotations

from gzia.sessions.review.forge import Forge


class ForgejoForge(Forge):
    kind = "Forgejo"

    def merge(self, number: int) -> None:
        self.call("POST", f"{self.repo_path}/pulls/{number}/merge", body={"Do": "merge"},
                  merging=True)


def forgejo_api(root: str) -> str:
    return f"{root.rstrip('/')}/api/v1"
