"""Rendering a step's result: gz-ia's JSON envelope, or short human lines."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any, TextIO

from gzia.contract import Problem

_DRY_VERBS = {"upload": "would upload", "remove": "would remove", "present": "already there:"}


def envelope(data: object, errors: list[Problem], warnings: list[Problem]) -> str:
    """gz-ia's own envelope (``gzia.contract.envelope``), on one line as gz-ia prints it."""
    from gzia.contract import envelope as build

    return json.dumps(build(not errors, data, errors, warnings), ensure_ascii=False)


def _build_lines(data: dict[str, Any], dry_run: bool) -> list[str]:
    lines = []
    for entry in data["artifacts"]:
        if dry_run:
            lines.append(f"would build {entry['file']}")
            continue
        runs = entry.get("runs_on", {})
        ok = " ".join(v for v, r in runs.items() if r == "ok")
        absent = " ".join(v for v, r in runs.items() if r == "absent")
        suffix = f"; runs on Python {ok}" if ok else ""
        suffix += f"; Python {absent} not found here" if absent else ""
        lines.append(f"built {entry['path']} ({entry['size']} bytes{suffix})")
    return lines


def _sign_lines(data: dict[str, Any], dry_run: bool) -> list[str]:
    names = ", ".join(f["name"] for f in data["files"])
    if dry_run or not data["written"]:
        return [f"would write SHA256SUMS over {names} and sign it"]
    return [f"wrote SHA256SUMS over {names}, signed by key {data['key_id']}"]


def _verify_lines(data: dict[str, Any], dry_run: bool) -> list[str]:
    return [f"verified {', '.join(data['files'])}: signed by key {data['signed_by']}"]


def _publish_lines(data: dict[str, Any], dry_run: bool) -> list[str]:
    lines = []
    for target in ("nexus", "forgejo"):
        result = data.get(target)
        if not result or "error" in result:
            continue
        if "release" in result:
            lines.append(f"{target}: release {result['tag']}: {result['release']}")
        for step in result["files"]:
            verb = _DRY_VERBS.get(step["action"], step["action"]) if dry_run else step["action"]
            lines.append(f"{target}: {verb} {step['file']}")
    return lines


def _keygen_lines(data: dict[str, Any], dry_run: bool) -> list[str]:
    paths = f"{data['secret_key']} (secret), {data['public_key']}"
    if dry_run:
        return [f"would write a new key: {paths}"]
    return [f"wrote key {data['key_id']}: {paths}"]


def _all_lines(data: dict[str, Any], dry_run: bool) -> list[str]:
    lines = []
    for step, render in (
        ("build", _build_lines),
        ("sign", _sign_lines),
        ("publish", _publish_lines),
    ):
        if step in data:
            lines += render(data[step], dry_run)
    return lines


def _channel_lines(data: dict[str, Any], dry_run: bool) -> list[str]:
    manifest = data["manifest"]
    rollout = manifest.get("rollout")
    line = (f"channel {data['channel']}: manifest {data['serial']}: v{manifest['version']}"
            + (f", rollout v{rollout['version']} at {rollout['percentage']}%" if rollout else "")
            + f", expires {manifest['expires']}")
    lines = [line + (f", signed by key {data['signed_by']}" if "signed_by" in data else "")]
    for target in ("nexus", "forgejo"):
        result = data.get(target)
        for step in (result or {}).get("files", []):
            verb = _DRY_VERBS.get(step["action"], step["action"]) if dry_run else step["action"]
            lines.append(f"{target}: {verb} {step['file']}")
    return lines


HUMAN: dict[str, Callable[[dict[str, Any], bool], list[str]]] = {
    "build": _build_lines,
    "sign": _sign_lines,
    "verify": _verify_lines,
    "publish": _publish_lines,
    "keygen": _keygen_lines,
    "all": _all_lines,
    **dict.fromkeys(("manifest", "promote", "rollout", "yank", "rotate-key"), _channel_lines),
}


def human(
    step: str,
    data: dict[str, Any] | None,
    errors: list[Problem],
    warnings: list[Problem],
    *,
    dry_run: bool,
    out: TextIO,
    err: TextIO,
) -> None:
    if data is not None:
        for line in HUMAN[step](data, dry_run):
            out.write(line + "\n")
    for warning in warnings:
        err.write(f"Warning: {warning.message}\n")
    for error in errors:
        err.write(f"Error: {error.message}\n")
        if error.hint:
            err.write(f"Hint: {error.hint}\n")
