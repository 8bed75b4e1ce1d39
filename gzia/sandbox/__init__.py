"""Sandboxed sessions: the agent runs inside bubblewrap, writing only its worktree, its
commit's git paths, a private ``/tmp`` and its own state, with secrets hidden and its
network as the policy says (docs/sandbox.md).

:func:`sandbox_policy` decides (one place), :func:`sandboxed_argv` turns a policy into
bwrap's arguments (one place), :func:`require_sandbox` refuses a start where no sandbox
can be made, :func:`allowlist_network` is the proxy the owner of an ``allowlist``
sandbox runs. Nothing here knows sessions: :mod:`gzia.sessions.sandboxing` fills in the
inputs.
"""

from __future__ import annotations

from gzia.sandbox.bwrap import sandboxed_argv
from gzia.sandbox.gitpaths import GitPaths, commit_paths
from gzia.sandbox.network import NetworkPlan, allowlist_network
from gzia.sandbox.outside import OutsidePlan, outside_service, relay_argv
from gzia.sandbox.policy import SandboxInputs, SandboxPolicy, sandbox_policy
from gzia.sandbox.probe import Support, require_sandbox, sandbox_support
from gzia.sandbox.proxy import Denied
from gzia.sandbox.services import SandboxServices

__all__ = ["Denied", "GitPaths", "NetworkPlan", "OutsidePlan", "SandboxInputs", "SandboxPolicy",
           "SandboxServices", "Support", "allowlist_network", "commit_paths",
           "outside_service", "relay_argv", "require_sandbox", "sandbox_policy",
           "sandbox_support", "sandboxed_argv"]
