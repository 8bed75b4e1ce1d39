"""Putting a session's profiles into its worktree, and taking them out again.

What is projected (docs/profiles.md): the profiles' instructions, their skills where the
agent finds them, and, for agents that read MCP servers from a worktree file, that file.
A projection only creates files: it never writes to, replaces, follows or removes a file
or link of the project's (:mod:`gzia.sessions.projected_files`). The instructions go to
the agent's instructions file (``CLAUDE.md``, ``AGENTS.md``) when the worktree has none,
else to a second file the same agent reads (``.claude/rules/``, ``.pi/APPEND_SYSTEM.md``),
or to ``<id>.instructions.md`` in the store, named in the agent's inline configuration
(opencode's ``instructions``); any other agent is refused with ``CONFLICT`` before it
starts.

``.harness/sessions/<id>.manifest.json`` records every created file with its hash, and
the directories created for them. The manifest exists exactly while the projection is in
the worktree: the runner takes it out when the agent exits; ``session merge`` and
``session delete`` take out one a killed gz-ia left behind. ``<id>.projected`` keeps
every path any run of the session projected, for ``session merge``'s last check.

While the agent runs, nothing projected can be committed by its ``git add -A``: each
created file is listed (anchored) in a per-session excludes file that the agent's git
gets as ``core.excludesFile`` through ``GIT_CONFIG_*``; it starts with the user's own
global excludes, which that setting would otherwise replace. Orchy's
``workspace_commit`` reads the manifest itself, whatever its environment holds.
"""

from __future__ import annotations

import json
import os
import stat
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from gzia.atomic import write_atomic
from gzia.contract import ConflictError
from gzia.i18n import N_
from gzia.profiles.bundle import Bundle
from gzia.profiles.layout import AgentLayout, layout_for
from gzia.profiles.mcp import merged_document
from gzia.sessions.git import run_git
from gzia.sessions.guard import configured_entries
from gzia.sessions.project import Project
from gzia.sessions.projected_files import (
    create_file,
    is_free,
    refuse_occupied,
    remove_created_dirs,
    remove_if_unchanged,
    sha256,
)
from gzia.sessions.store import (
    EXCLUDES_SUFFIX,
    INSTRUCTIONS_SUFFIX,
    MANIFEST_SUFFIX,
    PROJECTED_SUFFIX,
)

BLOCK_BEGIN = "<!-- gz-ia profiles: begin (this block is not part of the project) -->"
BLOCK_END = "<!-- gz-ia profiles: end -->"


def manifest_path(project: Project, session_id: str) -> Path:
    return project.sessions_dir / f"{session_id}{MANIFEST_SUFFIX}"


def excludes_path(project: Project, session_id: str) -> Path:
    return project.sessions_dir / f"{session_id}{EXCLUDES_SUFFIX}"


def projected_log_path(project: Project, session_id: str) -> Path:
    return project.sessions_dir / f"{session_id}{PROJECTED_SUFFIX}"


def instructions_path(project: Project, session_id: str) -> Path:
    """The instructions an agent reads through its configuration (outside the worktree)."""
    return project.sessions_dir / f"{session_id}{INSTRUCTIONS_SUFFIX}"


def project_bundle(project: Project, session_id: str, worktree: Path, driver_id: str,
                   bundle: Bundle) -> dict[str, Any]:
    """Write the projection into ``worktree``; returns the manifest (also written).

    Nothing is written until every path is known to be free (:mod:`.projected_files`)."""
    layout = layout_for(driver_id)
    files = _worktree_files(layout, bundle)
    instructions = _place_instructions(worktree, layout, bundle, files,
                                       instructions_path(project, session_id))
    manifest: dict[str, Any] = {
        "session_id": session_id, "provider": driver_id, "profiles": list(bundle.names),
        "created_files": {relpath: sha256(content) for relpath, content in files.items()},
        "created_dirs": []}
    if instructions is not None:
        manifest["instructions"] = instructions
    remember_projected(project, session_id, files)
    _write_manifest(project, session_id, manifest)  # first: a crash below leaves a record
    try:
        for relpath, content in files.items():
            create_file(worktree, relpath, content, manifest["created_dirs"])
    finally:
        _write_manifest(project, session_id, manifest)
    _write_excludes(project, session_id, worktree, manifest)
    return manifest


