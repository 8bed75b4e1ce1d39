"""Human renderings of a merge's result, and the warning for commits gz-ia made under its
own name where git knows no identity (``merge``, ``session update``, ``push``, ``pr``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from gzia.contract import Problem, WarningCode
from gzia.i18n import N_, gettext

if TYPE_CHECKING:
    from gzia.sessions.merge import MergeResult

NOTE_NO_COMMIT = N_("Note: the changes are staged but not committed (--no-commit).")
NOTE_SQUASH_NO_COMMIT = N_("Note: the changes are staged but not committed (--squash "
                           "--no-commit).")


def render_merge(result: MergeResult, done_key: str) -> list[str]:
    if result.already_up_to_date:
        return [gettext("✧ The branch is already up to date. Nothing to merge.")]
    lines = [gettext(done_key, id=result.session_id), gettext("Integrated files:")]
    lines += (f"  • {name}" for name in result.files)
    if result.fast_forward:
        lines.append(gettext("Fast-forward of {into}: no merge commit was made.",
                             into=result.into))
    if result.no_commit:
        lines.append(gettext(NOTE_SQUASH_NO_COMMIT if result.squash else NOTE_NO_COMMIT))
    return lines


def identity_warning(result: MergeResult) -> Problem | None:
    """git knows no identity in the base: gz-ia committed as itself; said once per merge,
    and only when gz-ia made a commit (a fast-forward onto the agent's own commits made
    none)."""
    committed = result.safety_commit is not None or not (
        result.no_commit or result.already_up_to_date or result.fast_forward)
    if not result.fallback_identity or not committed:
        return None
    if result.fast_forward:  # no merge commit: gz-ia's commit was the worktree's work
        return commits_identity_warning(result.session_id, True)
    return _identity_problem(N_("git has no user.name/user.email here: the merge of session "
                                "'{id}' was committed as gz-ia <gz-ia@localhost>; {hint}"),
                             result.session_id)


def commits_identity_warning(session_id: str, fallback_identity: bool) -> Problem | None:
    """``session update``, ``push`` and ``pr``: gz-ia committed for the session where git
    knows no identity, so as gz-ia <gz-ia@localhost>; said once, as ``merge`` says it."""
    if not fallback_identity:
        return None
    return _identity_problem(N_("git has no user.name/user.email here: gz-ia committed the "
                                "work of session '{id}' as gz-ia <gz-ia@localhost>; {hint}"),
                             session_id)


def _identity_problem(key: str, session_id: str) -> Problem:
    hint = gettext("set yours: git config --global user.name 'Your Name' && git config "
                   "--global user.email you@example.com")
    return Problem(WarningCode.NO_GIT_IDENTITY, gettext(key, id=session_id, hint=hint),
                   hint=hint,
                   details={"id": session_id, "name": "gz-ia", "email": "gz-ia@localhost"})
