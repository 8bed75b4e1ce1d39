"""Agent CLIs governed with gz-ia (docs/drivers.md, "Updates and versions"): a session's
agent gets its own updater switched off (unless ``agent_autoupdate``), and a session whose
agent is outside the versions the administrator's policy allows is refused."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from gzia.config import load_config
from gzia.contract import SafetyBlockError, TimeoutFailure
from gzia.drivers.status import PROBE_TIMEOUT
from gzia.i18n import N_
from gzia.policy import Verdict, verdict

if TYPE_CHECKING:
    from gzia.drivers.base import Driver

def with_updates_off(driver: Driver, env: Mapping[str, str]) -> Mapping[str, str]:
    """``env`` with the variables that switch off ``driver``'s own updater."""
    off: dict[str, str] = getattr(driver, "updates_off_env", None) or {}
    if not off or load_config().get("agent_autoupdate"):
        return env
    return {**env, **off}


def refuse_outside_policy(driver: Driver, env: Mapping[str, str]) -> None:
    """``SAFETY_BLOCK`` when the policy names versions for ``driver`` and its agent is not
    one of them (or cannot tell its version), with how to install an allowed one."""
    policy = load_config().policy
    if driver.id not in policy.agents:
        return
    try:
        reported = driver.probe_version(env, PROBE_TIMEOUT)
    except TimeoutFailure:
        reported = None
    found = verdict(driver.id, reported, policy)
    if not found.allowed:
        raise _refused(driver, found)


def _refused(driver: Driver, found: Verdict) -> SafetyBlockError:
    params: dict[str, Any] = {"agent": driver.id, "version": found.version,
                              "versions": found.rule, "file": found.file,
                              "install": driver.install_hint() or driver.binary}
    message = (N_("{agent} {version} is outside the versions the administrator's policy in "
                  "{file} allows ({versions})") if found.version else
               N_("the version of {agent} cannot be told, and the administrator's policy in "
                  "{file} requires {versions}"))
    return SafetyBlockError(message, hint_key=N_("install a version {versions} of it: {install}"),
                            details=dict(params), **params)
