"""The Forgejo workflows: parsed with PyYAML, checked against the project's own scripts."""

from __future__ import annotations

import re
import shlex
from pathlib import Path
from typing import Any

import pytest
import yaml

from release.cli import make_parser
from tests.release.conftest import REPO

WORKFLOWS = REPO / ".forgejo" / "workflows"
PINNED = re.compile(r"https://[a-z0-9.-]+/[\w.-]+/[\w.-]+@[0-9a-f]{40}")
SECRET_NAME = re.compile(r"(?i)^[A-Z_][A-Z0-9_]*$")
AUTOMATIC_SECRETS = {"FORGEJO_TOKEN"}
TEST_COMMAND = "bash build/test.sh"


def load(name: str) -> dict[str, Any]:
    document: dict[str, Any] = yaml.safe_load((WORKFLOWS / name).read_text())
    return document


def triggers(document: dict[str, Any]) -> dict[str, Any]:
    # YAML 1.1 reads the bare key `on` as the boolean true.
    found: dict[str, Any] = document.get("on") or document[True]
    return found


def steps(job: dict[str, Any]) -> list[dict[str, Any]]:
    return list(job["steps"])


def runs(job: dict[str, Any]) -> list[str]:
    return [s["run"] for s in steps(job) if "run" in s]


@pytest.mark.parametrize("name", ["ci.yml", "release.yml", "promote.yml"])
def test_jobs_use_a_runner_label_and_pinned_full_url_actions(name: str) -> None:
    document = load(name)
    for job in document["jobs"].values():
        assert job["runs-on"] == "docker"
        assert job["container"]["image"].startswith("python:")
        uses = [s["uses"] for s in steps(job) if "uses" in s]
        assert uses, "the checkout action"
        assert [u for u in uses if not PINNED.fullmatch(u)] == []


@pytest.mark.parametrize("name", ["ci.yml", "release.yml"])
def test_tests_run_through_the_project_test_command_on_each_python(name: str) -> None:
    test = load(name)["jobs"]["test"]
    assert test["strategy"]["matrix"]["python"] == ["3.11", "3.12", "3.13"]
    assert test["container"]["image"] == "python:${{ matrix.python }}-bookworm"
    assert runs(test)[-1] == TEST_COMMAND
    assert "minisign" in runs(test)[0]


def test_ci_runs_on_push_and_pull_request() -> None:
    assert set(triggers(load("ci.yml"))) == {"push", "pull_request"}


def test_release_runs_on_version_tags_after_the_tests() -> None:
    document = load("release.yml")
    assert triggers(document) == {"push": {"tags": ["v*"]}}
    assert document["jobs"]["release"]["needs"] == "test"


def release_steps() -> list[list[str]]:
    """argv of every release/release.py call of the release job, in order."""
    calls = []
    for command in runs(load("release.yml")["jobs"]["release"]):
        argv = shlex.split(command)
        if argv[:2] == ["python3", "release/release.py"]:
            calls.append(argv[2:])
    return calls


def test_release_builds_signs_verifies_and_publishes_with_release_py() -> None:
    calls = release_steps()
    commands = runs(load("release.yml")["jobs"]["release"])
    install = "python3 -m pip install --no-deps --requirement build/requirements.lock"
    assert commands.index(install) < commands.index(next(c for c in commands if "release.py" in c))

    assert [c[0] for c in calls] == ["build", "sign", "verify", "publish"]
    assert (REPO / "release" / "release.py").is_file()
    for argv in calls:
        parsed = make_parser().parse_args(argv)  # every flag the workflow passes exists
        assert parsed.version == "$GITHUB_REF_NAME"


