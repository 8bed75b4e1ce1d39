"""Putting a session's profiles into its worktree, and taking them out again.

What is projected (docs/profiles.md): the profiles' instructions appended to a copy of the
instructions file the agent reads (``CLAUDE.md`` or ``AGENTS.md``), their skills where the
agent finds them, and, for agents that read MCP servers from a worktree file, that file.
``.harness/sessions/<id>.manifest.json`` records every file: created ones with their
hash, and the original each covers. The manifest exists exactly while the projection is in
the worktree: the runner takes it out when the agent exits; ``session merge`` and
``session delete`` take out one a killed gz-ia left behind.

While the agent runs, nothing projected can be committed by its ``git add -A``:

- a created file is listed (anchored) in a per-session excludes file that the agent's git
  gets as ``core.excludesFile`` through ``GIT_CONFIG_*``; it starts with the user's own
  global excludes, which that setting would otherwise replace;
- a tracked file gz-ia appended to (the project's ``AGENTS.md``) is marked
  ``skip-worktree`` in the worktree's own index, so git reads it as unchanged.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from gzia.atomic import write_atomic
from gzia.contract import ConflictError
from gzia.profiles.bundle import Bundle
from gzia.profiles.layout import layout_for
from gzia.profiles.mcp import merged_document
from gzia.sessions.git import git_ok, run_git
from gzia.sessions.project import Project
from gzia.sessions.store import EXCLUDES_SUFFIX, MANIFEST_SUFFIX

BLOCK_BEGIN = "<!-- gz-ia profiles: begin (this block is not part of the project) -->"
BLOCK_END = "<!-- gz-ia profiles: end -->"


def manifest_path(project: Project, session_id: str) -> Path:
    return project.sessions_dir / f"{session_id}{MANIFEST_SUFFIX}"


def excludes_path(project: Project, session_id: str) -> Path:
    return project.sessions_dir / f"{session_id}{EXCLUDES_SUFFIX}"


def project_bundle(project: Project, session_id: str, worktree: Path, driver_id: str,
                   bundle: Bundle) -> dict[str, Any]:
    """Write the projection into ``worktree``; returns the manifest (also written)."""
    layout = layout_for(driver_id)
    files: dict[str, bytes] = {}
    for name, source in bundle.skills.items():
        files.update(_skill_files(f"{layout.skills_dir}/{name}", source))
    if layout.mcp_file is not None and bundle.servers:
        files[layout.mcp_file] = _json(merged_document(bundle.servers))
    for relpath in files:
        if (worktree / relpath).exists() or (worktree / relpath).is_symlink():
            raise ConflictError("profiles.skill_in_worktree", path=relpath,
                                details={"path": relpath})
    manifest: dict[str, Any] = {"session_id": session_id, "provider": driver_id,
                                "profiles": list(bundle.names), "created_files": {},
                                "original_files": {}, "skip_worktree": []}
    _write_manifest(project, session_id, manifest)  # first: a crash below leaves a record
    if bundle.instructions:
        _append_instructions(worktree, layout.instructions, bundle.instructions, manifest)
    for relpath, content in files.items():
        write_atomic(worktree / relpath, content)
        manifest["created_files"][relpath] = _sha256(content)
    _write_manifest(project, session_id, manifest)
    _write_excludes(project, session_id, worktree, manifest)
    return manifest


def _append_instructions(worktree: Path, name: str, text: str, manifest: dict[str, Any]) -> None:
    path = worktree / name
    original = path.read_bytes() if path.is_file() and not path.is_symlink() else None
    block = f"{BLOCK_BEGIN}\n{text.strip()}\n{BLOCK_END}\n"
    if original is not None:
        block = ("\n" if original.endswith(b"\n") else "\n\n") + block
        manifest["original_files"][name] = _sha256(original)
        if _tracked(worktree, name):
            git_ok(["update-index", "--skip-worktree", "--", name], worktree)
            manifest["skip_worktree"].append(name)
    content = (original or b"") + block.encode("utf-8")
    write_atomic(path, content)
    manifest["instructions"] = {"file": name, "block": block, "sha256": _sha256(content),
                                "created": original is None}


def unproject(project: Project, session_id: str, worktree: Path) -> bool:
    """Take the projection out of ``worktree``; False when there was none."""
    path = manifest_path(project, session_id)
    try:
        manifest = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    if worktree.is_dir():
        _restore(worktree, manifest)
    path.unlink(missing_ok=True)
    excludes_path(project, session_id).unlink(missing_ok=True)
    return True


def _restore(worktree: Path, manifest: dict[str, Any]) -> None:
    for relpath in manifest.get("created_files", {}):
        target = worktree / relpath
        target.unlink(missing_ok=True)
        _remove_empty_parents(worktree, target.parent)
    instructions = manifest.get("instructions")
    if isinstance(instructions, dict):
        _strip_block(worktree / str(instructions["file"]), str(instructions["block"]),
                     delete_if_empty=bool(instructions["created"]))
    for relpath in manifest.get("skip_worktree", []):
        run_git(["update-index", "--no-skip-worktree", "--", relpath], worktree)


def _strip_block(path: Path, block: str, *, delete_if_empty: bool) -> None:
    """Remove gz-ia's block (the agent may have edited the rest of the file)."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError:
        return
    if block not in text:
        return
    rest = text.replace(block, "", 1)
    if delete_if_empty and not rest.strip():
        path.unlink()
    else:
        write_atomic(path, rest.encode("utf-8"))


