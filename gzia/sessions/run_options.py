"""What a run is asked for by its front end (``gz-ia chat``, ``exec``, ``resume``, ``session
resume``, the terminal UI), in one typed value: adding a run option adds a field here."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass


@dataclass(frozen=True)
class RunOptions:
    """The options of one run; the settings and the terminal supply the rest
    (:mod:`gzia.sessions.run_settings`)."""

    background: bool = False
    """Run under a detached holder and return once the agent runs (``-b``)."""
    timeout_s: float | None = None
    no_output_timeout_s: float | None = None
    profiles: tuple[str, ...] = ()
    no_mcp: bool = False
    """Do not hand the session's MCP server to the agent."""
    allow_push: bool = False
    """``--allow-push``: lift the refusal of ``git push`` (else the ``allow_push`` setting)."""
    labels: Mapping[str, str] | None = None
    idempotency_key: str | None = None
    output_to_stderr: bool = False
    """The agent's output goes to stderr (JSON mode: stdout carries the envelope alone)."""
    name: str | None = None
    """``--name``: what a person calls the session (:mod:`gzia.sessions.naming`)."""
    direct: bool = False
    """``--direct``: outside a git work tree, run in the directory itself (else refused)."""
    exit_code: bool = False
    """``--exit-code``: end with the agent's own exit code (128+N for signal N)."""
    notify: bool = True
    """False: ``--no-notify``, the session sends no notification (kept on resume)."""
    sandbox: bool = False
    """``--sandbox``: run the agent in a bubblewrap sandbox (else the ``sandbox`` setting;
    kept on resume: docs/sandbox.md)."""
    base: str | None = None
    """``--base``: the branch, tag or commit a new session branches from (else HEAD)."""
    fetch: bool = False
    """``--fetch``: fetch the base branch from its remote first and branch from that."""
    skip_setup: bool = False
    """``--skip-setup``: a worktree created for the run gets no set-up run
    (:mod:`gzia.sessions.worktree_setup`); its ``.worktreeinclude`` files are still copied."""
    preapproved_tools: tuple[str, ...] = ()
    """gz-ia's own tools a supervised agent calls without asking (gzia.orchy.preapproved)."""
