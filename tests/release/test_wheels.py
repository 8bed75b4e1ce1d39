"""Assembling one site-packages from wheels of several Python versions (release/wheels.py),
and the build step's plan, without network or builds."""

from __future__ import annotations

import zipfile
from pathlib import Path

import pytest

from release import wheels
from release.errors import ReleaseError
from tests.release.conftest import REPO, RunRelease

LOCK = """\
# a comment
anyio==4.16.0
typing_extensions==4.16.0 ; python_version < "3.13"  # only before 3.13
colorama==0.4.6 ; platform_system == "Windows"
cffi==2.1.1 \\
    --hash=sha256:34e261f78cb6ceaaa36f42f2613f4380d94d9c759a9c73c769ee6e0247364632
appnope==0.1.4 ; sys_platform == "darwin"
"""


def target(python: str, system: str = "Linux") -> wheels.TargetEnvironment:
    sys_platform = {"Linux": "linux", "Darwin": "darwin"}[system]
    return wheels.TargetEnvironment(sys_platform, system, "x86_64", python)


def test_markers_are_judged_for_the_target_not_the_host() -> None:
    hashed = (
        "cffi==2.1.1 --hash=sha256:34e261f78cb6ceaaa36f42f2613f4380d94d9c759a9c73c769ee6e0247364632"
    )

    assert wheels.requirements_for(LOCK, target("3.12")) == (
        f'anyio==4.16.0\ntyping_extensions==4.16.0 ; python_version < "3.13"\n{hashed}\n'
    )
    assert wheels.requirements_for(LOCK, target("3.13", "Darwin")) == (
        f'anyio==4.16.0\n{hashed}\nappnope==0.1.4 ; sys_platform == "darwin"\n'
    )


def test_a_bad_lock_line_is_named() -> None:
    with pytest.raises(ReleaseError) as raised:
        wheels.requirements_for("not a requirement!!\n", target("3.11"))
    assert raised.value.message == "bad line in the lock file: 'not a requirement!!'"


def make_wheel(folder: Path, name: str, members: dict[str, bytes]) -> Path:
    path = folder / name
    with zipfile.ZipFile(path, "w") as archive:
        for member, data in members.items():
            archive.writestr(member, data)
    return path


def test_wheels_for_several_abis_unpack_side_by_side(tmp_path: Path) -> None:
    site = tmp_path / "site"
    owners: dict[str, tuple[str, str]] = {}
    for minor in (11, 12):
        wheel = make_wheel(
            tmp_path,
            f"cffi-2.1.1-cp3{minor}-cp3{minor}-linux_x86_64.whl",
            {
                "cffi/__init__.py": b"# same for every version\n",
                f"_cffi_backend.cpython-3{minor}-x86_64-linux-gnu.so": f"ELF {minor}".encode(),
                "cffi-2.1.1.dist-info/WHEEL": f"Tag: cp3{minor}-cp3{minor}-linux_x86_64\n".encode(),
                "cffi-2.1.1.data/purelib/cffi/extra.py": b"x = 1\n",
                "cffi-2.1.1.data/scripts/tool": b"#!/bin/sh\n",
            },
        )
        wheels.unpack(wheel, site, owners)

    files = sorted(str(p.relative_to(site)) for p in site.rglob("*") if p.is_file())
    assert files == [
        "_cffi_backend.cpython-311-x86_64-linux-gnu.so",
        "_cffi_backend.cpython-312-x86_64-linux-gnu.so",
        "cffi-2.1.1.dist-info/WHEEL",
        "cffi/__init__.py",
        "cffi/extra.py",
    ]


def test_per_wheel_sboms_keep_the_first_copy_but_other_dist_info_files_must_agree(
    tmp_path: Path,
) -> None:
    site = tmp_path / "site"
    owners: dict[str, tuple[str, str]] = {}
    sbom = "pydantic_core-2.50.5.dist-info/sboms/pydantic-core.cyclonedx.json"
    for minor in (11, 12):
        wheel = make_wheel(tmp_path, f"pydantic_core-2.50.5-cp3{minor}-cp3{minor}-x.whl",
                           {sbom: f"built for cp3{minor}".encode()})
        wheels.unpack(wheel, site, owners)
    assert (site / sbom).read_text() == "built for cp311"

    license_file = "pydantic_core-2.50.5.dist-info/licenses/LICENSE"
    for name, text in (("one", b"MIT"), ("two", b"other")):
        wheel = make_wheel(tmp_path, f"pydantic_core-2.50.5-{name}.whl", {license_file: text})
        if name == "one":
            wheels.unpack(wheel, site, owners)
    with pytest.raises(ReleaseError):
        wheels.unpack(wheel, site, owners)


def test_two_wheels_writing_one_file_differently_stop_the_build(tmp_path: Path) -> None:
    owners: dict[str, tuple[str, str]] = {}
    first = make_wheel(tmp_path, "a-1-py3-none-any.whl", {"shared/mod.so": b"one"})
    second = make_wheel(tmp_path, "b-1-py3-none-any.whl", {"shared/mod.so": b"two"})
    wheels.unpack(first, tmp_path / "site", owners)

    with pytest.raises(ReleaseError) as raised:
        wheels.unpack(second, tmp_path / "site", owners)

    assert (raised.value.code, raised.value.message) == (
        "CONFLICT",
        "b-1-py3-none-any.whl and a-1-py3-none-any.whl both provide shared/mod.so "
        "with different content",
    )


