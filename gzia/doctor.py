"""Readiness checks behind ``gz-ia doctor``: each returns a :class:`Check`, none raises."""

from __future__ import annotations

import os
import platform
import re
import shutil
import sys
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import gzia._version
from gzia import proc
from gzia.config import load_config, paths
from gzia.contract import GzError
from gzia.i18n import gettext, ngettext
from gzia.plugins import GROUPS, load_group
from gzia.policy import system_policy_file, verdict
from gzia.preflight import OLDEST_PYTHON
from gzia.update.advice import older_than
from gzia.update.installer import update_command
from gzia.update.manifest import ChannelManifest
from gzia.update.manifest_cache import cached_manifest, of_configured_channel
from gzia.update.settings import UpdateSettings
from gzia.update.verify import trusted_keys

MIN_GIT = (2, 38)


@dataclass(frozen=True)
class Check:
    name: str
    ok: bool
    required: bool
    detail: str
    fix: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "ok": self.ok, "required": self.required,
                "detail": self.detail, "fix": self.fix}


def check_python() -> Check:
    version = platform.python_version()
    ok = sys.version_info >= OLDEST_PYTHON
    return Check("python", ok, True, gettext("Python {version}", version=version),
                 None if ok else gettext("install Python 3.11 or newer"))


def check_git() -> Check:
    if shutil.which("git") is None:
        return Check("git", False, True, gettext("git not found on PATH"),
                     gettext("install git 2.38 or newer"))
    try:
        text = proc.run(["git", "--version"], timeout=5).stdout
    except GzError as exc:
        return Check("git", False, True, exc.message, gettext("install git 2.38 or newer"))
    match = re.search(r"(\d+)\.(\d+)(?:\.(\d+))?", text)
    version = match.group(0) if match else text.strip()
    if match is None or (int(match.group(1)), int(match.group(2))) < MIN_GIT:
        return Check("git", False, True,
                     gettext("git {version} is older than 2.38 (merge conflicts cannot be checked "
                             "first)",
                             version=version),
                     gettext("install git 2.38 or newer"))
    return Check("git", True, True, gettext("git {version}", version=version))


def check_config() -> Check:
    file = paths().config_file
    try:
        load_config().values()
    except GzError as exc:
        return Check("config", False, True, exc.message,
                     exc.hint or gettext("fix or remove {file}", file=file))
    return Check("config", True, True, gettext("configuration {file}", file=file))


def check_policy_file() -> Check | None:
    """The system's policy file binds a user only while they cannot change it: neither the
    file nor its folder may be writable by them (root can change anything: not checked)."""
    file = system_policy_file()
    if not file.exists() or getattr(os, "geteuid", lambda: 0)() == 0:
        return None
    if os.access(file, os.W_OK) or os.access(file.parent, os.W_OK):
        return Check("policy", False, False,
                     gettext("this user can change the administrator's policy {file}: it binds "
                             "them only as long as they leave it alone", file=file),
                     gettext("the administrator: make the file and its folder owned by root "
                             "and writable only by root (chmod 644 the file, 755 the folder)"))
    return Check("policy", True, False, gettext("administrator's policy {file}", file=file))


def check_plugins() -> Check:
    count = 0
    failed: list[str] = []
    for group in GROUPS:
        result = load_group(group)
        count += len(result.loaded)
        failed.extend(f.info.name for f in result.failures)
    if failed:
        return Check("plugins", False, False,
                     ngettext("1 plugin failed: {names}", "{count} plugins failed: {names}",
                              len(failed), names=", ".join(failed)),
                     gettext("run 'gz-ia plugins' to see why"))
    return Check("plugins", True, False, ngettext("1 plugin loaded", "{count} plugins loaded",
                                                  count))


