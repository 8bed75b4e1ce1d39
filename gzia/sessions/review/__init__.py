"""``session push`` and ``session pr``: publishing a session's work for review.

:mod:`.push` pushes the branch with the user's own git credentials, :mod:`.remotes`
reads the forge and repository off a remote's URL, :mod:`.forge` is the pull-request
API both forges share, :mod:`.forgejo` and :mod:`.github` what each says differently,
:mod:`.service` ties them together and keeps the pull request in the session's record;
:mod:`.conflicts` names the conflict of a pull request the forge cannot merge.
"""

from __future__ import annotations

from gzia.sessions.review.conflicts import pr_conflict
from gzia.sessions.review.push import PushResult, push_session, pushable_branch
from gzia.sessions.review.service import (
    PrOptions,
    PrResult,
    forge_for,
    open_pull_request,
    refresh_pull_request,
)

__all__ = ["PrOptions", "PrResult", "PushResult", "forge_for", "open_pull_request",
           "pr_conflict", "push_session", "pushable_branch", "refresh_pull_request"]