def _worktree_files(layout: AgentLayout, bundle: Bundle) -> dict[str, bytes]:
    """The skills' files and the MCP file, by their path in the worktree."""
    files: dict[str, bytes] = {}
    for name, source in bundle.skills.items():
        files.update(_skill_files(f"{layout.skills_dir}/{name}", source))
    if layout.mcp_file is not None and bundle.servers:
        files[layout.mcp_file] = _json(merged_document(bundle.servers))
    return files


def _place_instructions(worktree: Path, layout: AgentLayout, bundle: Bundle,
                        files: dict[str, bytes], outside: Path) -> dict[str, str] | None:
    """Add the instructions to ``files``, or write them to ``outside`` (the store) for the
    agent's configuration, once every path of ``files`` is known to be free; the
    manifest's ``instructions`` entry (None: the profiles give none)."""
    block = _block(bundle.instructions).encode("utf-8") if bundle.instructions else None
    relpath = _instructions_file(worktree, layout) if block else None
    if block and relpath is not None:
        files[relpath] = block
    refuse_occupied(worktree, files)
    if block is None:
        return None
    if relpath is not None:
        return {"file": relpath}
    write_atomic(outside, block)
    return {"config": str(outside)}


def _instructions_file(worktree: Path, layout: AgentLayout) -> str | None:
    """The agent's instructions file when the worktree has none (as anything: a file, a
    link, a directory), else the second file the agent reads, if it has one, else None
    when its configuration can name a file outside the worktree: the project's own is
    never written to, replaced, followed or removed."""
    if is_free(worktree, layout.instructions):
        return layout.instructions
    if layout.more_instructions is not None:
        return layout.more_instructions
    if layout.instructions_config is not None:
        return None
    raise ConflictError(N_("'{path}' is the project's own (a file, a link or a directory): a "
                           "profile never changes it, and this agent reads no second instructions "
                           "file"),
                        path=layout.instructions,
                        hint_key=N_("remove the agents file from the profile, or use an agent that "
                                    "reads a second one (claude, pi-agent, opencode)"),
                        details={"path": layout.instructions})


def _block(text: str) -> str:
    return f"{BLOCK_BEGIN}\n{text.strip()}\n{BLOCK_END}\n"


def unproject(project: Project, session_id: str, worktree: Path) -> bool:
    """Take the projection out of ``worktree``; False when there was none."""
    path = manifest_path(project, session_id)
    try:
        manifest = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    if worktree.is_dir() and isinstance(manifest, dict):
        _restore(worktree, manifest)
    path.unlink(missing_ok=True)
    excludes_path(project, session_id).unlink(missing_ok=True)
    instructions_path(project, session_id).unlink(missing_ok=True)
    return True


def _restore(worktree: Path, manifest: dict[str, Any]) -> None:
    """Remove what gz-ia created and is still as it wrote it; directories it made, if
    empty. (Manifests of older versions may also name a block appended to the project's
    file and a ``skip-worktree`` flag: both are taken out too.)"""
    created = manifest.get("created_files")
    for relpath, digest in (created.items() if isinstance(created, dict) else ()):
        if isinstance(relpath, str) and isinstance(digest, str):
            remove_if_unchanged(worktree, relpath, digest)
    dirs = manifest.get("created_dirs")
    remove_created_dirs(worktree, [d for d in dirs if isinstance(d, str)]
                        if isinstance(dirs, list) else ())
    instructions = manifest.get("instructions")
    if isinstance(instructions, dict) and "created" in instructions:
        _restore_older(worktree, instructions)
    for relpath in manifest.get("skip_worktree", []):
        run_git(["update-index", "--no-skip-worktree", "--", relpath], worktree)


def _restore_older(worktree: Path, instructions: dict[str, Any]) -> None:
    """An older version's instructions: a file it created, or a block it appended to the
    project's own file, cut from it (a regular file only, never through a link)."""
    relpath, block = str(instructions.get("file")), str(instructions.get("block"))
    if instructions["created"] is True:
        remove_if_unchanged(worktree, relpath, sha256(block.encode("utf-8")))
        return
    path = worktree / relpath
    if relpath not in ("AGENTS.md", "CLAUDE.md") or not stat.S_ISREG(_lstat_mode(path)):
        return
    data, cut = path.read_bytes(), block.encode("utf-8")
    if cut in data:
        write_atomic(path, data.replace(cut, b"", 1), mode=stat.S_IMODE(path.lstat().st_mode))