def check_agents() -> Check:
    drivers = load_group("gzia.drivers").loaded
    available = [name for name, driver in drivers.items()
                 if name != "shell" and _driver_available(driver)]
    if available:
        return Check("agents", True, False, gettext("agents available: {names}",
                                                    names=", ".join(available)))
    hint = "npm install -g @anthropic-ai/claude-code"
    return Check("agents", False, False,
                 gettext("no agent CLI found on PATH (only the shell driver)"),
                 gettext("install an agent, e.g. {hint}", hint=hint))


def _driver_available(driver: Any) -> bool:
    resolve = getattr(driver, "resolve", None)
    if resolve is None:
        return False
    try:
        return resolve(os.environ) is not None
    except Exception:
        return False


def check_update_sources() -> Check:
    # lazy: start-up speed (off the path of session list and --help)
    from gzia.update.settings import LEGACY_BASE_ENV, UpdateSettings, search_url_from_base

    base = os.environ.get(LEGACY_BASE_ENV, "").strip()
    if base and search_url_from_base(base) is None:
        return Check("update", False, False,
                     gettext("GZ_NEXUS_BASE_URL cannot be used: it is not "
                             "<nexus>/repository/<repository>/gz-ia, so no search URL follows from "
                             "it"),
                     gettext("set GZ_NEXUS_SEARCH_URL "
                             "(<nexus>/service/rest/v1/search/assets?repository=<repository>) and "
                             "unset GZ_NEXUS_BASE_URL"))
    try:
        settings = UpdateSettings.load()
        urls = {"nexus_search_url": settings.nexus_search_url,
                "forgejo_api_url": settings.forgejo_api_url}
        sources = [key for key, url in urls.items() if url]
    except GzError:
        sources = []
    if not sources:
        return _no_update_source()
    return _update_key_check() or Check("update", True, False, gettext(
        "update sources: {sources}", sources=", ".join(sources)))


def _no_update_source() -> Check:
    """No source: said with the missing key too when there is none, source first (the
    order ``update`` fails in), so one look tells everything to set."""
    if _update_key_check() is None:
        return Check("update", False, False, gettext("no update source configured"),
                     gettext("set GZ_NEXUS_SEARCH_URL or GZ_FORGEJO_API_URL (gz-ia config set "
                             "...)"))
    return Check("update", False, False,
                 gettext("no update source configured, and no trusted minisign public key"),
                 gettext("set GZ_NEXUS_SEARCH_URL or GZ_FORGEJO_API_URL, and "
                         "GZ_UPDATE_PUBLIC_KEYS to the release public key (gz-ia config set "
                         "...)"))


def _update_key_check() -> Check | None:
    """The trusted key ``gz-ia update`` verifies releases with: ``None`` when there is one,
    else the finding (the same message and hint ``update`` would fail with)."""
    try:
        trusted_keys(UpdateSettings.load().public_keys)
    except GzError as exc:
        return Check("update", False, False, exc.message, exc.hint)
    return None


def check_mcp() -> Check:
    """Whether ``gz-ia mcp`` can start: the MCP SDK and its compiled parts import here."""
    import importlib
    from importlib.metadata import PackageNotFoundError, version

    try:
        importlib.import_module("gzia.orchy.server")
    except Exception as exc:  # a missing SDK, or pydantic-core built for another platform
        return Check("mcp", False,
                     False, gettext("MCP server "
                                    "cannot start: {error}", error=f"{type(exc).__name__}: "
                                                  f"{exc}"), gettext(
                                                          "reinstall gz-ia: its pyz for this "
                                                          "platform and Python "
                                                          "carries the MCP SDK"))
    try:
        sdk = version("mcp")
    except PackageNotFoundError:
        sdk = "?"
    return Check("mcp", True, False, gettext("MCP server can start (mcp SDK {version})",
                                             version=sdk))


