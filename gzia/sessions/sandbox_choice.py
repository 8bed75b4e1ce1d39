"""A front end's sandbox choice (the TUI's new-session form): what it starts at, whether it
can be changed, and what a start then gets.

The choice starts at the ``sandbox`` setting. It cannot be changed when this machine cannot
make a sandbox (no ``bwrap``, or one that cannot create its namespaces: a sandboxed start is
refused, never run unsandboxed) or when the administrator's policy sets ``sandbox = true``,
which a choice of "no" cannot lift (docs/sandbox.md, docs/configuration.md).
"""

from __future__ import annotations

from dataclasses import dataclass

from gzia.config import SOURCE_POLICY, load_config
from gzia.sandbox.probe import INSTALL_HINT, Support, sandbox_support

__all__ = ["INSTALL_HINT", "SandboxOffer", "sandbox_for", "sandbox_offer"]


@dataclass(frozen=True)
class SandboxOffer:
    on: bool
    """Chosen first: the ``sandbox`` setting."""
    support: Support
    """Whether ``bwrap`` is here and can make a sandbox."""
    policy_file: str | None = None
    """The policy file that requires the sandbox, when one does."""

    @property
    def locked(self) -> bool:
        return not self.support.works or self.policy_file is not None


def sandbox_offer() -> SandboxOffer:
    """The choice as the settings and this machine allow it (one ``bwrap`` probe, cached)."""
    config = load_config()
    value = config.value("sandbox")
    required = bool(value.value) and value.source == SOURCE_POLICY
    return SandboxOffer(bool(value.value), sandbox_support(),
                        (config.origin(value) or "") if required else None)


def sandbox_for(chosen: bool | None) -> bool:
    """Whether a start is sandboxed: ``chosen`` (None: the setting, as without
    ``--sandbox``), unless the administrator's policy requires the sandbox."""
    value = load_config().value("sandbox")
    if chosen is None or (value.source == SOURCE_POLICY and value.value):
        return bool(value.value)
    return chosen
