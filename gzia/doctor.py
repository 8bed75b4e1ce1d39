"""Readiness checks behind ``gz-ia doctor``: each returns a :class:`Check`, none raises."""

from __future__ import annotations

import os
import platform
import re
import shutil
import sys
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from gzia.contract import GzError
from gzia.i18n import t

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
    ok = sys.version_info >= (3, 11)
    return Check("python", ok, True, t("doctor.python", version=version),
                 None if ok else t("doctor.python_fix"))


def check_git() -> Check:
    from gzia import proc

    if shutil.which("git") is None:
        return Check("git", False, True, t("doctor.git_missing"), t("doctor.git_fix"))
    try:
        text = proc.run(["git", "--version"], timeout=5).stdout
    except GzError as exc:
        return Check("git", False, True, exc.message, t("doctor.git_fix"))
    match = re.search(r"(\d+)\.(\d+)(?:\.(\d+))?", text)
    version = match.group(0) if match else text.strip()
    if match is None or (int(match.group(1)), int(match.group(2))) < MIN_GIT:
        return Check("git", False, True, t("doctor.git_old", version=version), t("doctor.git_fix"))
    return Check("git", True, True, t("doctor.git", version=version))


def check_config() -> Check:
    from gzia.config import load_config, paths

    file = paths().config_file
    try:
        load_config().values()
    except GzError as exc:
        return Check("config", False, True, exc.message, t("doctor.config_fix", file=file))
    return Check("config", True, True, t("doctor.config_ok", file=file))


def check_plugins() -> Check:
    from gzia.plugins import GROUPS, load_group

    count = 0
    failed: list[str] = []
    for group in GROUPS:
        result = load_group(group)
        count += len(result.loaded)
        failed.extend(f.info.name for f in result.failures)
    if failed:
        return Check("plugins", False, False,
                     t("doctor.plugins_failed", count=len(failed), names=", ".join(failed)),
                     t("doctor.plugins_fix"))
    return Check("plugins", True, False, t("doctor.plugins_ok", count=count))


def check_agents() -> Check:
    from gzia.plugins import load_group

    drivers = load_group("gzia.drivers").loaded
    available = [name for name, driver in drivers.items()
                 if name != "shell" and _driver_available(driver)]
    if available:
        return Check("agents", True, False, t("doctor.agents_ok", names=", ".join(available)))
    hint = "npm install -g @anthropic-ai/claude-code"
    return Check("agents", False, False, t("doctor.agents_none"), t("doctor.agents_fix", hint=hint))


def _driver_available(driver: Any) -> bool:
    resolve = getattr(driver, "resolve", None)
    if resolve is None:
        return False
    try:
        return resolve(os.environ) is not None
    except Exception:
        return False


def check_update_sources() -> Check:
    from gzia.update.settings import LEGACY_BASE_ENV, UpdateSettings, search_url_from_base

    base = os.environ.get(LEGACY_BASE_ENV, "").strip()
    if base and search_url_from_base(base) is None:
        return Check("update", False, False, t("doctor.legacy_base_unsupported"),
                     t("doctor.legacy_base_fix"))
    try:
        settings = UpdateSettings.load()
        urls = {"nexus_search_url": settings.nexus_search_url,
                "forgejo_api_url": settings.forgejo_api_url}
        sources = [key for key, url in urls.items() if url]
    except GzError:
        sources = []
    if sources:
        return Check("update", True, False, t("doctor.update_ok", sources=", ".join(sources)))
    return Check("update", False, False, t("doctor.update_none"), t("doctor.update_fix"))


def check_mcp() -> Check:
    """Whether ``gz-ia mcp`` can start: the MCP SDK and its compiled parts import here."""
    import importlib
    from importlib.metadata import PackageNotFoundError, version

    try:
        importlib.import_module("gzia.orchy.server")
    except Exception as exc:  # a missing SDK, or pydantic-core built for another platform
        return Check("mcp", False, False, t("doctor.mcp_broken", error=f"{type(exc).__name__}: "
                                            f"{exc}"), t("doctor.mcp_fix"))
    try:
        sdk = version("mcp")
    except PackageNotFoundError:
        sdk = "?"
    return Check("mcp", True, False, t("doctor.mcp_ok", version=sdk))


CHECKS: tuple[Callable[[], Check], ...] = (
    check_python, check_git, check_config, check_plugins, check_agents, check_mcp,
    check_update_sources,
)


def run_checks() -> list[Check]:
    return [check() for check in CHECKS]


def is_ready(checks: list[Check]) -> bool:
    return all(c.ok for c in checks if c.required)