def _lstat_mode(path: Path) -> int:
    try:
        return path.lstat().st_mode
    except OSError:
        return 0


def _skill_files(prefix: str, source: Path) -> dict[str, bytes]:
    files = {}
    for path in sorted(source.rglob("*")):
        if path.is_file() and not path.is_symlink():
            files[f"{prefix}/{path.relative_to(source).as_posix()}"] = path.read_bytes()
    return files


def _write_manifest(project: Project, session_id: str, manifest: dict[str, Any]) -> None:
    write_atomic(manifest_path(project, session_id), _json(manifest))


def _write_excludes(project: Project, session_id: str, worktree: Path,
                    manifest: dict[str, Any]) -> None:
    """The user's global excludes, then every created file (anchored at the top)."""
    own = _user_excludes(worktree)
    lines = [f"/{relpath}" for relpath in manifest["created_files"]]
    text = own + ("" if not own or own.endswith("\n") else "\n")
    text += "# gz-ia: files projected from profiles\n" + "".join(f"{x}\n" for x in lines)
    write_atomic(excludes_path(project, session_id), text.encode("utf-8"))


def _user_excludes(worktree: Path) -> str:
    done = run_git(["config", "--path", "--get", "core.excludesFile"], worktree)
    if done.ok and done.stdout.strip():
        path = Path(done.stdout.strip())
    else:
        base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
        path = Path(base) / "git" / "ignore"
    try:
        return path.read_text(encoding="utf-8", errors="surrogateescape")
    except OSError:
        return ""


def agent_environment(project: Project, session_id: str, manifest: Mapping[str, Any],
                      env: Mapping[str, str]) -> dict[str, str]:
    """``env`` plus ``core.excludesFile`` (appended after its ``GIT_CONFIG_*`` entries),
    and the instructions file outside the worktree in the agent's inline configuration
    when the projection put it there."""
    index = configured_entries(env)
    agent_env = {**env, f"GIT_CONFIG_KEY_{index}": "core.excludesFile",
                 f"GIT_CONFIG_VALUE_{index}": str(excludes_path(project, session_id)),
                 "GIT_CONFIG_COUNT": str(index + 1)}
    instructions = manifest.get("instructions")
    variable = layout_for(str(manifest.get("provider"))).instructions_config
    if isinstance(instructions, dict) and "config" in instructions and variable is not None:
        agent_env[variable] = _with_instructions(env.get(variable), str(instructions["config"]))
    return agent_env


def _with_instructions(inline: str | None, path: str) -> str:
    """An inline JSON configuration (the user's, if any) whose ``instructions`` list also
    names ``path``; one that is not a JSON object is replaced, as the driver does."""
    try:
        config = json.loads(inline) if inline else {}
    except ValueError:
        config = {}
    if not isinstance(config, dict):
        config = {}
    listed = config.get("instructions")
    config["instructions"] = [*(listed if isinstance(listed, list) else []), path]
    return json.dumps(config, separators=(",", ":"))


def _json(document: Any) -> bytes:
    return (json.dumps(document, indent=2, ensure_ascii=False) + "\n").encode("utf-8")


def projected_paths(project: Project, session_id: str) -> list[str]:
    """The files a projection now in the worktree created (none when there is none)."""
    try:
        manifest = json.loads(manifest_path(project, session_id).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return []
    if not isinstance(manifest, dict):
        return []
    paths = [p for p in manifest.get("created_files", {}) if isinstance(p, str)]
    instructions = manifest.get("instructions")
    if isinstance(instructions, dict) and "created" in instructions and (
            instructions.get("file") not in manifest.get("skip_worktree", [])):
        paths.append(str(instructions["file"]))  # an older version's instructions
    return paths


def remember_projected(project: Project, session_id: str, relpaths: Iterable[str]) -> None:
    """Add ``relpaths`` to every path this session ever projected (``<id>.projected``,
    kept until the session is deleted): ``session merge`` refuses a branch touching one."""
    known = ever_projected(project, session_id)
    added = sorted(set(relpaths) - set(known))
    if added:
        write_atomic(projected_log_path(project, session_id), _json(sorted([*known, *added])))


def ever_projected(project: Project, session_id: str) -> list[str]:
    try:
        paths = json.loads(projected_log_path(project, session_id).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return []
    return [p for p in paths if isinstance(p, str)] if isinstance(paths, list) else []
