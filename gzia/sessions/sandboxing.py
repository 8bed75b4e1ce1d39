"""A session's agent command, wrapped in its sandbox (docs/sandbox.md): the session's side
of :mod:`gzia.sandbox`, which knows nothing of sessions.

:func:`check_sandbox` runs before anything of a new session exists, so a start that
cannot be sandboxed leaves nothing behind and never runs unsandboxed.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path

from gzia.config import load_config, paths
from gzia.drivers.base import Driver, StatePath, sandbox_hosts_of, sandbox_state_of
from gzia.sandbox import (
    NetworkPlan,
    OutsidePlan,
    SandboxInputs,
    SandboxPolicy,
    commit_paths,
    relay_argv,
    require_sandbox,
    sandbox_policy,
    sandboxed_argv,
)
from gzia.sandbox.policy import NETWORK_ALLOWLIST, NETWORK_HOST
from gzia.sessions.sandbox_floor import SandboxFloor, parent_floor
from gzia.sessions.sandbox_network import service_path
from gzia.sessions.store import SessionStore
from gzia.sessions.workspace import Workspace
from gzia.supervisor.command import Command

PROXY_VARIABLES = frozenset({"http_proxy", "https_proxy", "all_proxy", "no_proxy",
                             "ftp_proxy"})
"""The proxy settings of an environment, in either case."""


__all__ = ["check_sandbox", "relay_argv", "sandboxed"]


def check_sandbox(wanted: bool) -> None:
    """Raise (exit 1, the install hint) when a sandbox is wanted and cannot be made here."""
    if wanted:
        require_sandbox()


def sandboxed(command: Command, workspace: Workspace, driver: Driver, store: SessionStore,
              session_id: str) -> tuple[Command, SandboxPolicy]:
    """``command`` run inside the session's sandbox, and the policy it runs under (its
    ``proxy`` and ``outside``: what the run's owner serves,
    :mod:`gzia.sessions.sandbox_network`)."""
    bwrap = require_sandbox()
    outside = OutsidePlan(service_path(session_id, "out"), _outside_commands(
        store, session_id, driver), store.project.root)
    floor = parent_floor(store, session_id)
    policy = sandbox_policy(replace(_inputs(workspace, driver, command.env, session_id, floor),
                                    outside=outside))
    argv = sandboxed_argv(bwrap, policy, list(command.argv))
    env = command.env if policy.network == NETWORK_HOST else _without_proxies(command.env)
    return replace(command, argv=tuple(argv), env=env), policy


def _inputs(workspace: Workspace, driver: Driver, env: Mapping[str, str], session_id: str,
            floor: SandboxFloor | None) -> SandboxInputs:
    """The settings' sandbox, never looser than ``floor`` (a sandboxed parent's)."""
    config = load_config()
    git = None
    if workspace.is_isolated and workspace.branch_name:
        git = commit_paths(Path(workspace.target_dir), workspace.branch_name)
    network = str(config.get("sandbox_network"))
    hosts = tuple(dict.fromkeys((*sandbox_hosts_of(driver),
                                 *(config.get("sandbox_allow_hosts") or ()))))
    writable = tuple(config.get("sandbox_rw") or ())
    hidden = tuple(config.get("sandbox_hide") or ())
    if floor is not None:
        network, hosts = floor.network_for(network), floor.hosts_for(hosts)
        writable = floor.writable_for(writable, env.get("HOME"))
        hidden = (*hidden, *floor.hidden)
    proxy = None
    if network == NETWORK_ALLOWLIST:
        proxy = NetworkPlan(service_path(session_id, "net"), hosts)
    return SandboxInputs(
        workdir=Path(workspace.target_dir), project_root=Path(workspace.working_dir),
        network=network, git=git, proxy=proxy,
        agent_state=_agent_state(sandbox_state_of(driver, env)), gzia_dirs=_gzia_dirs(),
        read_only=(*_program_dirs(env), *_interpreter_dirs(),
                   *(config.get("sandbox_ro") or ())),
        writable=writable, hidden=hidden, env=env)


def _outside_commands(store: SessionStore, session_id: str,
                      driver: Driver) -> tuple[tuple[str, ...], ...]:
    """gz-ia's commands the agent may have run outside: its Orchy server, its hooks."""
    # lazy: start-up speed (off the path of session list and --help)
    from gzia.sessions.mcp_wiring import server_args
    from gzia.sessions.state_sources import hook_args

    return server_args(store.project, session_id), hook_args(store, session_id, driver)


def _without_proxies(env: Mapping[str, str]) -> dict[str, str]:
    """Without the user's proxy settings (their credentials too): a sandbox without the
    host's network cannot reach that proxy; ``allowlist``'s shim sets its own."""
    return {name: value for name, value in env.items()
            if name.lower() not in PROXY_VARIABLES}


def _agent_state(declared: tuple[StatePath, ...]) -> tuple[Path, ...]:
    """The agent's state paths, its directories created (the agent would create them, and
    it cannot inside a read-only home); a file is bound only when it exists."""
    for item in declared:
        if item.directory:
            item.path.mkdir(parents=True, exist_ok=True)
    return tuple(item.path for item in declared)


def _program_dirs(env: Mapping[str, str]) -> tuple[str, ...]:
    """The agent's PATH, shown read-only wherever it is (a directory under ``/tmp`` too:
    the sandbox's own ``/tmp`` is empty)."""
    return tuple(entry for entry in env.get("PATH", "").split(os.pathsep)
                 if entry and Path(entry).is_absolute())


def _interpreter_dirs() -> tuple[str, ...]:
    """The Python that runs the sandbox's shim and its relay to gz-ia outside
    (gzia.sandbox.shim, gzia.sandbox.outside), shown read-only wherever it is installed: a
    virtual environment under ``/tmp`` too."""
    prefixes = (Path(sys.executable).parent.parent, Path(sys.prefix), Path(sys.base_prefix))
    return tuple(dict.fromkeys(str(prefix) for prefix in prefixes))


def _gzia_dirs() -> tuple[Path, ...]:
    """gz-ia's own files that a sandbox hides: its config (credentials), its state, its
    runtime dir (the control sockets of every session). Its data (plugins) and cache (the
    zipapp's unpacked dependencies) stay readable: ``gz-ia mcp`` runs inside."""
    where = paths()
    return (where.config_dir, where.config_file, where.state_dir, where.runtime_dir)