def _remove_empty_parents(worktree: Path, directory: Path) -> None:
    while directory != worktree and worktree in directory.parents:
        try:
            directory.rmdir()
        except OSError:
            return
        directory = directory.parent


def _skill_files(prefix: str, source: Path) -> dict[str, bytes]:
    files = {}
    for path in sorted(source.rglob("*")):
        if path.is_file() and not path.is_symlink():
            files[f"{prefix}/{path.relative_to(source).as_posix()}"] = path.read_bytes()
    return files


def _tracked(worktree: Path, relpath: str) -> bool:
    return bool(run_git(["ls-files", "--", relpath], worktree).stdout.strip())


def _write_manifest(project: Project, session_id: str, manifest: dict[str, Any]) -> None:
    write_atomic(manifest_path(project, session_id), _json(manifest))


def _write_excludes(project: Project, session_id: str, worktree: Path,
                    manifest: dict[str, Any]) -> None:
    """The user's global excludes, then every created file (anchored at the top)."""
    own = _user_excludes(worktree)
    hidden = list(manifest["created_files"])
    instructions = manifest.get("instructions")
    if instructions and instructions["file"] not in manifest["skip_worktree"]:
        hidden.append(instructions["file"])  # created, or the agent's own untracked file
    lines = [f"/{relpath}" for relpath in hidden]
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


def excluding_environment(project: Project, session_id: str,
                          env: Mapping[str, str]) -> dict[str, str]:
    """``env`` plus ``core.excludesFile`` (appended after its ``GIT_CONFIG_*`` entries)."""
    from gzia.sessions.guard import configured_entries

    index = configured_entries(env)
    return {**env, f"GIT_CONFIG_KEY_{index}": "core.excludesFile",
            f"GIT_CONFIG_VALUE_{index}": str(excludes_path(project, session_id)),
            "GIT_CONFIG_COUNT": str(index + 1)}


def _sha256(content: bytes) -> str:
    return hashlib.sha256(content).hexdigest()


def _json(document: Any) -> bytes:
    return (json.dumps(document, indent=2, ensure_ascii=False) + "\n").encode("utf-8")



def mcp_config_path(project: Project, session_id: str) -> Path:
    """The session's ``mcpServers`` file: outside the worktree, under the ignored ``.harness``."""
    return project.harness_dir / "mcp" / f"{session_id}.json"


def write_mcp_config(project: Project, session_id: str, servers: Mapping[str, Any]) -> Path:
    """The profiles' MCP servers for agents that take a configuration file or variable."""
    path = mcp_config_path(project, session_id)
    write_atomic(path, _json(merged_document(servers)), mode=0o600)
    return path


def projected_paths(project: Project, session_id: str) -> list[str]:
    """The files a projection now in the worktree created (none when there is none)."""
    try:
        manifest = json.loads(manifest_path(project, session_id).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return []
    paths = list(manifest.get("created_files", {}))
    instructions = manifest.get("instructions")
    if isinstance(instructions, dict) and instructions.get("file") not in manifest.get(
            "skip_worktree", []):
        paths.append(str(instructions["file"]))
    return paths
