"""The administrator's policy: settings and rules a user cannot override.

Read, lowest to highest, from ``GZ_POLICY_FILE`` (an extra file that can only add rules:
whatever the files below set wins over it), the policy built into the zipapp
(``gzia/policy.toml``, embedded by build/shiv.sh from ``GZ_BUILD_POLICY``) and the
system's file (:func:`system_policy_file`, at a fixed path no variable of the user's
moves). Its top-level keys are settings (those of ``gz-ia config list``), which then beat
the environment, the user's file and command-line flags; ``[update]`` restricts what
``gz-ia update`` may install, and ``[agents.<driver>]`` the versions of the agent CLIs
(docs/configuration.md, "Admin policy").
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from gzia.contract import InvalidInputError, SafetyBlockError
from gzia.i18n import N_

POLICY_FILE_VARIABLE = "GZ_POLICY_FILE"
BUILTIN_POLICY = Path(__file__).with_name("policy.toml")
SOURCE_POLICY = "policy"
UPDATE_RULES = ("versions", "allow_downgrade", "allow_pre", "allow_from")
AGENT_RULES = ("version",)
_VERSION = re.compile(r"\d+(?:\.\d+)+")
SettingValue = Callable[[str, Any, Path], Any]


def system_policy_file() -> Path:
    """The system-wide file: platformdirs' site config dir as it is with no
    ``XDG_CONFIG_DIRS`` set, so a user cannot point gz-ia at another one."""
    if sys.platform == "darwin":
        return Path("/Library/Application Support/gz-ia/policy.toml")
    if sys.platform == "win32":
        return Path(r"C:\ProgramData\gz-ia\policy.toml")
    return Path("/etc/xdg/gz-ia/policy.toml")


@dataclass(frozen=True)
class Rule:
    value: Any
    file: Path


@dataclass(frozen=True)
class Policy:
    settings: dict[str, Rule] = field(default_factory=dict)
    update: dict[str, Rule] = field(default_factory=dict)
    agents: dict[str, Rule] = field(default_factory=dict)
    """``{driver name: Rule(version specifier)}``."""

    def allows(self, rule: str) -> bool:
        """An ``[update]`` permission (``allow_downgrade``, ``allow_pre``, ``allow_from``):
        granted unless the policy says ``false``."""
        found = self.update.get(rule)
        return found is None or bool(found.value)


def policy_files(environ: Mapping[str, str]) -> list[Path]:
    """The policy files, lowest first (:func:`gzia.config_files.load_policy` reads them)."""
    extra = environ.get(POLICY_FILE_VARIABLE)
    files = [Path(extra).expanduser()] if extra else []
    return [*files, BUILTIN_POLICY, system_policy_file()]


def merge(policy: Policy, document: dict[str, Any], file: Path, setting_value: SettingValue,
          ) -> None:
    """Add the rules of ``file`` (its TOML ``document``) to ``policy``, above those there;
    ``setting_value`` checks a setting's value as the configuration reader does."""
    for key, raw in document.items():
        if key == "update":
            policy.update.update(_rules(raw, file, key, UPDATE_RULES))
        elif key == "agents":
            policy.agents.update(_agent_rules(raw, file))
        else:
            policy.settings[key] = Rule(setting_value(key, raw, file), file)


def _rules(raw: Any, file: Path, table: str, known: tuple[str, ...]) -> dict[str, Rule]:
    if not isinstance(raw, dict):
        raise _bad(file, table, raw)
    rules = {}
    for key, value in raw.items():
        name = f"{table}.{key}"
        if key not in known:
            raise InvalidInputError(N_("unknown policy rule '{key}' in {file}"), key=name,
                                    file=str(file), details={"key": name, "file": str(file)})
        ok = isinstance(value, bool) if key.startswith("allow_") else _specifier(value)
        if not ok:
            raise _bad(file, name, value)
        rules[key] = Rule(value, file)
    return rules


def _agent_rules(raw: Any, file: Path) -> dict[str, Rule]:
    if not isinstance(raw, dict):
        raise _bad(file, "agents", raw)
    rules = {}
    for name, table in raw.items():
        found = _rules(table, file, f"agents.{name}", AGENT_RULES).get("version")
        if found is not None:
            rules[name] = found
    return rules


def _bad(file: Path, key: str, value: Any) -> InvalidInputError:
    return InvalidInputError(N_("policy rule '{key}' in {file} has an invalid value: {value}"),
                             key=key, file=str(file), value=str(value)[:80],
                             details={"key": key, "file": str(file)})


def specifier(text: str) -> Any:
    """A version rule as a ``packaging`` specifier set; a bare version pins it (``==``)."""
    from packaging.specifiers import SpecifierSet
    from packaging.version import InvalidVersion, Version

    try:
        return SpecifierSet(f"=={Version(text.strip())}")
    except InvalidVersion:
        return SpecifierSet(text)


def _specifier(value: Any) -> bool:
    from packaging.specifiers import InvalidSpecifier

    if not isinstance(value, str) or not value.strip():
        return False
    try:
        specifier(value)
    except InvalidSpecifier:
        return False
    return True


def refuse_override(key: str, policy: Policy) -> None:
    """``config set`` of a setting the policy holds: ``SAFETY_BLOCK``, naming the
    policy's file."""
    rule = policy.settings.get(key)
    if rule is not None:
        raise SafetyBlockError(N_("setting '{key}' is set by the administrator's policy in "
                                  "{file} and cannot be changed"),
                               key=key, file=str(rule.file),
                               hint_key=N_("ask the administrator of this machine"),
                               details={"key": key, "file": str(rule.file)})


def refuse_forbidden(rule: str, flag: str, policy: Policy) -> None:
    """An ``[update]`` permission the policy withholds: ``SAFETY_BLOCK`` naming the file."""
    found = policy.update.get(rule)
    if found is not None and not found.value:
        raise SafetyBlockError(N_("{flag} is not permitted by the administrator's policy in "
                                  "{file}"),
                               flag=flag, file=str(found.file),
                               hint_key=N_("ask the administrator of this machine"),
                               details={"rule": rule, "file": str(found.file)})


@dataclass(frozen=True)
class Verdict:
    """An agent's version against the policy: ``allowed`` is None without a rule."""

    rule: str | None
    file: str | None
    version: str | None
    allowed: bool | None


def verdict(driver_id: str, reported: str | None, policy: Policy) -> Verdict:
    rule = policy.agents.get(driver_id)
    found = _VERSION.search(reported or "")
    version = found.group(0) if found else None
    if rule is None:
        return Verdict(None, None, version, None)
    allowed = version is not None and specifier(rule.value).contains(version, prereleases=True)
    return Verdict(rule.value, str(rule.file), version, allowed)
