"""Session guardrails: git hooks that the agent's git runs, set through its environment only.

A session's agent gets ``core.hooksPath`` through ``GIT_CONFIG_COUNT``/``GIT_CONFIG_KEY_<n>``/
``GIT_CONFIG_VALUE_<n>`` (appended after any entries the user's environment already has),
pointing at hooks gz-ia writes under ``.harness/hooks/<digest>/``. No git configuration file
is written, so nothing outlives the agent's process tree.

Each hook refuses what a session must not do, then runs the hook of the same name that git
would have run without gz-ia (the project's, from ``.git/hooks`` or its own
``core.hooksPath``), with the same arguments and input, so the project's hooks all still
run:

- ``reference-transaction`` refuses, in the session's repository, any ref update other
  than the session's branch ``refs/heads/harness/<id>``; the session worktree's own
  refs (``HEAD``, ``ORIG_HEAD`` and the other pseudo-refs, ``refs/bisect/``,
  ``refs/worktree/``, ``refs/rewritten/``) stay free there. Other repositories (a clone
  the agent makes) are not restricted. ``git pack-refs`` rewrites every ref, so it is
  refused too, and automatic ``gc`` (which runs it) is turned off for the agent's git.
- ``pre-push`` refuses every push unless the session allows pushes.

Which hook is the project's is decided when the hook runs: the hook asks git for its hooks
directory with gz-ia's entry replaced by a key git ignores. The parameters travel in the
agent's environment (``GZ_SESSION_ID``, ``GZ_GUARD_*``). A guardrail stops accidents, not
a hostile agent: docs/sessions.md says what it cannot stop.
"""

from __future__ import annotations

import hashlib
import shlex
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

from gzia.atomic import write_atomic
from gzia.contract import IOFailure
from gzia.i18n import N_, gettext
from gzia.sessions.git import git_ok, run_git
from gzia.sessions.ids import BRANCH_PREFIX
from gzia.sessions.project import Project

HOOKS_DIR = "hooks"
NEUTRAL_KEY = "gz-ia.guard"
"""A configuration key git does not use: it stands in for gz-ia's entry when a hook asks
which hooks directory the project has."""

# githooks(5), without push-to-checkout and proc-receive: their mere presence changes what
# git does. Names the project has beyond these are added when the hooks are written.
HOOK_NAMES = (
    "applypatch-msg", "pre-applypatch", "post-applypatch", "pre-commit", "pre-merge-commit",
    "prepare-commit-msg", "commit-msg", "post-commit", "pre-rebase", "post-checkout",
    "post-merge", "pre-push", "pre-receive", "update", "post-receive", "post-update",
    "reference-transaction", "pre-auto-gc", "post-rewrite", "sendemail-validate",
    "fsmonitor-watchman", "p4-changelist", "p4-prepare-changelist", "p4-post-changelist",
    "p4-pre-submit", "post-index-change",
)
NEVER_WRAPPED = frozenset({"push-to-checkout", "proc-receive"})
NO_AUTOMATIC_GC = (("gc.auto", "0"), ("maintenance.auto", "false"))
"""Automatic gc packs every ref, which the hooks refuse: it would fail and leave a
``gc.log`` that stops the user's own automatic gc until removed."""

MINIMUM_GIT = (2, 31)
"""``GIT_CONFIG_COUNT`` and ``rev-parse --path-format`` came with git 2.31."""

SESSION_VARIABLE = "GZ_SESSION_ID"
ALLOW_PUSH_VARIABLE = "GZ_GUARD_ALLOW_PUSH"
COMMON_DIR_VARIABLE = "GZ_GUARD_COMMON_DIR"
GIT_DIR_VARIABLE = "GZ_GUARD_GIT_DIR"
CONFIG_INDEX_VARIABLE = "GZ_GUARD_CONFIG_INDEX"


@dataclass(frozen=True)
class SessionGuard:
    """What the hooks of one session need to know."""

    session_id: str
    worktree: Path
    allow_push: bool


