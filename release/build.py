"""The build step: one ``gz-ia-X.Y.Z-<os>-<arch>.pyz`` per platform, made by build/shiv.sh.

For each platform the locked wheels of every supported CPython are unpacked side by side
(release.wheels); build/shiv.sh then packs that site-packages with gzia, the injected version,
the trusted public keys and the organisation's defaults and policy files, if given (both
checked by build/check_defaults.py before anything is built). An artifact
for the machine's own platform is started with every supported CPython found on PATH before
it is reported as built.
"""

from __future__ import annotations

import os
import platform as host
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

from release import artifacts, interpreters, wheels
from release.errors import ReleaseError

SHIV_TIMEOUT = 900
SMOKE_TIMEOUT = 120


@dataclass(frozen=True)
class BuildPlan:
    repo_root: Path
    version: str
    platforms: list[str]
    out_dir: Path
    work_dir: Path
    keys_dir: Path
    lock: Path
    defaults: Path | None = None  # TOML: the built-in configuration layer
    policy: Path | None = None  # TOML: the built-in admin policy (gzia.policy)


def shiv_env(plan: BuildPlan, output: Path, site_packages: Path) -> dict[str, str]:
    env = {
        **os.environ,
        "GZ_BUILD_VERSION": plan.version,
        "GZ_BUILD_OUTPUT": str(output),
        "GZ_BUILD_SITE_PACKAGES": str(site_packages),
        "GZ_BUILD_KEYS_DIR": str(plan.keys_dir),
    }
    for variable, file in EMBEDDED_VARIABLES.items():
        env.pop(variable, None)  # only the plan says what a release embeds
        if getattr(plan, file) is not None:
            env[variable] = str(getattr(plan, file))
    return env


# build/shiv.sh's variable for each embedded file of the plan, and the option naming it.
EMBEDDED_VARIABLES = {"GZ_BUILD_DEFAULTS": "defaults", "GZ_BUILD_POLICY": "policy"}


def check_embedded(plan: BuildPlan) -> None:
    """The defaults and policy files, checked by build/check_defaults.py (the check
    build/shiv.sh makes again when it embeds them) before anything is built."""
    for what in EMBEDDED_VARIABLES.values():
        file: Path | None = getattr(plan, what)
        if file is None:
            continue
        if not file.is_file():
            raise ReleaseError("NOT_FOUND", f"the {what} file {file} is missing")
        kind = ["--policy"] if what == "policy" else []
        done = subprocess.run(
            [sys.executable, str(plan.repo_root / "build" / "check_defaults.py"), *kind,
             f"--name=--{what}", str(file)],
            capture_output=True, text=True, timeout=SMOKE_TIMEOUT, check=False,
            env={**os.environ, "PYTHONPATH": str(plan.repo_root)}, stdin=subprocess.DEVNULL,
        )  # fmt: skip
        if done.returncode != 0:
            reason = done.stderr.strip().splitlines() or [f"exit status {done.returncode}"]
            raise ReleaseError("INVALID_INPUT", reason[-1], details={"file": str(file)})


def host_platform() -> str | None:
    """The release platform this machine runs, if it is one we ship."""
    machine = host.machine().lower()
    system = host.system()
    names = {
        ("Linux", "x86_64"): "linux-amd64",
        ("Linux", "amd64"): "linux-amd64",
        ("Linux", "aarch64"): "linux-arm64",
        ("Linux", "arm64"): "linux-arm64",
        ("Darwin", "arm64"): "darwin-arm64",
    }
    return names.get((system, machine))


def environments(platform: artifacts.Platform) -> list[wheels.TargetEnvironment]:
    return [
        wheels.TargetEnvironment(
            platform.sys_platform, platform.platform_system, platform.platform_machine, version
        )
        for version in artifacts.PYTHON_VERSIONS
    ]


def run_shiv(plan: BuildPlan, env: dict[str, str]) -> None:
    script = plan.repo_root / "build" / "shiv.sh"
    if not script.is_file():
        raise ReleaseError("NOT_FOUND", f"{script} is missing")
    try:
        result = subprocess.run(
            ["bash", str(script)], cwd=plan.repo_root, env=env, capture_output=True,
            text=True, timeout=SHIV_TIMEOUT, check=False,
        )  # fmt: skip
    except subprocess.TimeoutExpired:
        raise ReleaseError("TIMEOUT", "build/shiv.sh took too long") from None
    if result.returncode != 0:
        tail = (result.stderr or result.stdout).strip().splitlines()[-8:]
        raise ReleaseError("INTERNAL", "build/shiv.sh failed: " + " | ".join(tail))