def test_a_wheel_member_outside_site_packages_is_refused(tmp_path: Path) -> None:
    wheel = make_wheel(tmp_path, "evil-1-py3-none-any.whl", {"../escape.py": b"x"})

    with pytest.raises(ReleaseError) as raised:
        wheels.unpack(wheel, tmp_path / "site", {})

    assert raised.value.code == "INTEGRITY"
    assert not (tmp_path / "escape.py").exists()


def test_pip_is_asked_for_binary_wheels_of_the_target() -> None:
    argv = wheels.pip_download_argv(
        Path("req.txt"), Path("out"), ("manylinux2014_aarch64", "manylinux_2_28_aarch64"), "3.13"
    )

    assert argv[1:] == [
        "-m",
        "pip",
        "download",
        "--quiet",
        "--disable-pip-version-check",
        "--only-binary=:all:",
        "--no-deps",
        "--implementation",
        "cp",
        "--python-version",
        "3.13",
        "--platform",
        "manylinux2014_aarch64",
        "--platform",
        "manylinux_2_28_aarch64",
        "--dest",
        "out",
        "--requirement",
        "req.txt",
    ]


def test_build_dry_run_names_every_artifact(tmp_path: Path, run_release: RunRelease) -> None:
    out = tmp_path / "out"
    result = run_release("build", "--dry-run", "--version", "2.0.0", "--dir", out)

    assert result.exit_code == 0
    assert result.stderr == (  # a fresh project ships no key and no defaults file
        "Warning: no public key in the keys directory: this build refuses every update\n"
        "Warning: no defaults file: every user of this build must configure the registries "
        "(nexus_search_url, forgejo_api_url) themselves\n"
    )
    assert result.stdout == (
        "would build gz-ia-2.0.0-linux-amd64.pyz\n"
        "would build gz-ia-2.0.0-linux-arm64.pyz\n"
        "would build gz-ia-2.0.0-darwin-arm64.pyz\n"
    )
    assert not out.exists()


def test_build_json_dry_run_warns_when_no_key_would_be_embedded(
    tmp_path: Path, run_release: RunRelease
) -> None:
    defaults = tmp_path / "defaults.toml"
    defaults.write_text('nexus_search_url = "https://nexus.example/s?repository=gz-ia"\n')
    result = run_release(
        "build",
        "--json",
        "--dry-run",
        "--version",
        "2.0.0",
        "--platform",
        "linux-arm64",
        "--dir",
        tmp_path,
        "--keys-dir",
        tmp_path,
        "--defaults",
        defaults,
    )
    missing = run_release(
        "build", "--dry-run", "--version", "2.0.0", "--defaults", tmp_path / "nothing.toml"
    )

    assert (missing.exit_code, missing.stderr) == (
        1, f"Error: the defaults file {tmp_path / 'nothing.toml'} is missing\n"
    )
    assert result.exit_code == 0
    assert result.json == {
        "ok": True,
        "data": {
            "version": "2.0.0",
            "out_dir": str(tmp_path),
            "keys": [],
            "defaults": str(defaults),
            "policy": None,
            "artifacts": [
                {
                    "platform": "linux-arm64",
                    "file": "gz-ia-2.0.0-linux-arm64.pyz",
                    "path": str(tmp_path / "gz-ia-2.0.0-linux-arm64.pyz"),
                }
            ],
        },
        "errors": [],
        "warnings": [
            {
                "code": "NO_TRUSTED_KEY",
                "message": "no public key in the keys directory: this build refuses every update",
                "retryable": False,
                "hint": None,
                "details": {},
            }
        ],
    }


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ["build", "--version", "1.2"],
            "invalid release version '1.2': expected X.Y.Z or X.Y.Z(a|b|rc)N",
        ),
        (
            ["build", "--version", "1.2.3", "--platform", "windows-amd64"],
            "argument --platform: invalid choice: 'windows-amd64' (choose from ",
        ),
        (
            ["publish", "--version", "1.2.3", "--to", "pypi"],
            "--to takes a comma-separated list of nexus, forgejo",
        ),
        (["launch"], "argument step: invalid choice: 'launch' (choose from "),
    ],
)
def test_usage_errors_exit_2(args: list[str], message: str, run_release: RunRelease) -> None:
    result = run_release(*args, "--json")

    assert result.exit_code == 2
    assert [e["code"] for e in result.json["errors"]] == ["INVALID_INPUT"]
    # argparse's own wording of the choices differs between Python versions
    assert result.json["errors"][0]["message"].startswith(message)


def test_the_lock_the_build_uses_by_default_exists() -> None:
    lock = REPO / "build" / "requirements.lock"
    names = {line.split("==")[0].lower() for line in wheels.logical_lines(lock.read_text())}
    assert {"cryptography", "cffi", "httpx", "typer"} <= names


def test_all_dry_run_stops_after_planning_the_build(
    tmp_path: Path, run_release: RunRelease
) -> None:
    """Nothing to sign or publish before the artifacts exist: no key, no registry needed."""
    result = run_release(
        "all",
        "--dry-run",
        "--version",
        "2.0.0",
        "--platform",
        "linux-amd64",
        "--dir",
        tmp_path / "out",
        "--keys-dir",
        tmp_path,
    )

    assert (result.exit_code, result.stdout) == (0, "would build gz-ia-2.0.0-linux-amd64.pyz\n")