def guarded_environment(
    project: Project, guard: SessionGuard, env: Mapping[str, str]
) -> dict[str, str]:
    """``env`` plus the session's git configuration entry and the hooks' parameters."""
    common_dir, git_dir, project_hooks = _git_paths(guard.worktree)
    hooks_dir = write_hooks(project, project_hooks)
    index = configured_entries(env)
    entries = (("core.hooksPath", str(hooks_dir)), *NO_AUTOMATIC_GC)
    guarded = dict(env)
    for offset, (key, value) in enumerate(entries):
        guarded[f"GIT_CONFIG_KEY_{index + offset}"] = key
        guarded[f"GIT_CONFIG_VALUE_{index + offset}"] = value
    guarded.update({
        "GIT_CONFIG_COUNT": str(index + len(entries)),
        CONFIG_INDEX_VARIABLE: str(index),
        SESSION_VARIABLE: guard.session_id,
        COMMON_DIR_VARIABLE: common_dir,
        GIT_DIR_VARIABLE: git_dir,
        ALLOW_PUSH_VARIABLE: "1" if guard.allow_push else "0",
    })
    return guarded


def unguarded(env: Mapping[str, str]) -> dict[str, str]:
    """What gz-ia's own git commands add to ``env`` so that the guardrails of a session
    whose agent runs gz-ia (``env`` is that agent's) do not apply to them: the
    configuration count cut back to the entries that were there before the session's."""
    raw = env.get(CONFIG_INDEX_VARIABLE, "").strip()
    return {"GIT_CONFIG_COUNT": raw} if raw.isdigit() else {}


def git_too_old() -> str | None:
    """The installed git's version when it is too old for the guardrails, else None."""
    import re


    done = run_git(["version"], ".")
    match = re.search(r"(\d+)\.(\d+)(?:\.\d+)?", done.stdout)
    if not done.ok or match is None:
        return None  # not a version gz-ia can read: assume a current git
    found = (int(match.group(1)), int(match.group(2)))
    return match.group(0) if found < MINIMUM_GIT else None


def configured_entries(env: Mapping[str, str]) -> int:
    """How many ``GIT_CONFIG_KEY_<n>`` entries ``env`` already has (git reads that many).

    A count git itself would reject (not a number, negative) counts as none: git fails
    every command with it anyway, and gz-ia's entry replaces it.
    """
    raw = env.get("GIT_CONFIG_COUNT", "").strip()
    return int(raw) if raw.isdigit() else 0


def write_hooks(project: Project, project_hooks: Path) -> Path:
    """Write the hooks (once per content: the directory is named by its digest)."""
    names = sorted(set(HOOK_NAMES) | set(_hook_names_in(project_hooks)))
    script = hook_script().encode("utf-8")
    digest = hashlib.sha256(script + "\0".join(names).encode("utf-8")).hexdigest()[:16]
    directory = project.harness_dir / HOOKS_DIR / digest
    _refuse_symlinks(project.harness_dir, project.harness_dir / HOOKS_DIR, directory)
    for name in names:
        path = directory / name
        if not _holds(path, script):
            write_atomic(path, script, mode=0o755)
    return directory


def _refuse_symlinks(*directories: Path) -> None:
    """gz-ia writes no hook through a symbolic link: it could lead anywhere."""
    for directory in directories:
        if directory.is_symlink():
            raise IOFailure(N_("{path} is a symbolic link: gz-ia "
                               "writes no session hooks through it"),
                            path=str(directory),
                            details={"path": str(directory)})


def _holds(path: Path, content: bytes) -> bool:
    try:
        return path.read_bytes() == content and path.stat().st_mode & 0o111 == 0o111
    except OSError:
        return False


def _hook_names_in(directory: Path) -> Iterable[str]:
    """Hook names the project has that git would run: executable files, not ``*.sample``."""
    import os

    try:
        entries = list(directory.iterdir())
    except OSError:
        return []
    return [
        entry.name for entry in entries
        if entry.is_file() and os.access(entry, os.X_OK) and "." not in entry.name
        and entry.name not in NEVER_WRAPPED
    ]


def _git_paths(worktree: Path) -> tuple[str, str, Path]:
    """The worktree's common git directory, its own git directory, and the hooks
    directory git uses there (the user's ``core.hooksPath`` included)."""
    lines = git_ok(["rev-parse", "--path-format=absolute", "--git-common-dir", "--git-dir",
                    "--git-path", "hooks"], worktree).splitlines()
    common_dir, git_dir, hooks = lines[0], lines[1], lines[2]
    return common_dir, git_dir, Path(hooks)