def test_the_release_builds_with_the_committed_defaults_and_keys() -> None:
    (build_step,) = [c for c in release_steps() if c[0] == "build"]
    parsed = make_parser().parse_args(build_step)
    assert parsed.defaults == REPO / "release" / "defaults.toml"
    assert parsed.policy == REPO / "release" / "policy.toml"
    assert parsed.keys_dir == REPO / "release" / "keys"
    example = (REPO / "release" / "defaults.example.toml").read_text()
    assert "release/defaults.toml" in (WORKFLOWS / "release.yml").read_text()
    from gzia.config_files import read_config_file

    assert set(read_config_file(REPO / "release" / "defaults.example.toml")) == {
        "nexus_search_url", "forgejo_api_url"
    }
    assert "copy this file to release/defaults.toml" in example.lower()


def secrets_in(text: str) -> set[str]:
    return set(re.findall(r"\$\{\{\s*secrets\.(\w+)\s*\}\}", text))


def test_secrets_reach_only_the_steps_that_need_them_and_are_documented() -> None:
    job = load("release.yml")["jobs"]["release"]
    by_step = {s["name"]: secrets_in(yaml.safe_dump(s.get("env", {}))) for s in steps(job)}
    docs = (REPO / "docs" / "release.md").read_text()

    assert {k: v for k, v in by_step.items() if v} == {
        "Sign": {"MINISIGN_SECRET_KEY", "MINISIGN_PASSWORD"},
        "Publish": {"NEXUS_USER", "NEXUS_PASSWORD", "FORGEJO_TOKEN"},
    }
    for name in set().union(*by_step.values()) - AUTOMATIC_SECRETS:
        assert SECRET_NAME.match(name) and not name.startswith(("GITHUB_", "GITEA_")), name
        assert f"`{name}`" in docs, f"{name} is not documented in docs/release.md"
    for command in runs(job):
        assert "secrets." not in command, "secrets go through env, never into a script"


def test_publish_environment_matches_the_tooling() -> None:
    from release import publish, signing

    job = load("release.yml")["jobs"]["release"]
    publish_env = next(s for s in steps(job) if s["name"] == "Publish")["env"]
    sign_env = next(s for s in steps(job) if s["name"] == "Sign")["env"]

    assert set(publish_env) == {*publish.NEXUS_ENV.values(), *publish.FORGEJO_ENV.values()}
    assert set(sign_env) == {signing.KEY_ENV, signing.PASSWORD_ENV}


def test_the_checked_out_scripts_exist() -> None:
    for path in ("release/release.py", "build/shiv.sh", "docs/release.md"):
        assert (REPO / path).is_file(), path
    assert Path(REPO / "release" / "keys" / "README.md").is_file()


def test_promote_is_a_manual_workflow_calling_release_py_promote() -> None:
    document = load("promote.yml")
    inputs = triggers(document)["workflow_dispatch"]["inputs"]
    assert set(inputs) == {"channel", "version", "percentage"}
    job = document["jobs"]["promote"]
    release_uses = {s["uses"] for j in load("release.yml")["jobs"].values()
                    for s in steps(j) if "uses" in s}
    assert {s["uses"] for s in steps(job) if "uses" in s} <= release_uses  # the same pins
    step = next(s for s in steps(job) if s["name"] == "Promote")
    argv = shlex.split(step["run"])
    assert argv[:3] == ["python3", "release/release.py", "promote"]
    values = {"$CHANNEL": "stable", "$VERSION": "1.2.3", "$PERCENTAGE": "10"}
    parsed = make_parser().parse_args([values.get(a, a) for a in argv[2:]])
    assert (parsed.channel, parsed.version, parsed.percentage) == ("stable", "1.2.3", 10)
    assert argv[argv.index("--percentage") + 1] == "$PERCENTAGE"
    assert "${{" not in step["run"], "inputs reach the script through env, never as text"
    assert {step["env"][k] for k in ("CHANNEL", "VERSION", "PERCENTAGE")} == {
        "${{ inputs.channel }}", "${{ inputs.version }}", "${{ inputs.percentage }}"}
    docs = (REPO / "docs" / "release.md").read_text()
    for name in secrets_in(yaml.safe_dump(step["env"])) - AUTOMATIC_SECRETS:
        assert f"`{name}`" in docs, name