# Run inside the zipapp by each interpreter: the compiled dependencies must load there.
DEPENDENCY_PROBE = """\
import _cffi_backend, httpx, truststore, typer
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
key = Ed25519PrivateKey.generate()
key.public_key().verify(key.sign(b"probe"), b"probe")
import pydantic_core, rpds, gzia.orchy.server  # gz-ia mcp: the MCP SDK and its compiled parts
assert pydantic_core.SchemaValidator({"type": "int"}).validate_python("7") == 7
print("dependencies: ok")
"""


def _run_probe(argv: list[str], expected: str, label: str, env: dict[str, str]) -> None:
    try:
        done = subprocess.run(
            argv, capture_output=True, text=True, timeout=SMOKE_TIMEOUT, check=False,
            stdin=subprocess.DEVNULL, env={**os.environ, "GZ_LANG": "en", **env},
        )  # fmt: skip
    except subprocess.TimeoutExpired:
        raise ReleaseError("TIMEOUT", f"{label} hung") from None
    if done.returncode != 0 or not done.stdout.startswith(expected):
        output = (done.stdout + done.stderr).strip().splitlines()[-3:]
        raise ReleaseError("INTERNAL", f"{label} failed: " + " | ".join(output))


def smoke_test(pyz: Path, version: str) -> dict[str, str]:
    """With every CPython 3.11+ of this machine: ``pyz --version`` answers with ``version``
    and the bundled compiled dependencies import and work."""
    results = dict.fromkeys(artifacts.PYTHON_VERSIONS, "absent")
    with tempfile.TemporaryDirectory() as scratch:
        probe = Path(scratch) / "probe_dependencies.py"
        probe.write_text(DEPENDENCY_PROBE)
        env = {"SHIV_ROOT": str(Path(scratch) / "shiv")}  # leave no extraction cache behind
        for python_version, interpreter in interpreters.find_cpythons().items():
            label = f"{pyz.name} on Python {python_version}"
            run = [str(interpreter), str(pyz)]
            _run_probe([*run, "--version"], f"gz-ia v{version} ", label, env)
            # shiv's bootstrap runs a script given as argument when SHIV_INTERPRETER is set.
            _run_probe(
                [*run, str(probe)], "dependencies: ok", label, {**env, "SHIV_INTERPRETER": "1"}
            )
            results[python_version] = "ok"
    return results


def build_platform(plan: BuildPlan, name: str, dry_run: bool) -> dict[str, object]:
    platform = artifacts.platform(name)
    output = plan.out_dir / artifacts.artifact_name(plan.version, name)
    entry: dict[str, object] = {"platform": name, "file": output.name, "path": str(output)}
    if dry_run:
        return entry
    site_packages, wheel_names = wheels.prepare_site_packages(
        plan.lock, environments(platform), platform.wheel_tags, plan.work_dir / name
    )
    plan.out_dir.mkdir(parents=True, exist_ok=True)
    run_shiv(plan, shiv_env(plan, output, site_packages))
    entry["wheels"] = wheel_names
    entry["size"] = output.stat().st_size
    entry["runs_on"] = smoke_test(output, plan.version) if name == host_platform() else {}
    return entry


def build(plan: BuildPlan, dry_run: bool) -> dict[str, object]:
    if not plan.lock.is_file():
        raise ReleaseError("NOT_FOUND", f"the dependency lock {plan.lock} is missing")
    check_embedded(plan)
    keys = sorted(p.name for p in plan.keys_dir.glob("*.pub"))
    built = [build_platform(plan, name, dry_run) for name in plan.platforms]
    return {
        "version": plan.version, "out_dir": str(plan.out_dir), "keys": keys,
        "defaults": str(plan.defaults) if plan.defaults else None,
        "policy": str(plan.policy) if plan.policy else None, "artifacts": built,
    }  # fmt: skip