def hook_script() -> str:
    """The one script behind every hook name (it reads its name from ``$0``)."""

    push_lines = _message(gettext("[gz-ia GUARD] 'git push' is strictly forbidden from a gz-ia "
                                  "session "
                                  "worktree.")) + _message(gettext(
                                          "[gz-ia GUARD] Integration and publishing to the remote "
                                          "must be done by the human operator in the main "
                                          "repository."))
    ref_lines = _message(gettext("[gz-ia GUARD] Forbidden change: the reference '{ref}' cannot be "
                                 "modified from this worktree.",
                                 ref=_VAR + "ref" + _VAR)) + _message(
        gettext("[gz-ia GUARD] Commit the session's work on {branch}; the operator merges it with "
                "'gz-ia session merge {id}'.",
                branch=BRANCH_PREFIX + _VAR + SESSION_VARIABLE + _VAR,
                id=_VAR + SESSION_VARIABLE + _VAR))
    return HOOK_TEMPLATE.format(
        neutral_key=NEUTRAL_KEY, branch_prefix=BRANCH_PREFIX, push_lines=push_lines,
        ref_lines=ref_lines, session=SESSION_VARIABLE, allow_push=ALLOW_PUSH_VARIABLE,
        common_dir=COMMON_DIR_VARIABLE, git_dir=GIT_DIR_VARIABLE, index=CONFIG_INDEX_VARIABLE,
    )


_VAR = "\x00"
"""Marks a shell variable inside a rendered message: ``\\0name\\0`` becomes ``"$name"``."""


def _message(text: str) -> str:
    """A ``printf`` line writing ``text`` to stderr, its marked variables expanded."""
    parts = text.split(_VAR)
    words = [shlex.quote(part) if i % 2 == 0 else f'"${{{part}}}"' for i, part in
             enumerate(parts)]
    return "    printf '%s\\n' " + "".join(words) + " >&2\n"


HOOK_TEMPLATE = """#!/bin/sh
# gz-ia session guardrail (docs/sessions.md, "Guardrails"). Written by gz-ia; do not edit.
hook=${{0##*/}}
here=${{0%/*}}
paths=$(env "GIT_CONFIG_KEY_${{{index}:-x}}={neutral_key}" \\
    git rev-parse --path-format=absolute --git-common-dir --git-dir --git-path hooks) || exit 1
{{ read -r common; read -r gitdir; read -r hooks; }} <<EOF
$paths
EOF
[ "$hooks" = "$here" ] && hooks=

refuse_push() {{
{push_lines}    exit 1
}}

refuse_ref() {{
{ref_lines}    exit 1
}}

in_own_worktree() {{
    [ "$gitdir" = "${git_dir}" ]
}}

allowed() {{
    case $ref in
        "refs/heads/{branch_prefix}${session}") ;;
        refs/bisect/*|refs/worktree/*|refs/rewritten/*) in_own_worktree ;;
        */*) false ;;
        HEAD|AUTO_MERGE|*_HEAD) in_own_worktree ;;
        *) false ;;
    esac
}}

project_hook() {{
    [ -n "$hooks" ] && [ -x "$hooks/$hook" ]
}}

if [ "$hook" = pre-push ] && [ "${allow_push}" != 1 ]; then
    refuse_push
fi
if [ "$hook" = reference-transaction ] && [ "$1" = prepared ] && \\
        [ "$common" = "${common_dir}" ]; then
    input=
    while IFS= read -r line || [ -n "$line" ]; do
        input="$input$line
"
        ref=${{line##* }}
        allowed || refuse_ref
    done
    project_hook || exit 0
    printf '%s' "$input" | "$hooks/$hook" "$@"
    exit
fi
project_hook || exit 0
exec "$hooks/$hook" "$@"
"""


def without_guard(env: Mapping[str, str]) -> dict[str, str]:
    """``env`` without the guardrail :func:`guarded_environment` added (its git
    configuration entries and the hooks' parameters): what gz-ia's own git needs when
    it acts for a session on other branches (Orchy starting and merging sub-sessions
    from inside an agent's environment). The user's own entries stay."""
    cleaned = {k: v for k, v in env.items()
               if k != SESSION_VARIABLE and not k.startswith("GZ_GUARD_")}
    index = env.get(CONFIG_INDEX_VARIABLE, "")
    if not index.isdigit():
        return cleaned
    count = configured_entries(env)
    for number in range(int(index), count):
        cleaned.pop(f"GIT_CONFIG_KEY_{number}", None)
        cleaned.pop(f"GIT_CONFIG_VALUE_{number}", None)
    if int(index) > 0:
        cleaned["GIT_CONFIG_COUNT"] = index
    else:
        cleaned.pop("GIT_CONFIG_COUNT", None)
    return cleaned
