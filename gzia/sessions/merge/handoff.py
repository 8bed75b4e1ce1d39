"""``--resolve-with-agent``: a conflict between a session and its base, handed to an agent.

When ``session merge`` or ``session update`` would conflict, gz-ia starts a new session
(in the background, like ``chat -b``) that resolves it:

- its worktree branches from the session's branch, with the session's uncommitted work
  committed there first (the same safety commit as a merge), so it has all of it;
- the base is merged into that worktree with ``--no-commit`` before the agent starts: the
  conflict markers are in the files, ``MERGE_HEAD`` is set;
- its prompt names the conflicting files and both sides; the agent resolves, removes every
  marker and commits the merge;
- it is labelled ``resolves=<id>``, named after the session, and runs with the session's
  agent and permission level unless ``-p`` names another agent.

Nothing else changes: the base is untouched and the first session stays as it was. The
person reviews the new session like any other (``session diff``, ``show``) and merges it
instead of the first; its branch holds the first session's work and the resolution.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from gzia.sessions.base_ref import BaseChoice
from gzia.sessions.git import FALLBACK_IDENTITY, git_failure, identity_missing, rev_parse, run_git
from gzia.sessions.merge.checks import dirty_worktree
from gzia.sessions.merge.service import commit_worktree_changes
from gzia.sessions.record import SessionRecord
from gzia.sessions.store import SessionStore
from gzia.sessions.workspace import worktree_for

RESOLVES_LABEL = "resolves"
PROMPT = (
    "Resolve the merge conflicts in this repository. {base} ({base_commit}) has been merged "
    "into the work of session {id}{subject}, and the merge stopped on conflicts in: {files}. "
    "In each conflict, the first side (ours) is the session's work and the second side "
    "(theirs) is {base}. Keep what each side meant to do, remove every conflict marker, run "
    "the project's checks if it has any, then stage the files and commit the merge (git add "
    "... && git commit --no-edit)."
)
"""The agent's task (in English, like the agents' own instructions)."""
SUBJECT_CHARS = 120


@dataclass(frozen=True)
class ConflictHandoff:
    """What a resolving session starts from: the session's tip, and the base to merge in."""

    session_id: str
    tip: str
    """The session's branch, with its uncommitted work committed."""
    base_commit: str
    base_name: str
    base_branch: str | None
    files: tuple[str, ...]

    @property
    def start_point(self) -> BaseChoice:
        """The resolving session branches from the session's tip; its work is for the same
        base branch as the session's."""
        return BaseChoice(self.tip, self.base_branch)

    def prompt(self, record: SessionRecord) -> str:
        subject = record.name or record.initial_prompt or " ".join(record.command or ())
        subject = " ".join(subject.split())[:SUBJECT_CHARS]
        return PROMPT.format(base=self.base_name, base_commit=self.base_commit[:12],
                             id=self.session_id, subject=f" ({subject})" if subject else "",
                             files=", ".join(self.files))


def prepare_handoff(store: SessionStore, record: SessionRecord, *, base_commit: str,
                    base_name: str, files: list[str]) -> ConflictHandoff:
    """Commit the session's uncommitted work on its branch, and say where a resolving
    session starts."""
    worktree = worktree_for(store.project, record.id)
    if dirty_worktree(store.project, record.id) is not None:
        commit_worktree_changes(worktree, record)
    tip = rev_parse(worktree, "HEAD") or rev_parse(store.project.root, f"harness/{record.id}")
    return ConflictHandoff(record.id, tip or "", base_commit, base_name, record.base_branch,
                           tuple(files))


def merge_base_into(worktree: Path, handoff: ConflictHandoff) -> None:
    """Merge the base into a resolving session's new worktree, conflicts left in place
    for its agent (git's exit 1); any other failure is an error."""
    identity = list(FALLBACK_IDENTITY) if identity_missing(worktree) else []
    done = run_git([*identity, "merge", "--no-commit", "--no-ff", "-q", handoff.base_commit],
                   worktree)
    if done.returncode not in (0, 1):
        raise git_failure(done)
