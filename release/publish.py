"""The publish step: check the local release, then publish it to Nexus and Forgejo.

Addresses come from flags or the environment, credentials only from the environment (they
never appear in a report). Each registry is published independently: one failing does not
stop the other, and re-running completes whatever is missing.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from gzia.contract import GzError, Problem
from release import artifacts, forgejo, nexus, signing
from release.errors import ReleaseError, as_problem
from release.http import base_url

TARGETS = ("nexus", "forgejo")
NEXUS_ENV = {
    "url": "GZ_RELEASE_NEXUS_URL",
    "repository": "GZ_RELEASE_NEXUS_REPOSITORY",
    "user": "GZ_RELEASE_NEXUS_USER",
    "password": "GZ_RELEASE_NEXUS_PASSWORD",
}
FORGEJO_ENV = {
    "url": "GZ_RELEASE_FORGEJO_URL",
    "repository": "GZ_RELEASE_FORGEJO_REPOSITORY",
    "token": "GZ_RELEASE_FORGEJO_TOKEN",
}
_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]*")


@dataclass(frozen=True)
class PublishRequest:
    release_dir: Path
    version: str
    keys_dir: Path
    targets: tuple[str, ...]
    overrides: Mapping[str, str | None]
    commit: str | None
    dry_run: bool


def _settings(
    prefix: str,
    env_names: Mapping[str, str],
    overrides: Mapping[str, str | None],
    env: Mapping[str, str],
) -> dict[str, str]:
    """Each setting from its flag (``overrides["nexus.url"]``) or its environment variable."""
    values = {}
    for key, env_name in env_names.items():
        value = overrides.get(f"{prefix}.{key}") or env.get(env_name, "")
        if not value:
            raise ReleaseError("INVALID_INPUT", f"{env_name} is not set")
        values[key] = value
    return values


def nexus_target(overrides: Mapping[str, str | None], env: Mapping[str, str]) -> nexus.NexusTarget:
    settings = _settings("nexus", NEXUS_ENV, overrides, env)

    repository = settings["repository"]
    if not _NAME.fullmatch(repository):
        raise ReleaseError("INVALID_INPUT", f"invalid Nexus repository name {repository!r}")
    url = base_url(settings["url"], NEXUS_ENV["url"])
    return nexus.NexusTarget(url, repository, settings["user"], settings["password"])


def forgejo_target(
    overrides: Mapping[str, str | None], env: Mapping[str, str]
) -> forgejo.ForgejoTarget:
    settings = _settings("forgejo", FORGEJO_ENV, overrides, env)
    repository = settings["repository"]
    parts = repository.split("/")
    if len(parts) != 2 or not all(_NAME.fullmatch(p) for p in parts):
        raise ReleaseError(
            "INVALID_INPUT", f"invalid Forgejo repository {repository!r}: expected owner/name"
        )
    url = base_url(settings["url"], FORGEJO_ENV["url"])
    return forgejo.ForgejoTarget(url, repository, settings["token"])


def publish(
    request: PublishRequest, env: Mapping[str, str]
) -> tuple[dict[str, object], list[Problem]]:
    """Publish to each requested registry; returns the report and the per-registry errors."""
    trusted = signing.load_trusted_keys(request.keys_dir)
    signer = signing.verify_release(request.release_dir, request.version, trusted)
    files = artifacts.release_files(request.release_dir, request.version)
    sums_text = (request.release_dir / artifacts.SUMS_NAME).read_text(encoding="ascii")
    report: dict[str, object] = {
        "version": request.version,
        "dry_run": request.dry_run,
        "signed_by": signer.id_hex,
    }
    errors: list[Problem] = []
    for name in request.targets:
        try:
            report[name] = _publish_one(name, request, files, sums_text, env)
        except (ReleaseError, GzError) as exc:
            errors.append(as_problem(exc))
            report[name] = {"error": errors[-1].to_json()}
    return report, errors


def _publish_one(
    name: str,
    request: PublishRequest,
    files: list[Path],
    sums_text: str,
    env: Mapping[str, str],
) -> dict[str, object]:
    if name == "nexus":
        target = nexus_target(request.overrides, env)
        return nexus.publish(target, request.version, files, dry_run=request.dry_run)
    forgejo_settings = forgejo_target(request.overrides, env)
    return forgejo.publish(
        forgejo_settings,
        request.version,
        files,
        sums_text,
        commit=request.commit,
        dry_run=request.dry_run,
    )


def parse_targets(text: str) -> tuple[str, ...]:
    names = tuple(dict.fromkeys(t.strip() for t in text.split(",") if t.strip()))
    unknown = [n for n in names if n not in TARGETS]
    if unknown or not names:
        raise ReleaseError(
            "INVALID_INPUT", f"--to takes a comma-separated list of {', '.join(TARGETS)}"
        )
    return names