def check_sandbox() -> Check:
    """Whether ``--sandbox`` works here (bubblewrap, and its namespaces); required when
    the ``sandbox`` setting asks every session to run in one."""
    # lazy: start-up speed (off the path of session list and --help)
    from gzia.sandbox import sandbox_support
    from gzia.sandbox.probe import INSTALL_HINT

    required = _sandbox_required()
    support = sandbox_support()
    if support.bwrap is None:
        return Check("sandbox", False, required,
                     gettext("bubblewrap (bwrap) not found on PATH: --sandbox cannot run"),
                     gettext(INSTALL_HINT))
    if support.problem is not None:
        return Check("sandbox", False, required,
                     gettext("bubblewrap cannot create a sandbox here: {problem}",
                             problem=support.problem),
                     gettext("let unprivileged users create user namespaces "
                             "(sysctl kernel.unprivileged_userns_clone=1)"))
    return Check("sandbox", True, required,
                 gettext("sandboxes work ({bwrap})", bwrap=support.bwrap))


def _sandbox_required() -> bool:
    try:
        return bool(load_config().get("sandbox"))
    except GzError:
        return False


def check_release() -> Check | None:
    """The running version against the channel manifest ``update`` cached (no network):
    below its minimum is not ready; a yanked version is said. No line without a cache of the
    channel the settings name. The fix is the command that updates this install
    (:func:`gzia.update.installer.update_command`)."""
    current, cached = gzia._version.__version__, cached_manifest()
    if cached is None or not of_configured_channel(cached):
        return None
    channel, minimum = str(cached.get("channel", "")), cached.get("minimum_version")
    version = cached.get("version")
    yanked = {str(e.get("version")): str(e.get("reason", "")) for e in cached.get("yanked", [])
              if isinstance(e, dict)} if isinstance(cached.get("yanked"), list) else {}
    seen = ChannelManifest(channel=channel, serial=0,
                           version=version if isinstance(version, str) else "",
                           expires=datetime.now(UTC),
                           minimum_version=minimum if isinstance(minimum, str) else None,
                           yanked=yanked)
    if seen.below_minimum(current):
        return Check("release", False, True, gettext(
            "v{current} is below v{minimum}, the minimum version channel {channel} supports",
            current=current, minimum=minimum, channel=channel),
                     gettext("run '{command}'", command=update_command()))
    reason = seen.yank_reason(current)
    if reason is not None:
        older = older_than(current, seen.version)  # update's own decision (update/advice.py)
        return Check("release", False, False, gettext(
            "v{current} was yanked from channel {channel}: {reason}", current=current,
            channel=channel, reason=reason),
                     gettext("run '{command}'", command=update_command(older)))
    return Check("release", True, False, gettext("v{current}", current=current))


def check_agent_versions() -> Check | None:
    """The installed agents the administrator's policy names versions for, against those
    versions; no line when it names none (or the configuration cannot be read: ``config``
    says why)."""
    try:
        policy = load_config().policy
    except GzError:
        return None
    if not policy.agents:
        return None
    drivers = load_group("gzia.drivers").loaded
    refused = []
    for name in policy.agents:
        driver = drivers.get(name)
        if driver is None or not _driver_available(driver):
            continue
        try:
            judged = verdict(name, driver.probe_version(os.environ, 3.0), policy)
        except GzError:
            judged = verdict(name, None, policy)
        if not judged.allowed:
            refused.append(f"{name} {judged.version or '?'} ({judged.rule})")
    if refused:
        return Check("agent_versions", False, False,
                     gettext("agents outside the administrator's policy: {agents}",
                             agents=", ".join(refused)),
                     gettext("install the versions the policy allows (gz-ia drivers)"))
    return Check("agent_versions", True, False,
                 gettext("agents within the administrator's policy"))


CHECKS: tuple[Callable[[], Check | None], ...] = (
    check_python, check_git, check_config, check_policy_file, check_plugins, check_agents,
    check_mcp, check_sandbox, check_update_sources, check_release, check_agent_versions,
)
"""Every check, in the order ``doctor`` shows them; ``None`` is no line."""


def run_checks() -> list[Check]:
    return [found for found in (check() for check in CHECKS) if found is not None]


def is_ready(checks: list[Check]) -> bool:
    return all(c.ok for c in checks if c.required)
