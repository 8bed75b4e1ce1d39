"""What publishing promises on both registries alike, run against Nexus and Forgejo."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.fakes.forgejo import ForgejoFake
from tests.fakes.nexus import NexusFake
from tests.release.conftest import (
    AMD64,
    ORDER,
    VERSION,
    KeyFiles,
    RunRelease,
    publish_env,
    publish_to,
)

Fakes = tuple[NexusFake, ForgejoFake]


@dataclass(frozen=True)
class Registry:
    name: str  # as ``--to`` names it
    label: str  # as messages name it
    credential_env: str  # the variable that holds its password or token
    first_read: str  # the first URL publishing reads, after the registry's own URL
    release_line: str  # what the human report says of the release itself, if anything
    other_release: Callable[[NexusFake, ForgejoFake], None]  # another build, published
    conflict: str  # the message that refuses to replace it

    def fake(self, fakes: Fakes) -> NexusFake | ForgejoFake:
        return fakes[0] if self.name == "nexus" else fakes[1]

    def writes(self, fakes: Fakes) -> list[str]:
        server = self.fake(fakes).server
        assert server is not None
        return [f"{r.method} {r.path}" for r in server.requests if r.method != "GET"]


def _publish_other(forgejo: ForgejoFake) -> None:
    forgejo.publish(f"v{VERSION}", {AMD64: b"someone else's"})


REGISTRIES = [
    Registry(
        "nexus", "Nexus", "GZ_RELEASE_NEXUS_PASSWORD",
        f"/repository/gz-ia/gz-ia/{VERSION}/{AMD64}", "",
        lambda nexus, _: nexus.put("gz-ia", f"gz-ia/{VERSION}/SHA256SUMS", b"other list\n"),
        f"Nexus already holds a different SHA256SUMS for {VERSION}; not overwriting",
    ),
    Registry(
        "forgejo", "Forgejo", "GZ_RELEASE_FORGEJO_TOKEN",
        f"/api/v1/repos/ops/gz-ia/releases/tags/v{VERSION}",
        f"forgejo: release v{VERSION}: present\n",
        lambda _, forgejo: _publish_other(forgejo),
        f"Forgejo release v{VERSION} is already published with other files; not overwriting",
    ),
]


@pytest.fixture(params=REGISTRIES, ids=[r.name for r in REGISTRIES])
def registry(request: pytest.FixtureRequest) -> Registry:
    found: Registry = request.param
    return found


@pytest.fixture
def fakes(nexus: NexusFake, forgejo: ForgejoFake) -> Fakes:
    return nexus, forgejo


def test_a_published_release_is_left_alone(
    signed_release: Path, release_key: KeyFiles, run_release: RunRelease, fakes: Fakes,
    registry: Registry,
) -> None:  # fmt: skip
    env = publish_env(*fakes)
    assert publish_to(registry.name, run_release, signed_release, release_key, env).exit_code == 0
    server = registry.fake(fakes).server
    assert server is not None
    server.requests.clear()

    again = publish_to(registry.name, run_release, signed_release, release_key, env)

    assert (again.exit_code, again.stderr) == (0, "")
    assert again.stdout == registry.release_line + "".join(
        f"{registry.name}: present {n}\n" for n in ORDER
    )
    assert registry.writes(fakes) == []


def test_another_build_already_published_is_never_replaced(
    signed_release: Path, release_key: KeyFiles, run_release: RunRelease, fakes: Fakes,
    registry: Registry,
) -> None:  # fmt: skip
    env = publish_env(*fakes)
    registry.other_release(*fakes)

    result = publish_to(
        registry.name, run_release, signed_release, release_key, env, "--json"
    )

    assert result.exit_code == 1
    assert result.json["errors"] == [{
        "code": "CONFLICT",
        "message": registry.conflict,
        "retryable": False,
        "hint": "publish a new version instead of replacing a released one",
        "details": {},
    }]  # fmt: skip
    assert result.json["data"][registry.name] == {"error": result.json["errors"][0]}
    assert registry.writes(fakes) == []


def test_a_wrong_credential_is_reported_without_it(
    signed_release: Path, release_key: KeyFiles, run_release: RunRelease, fakes: Fakes,
    registry: Registry,
) -> None:  # fmt: skip
    env = {**publish_env(*fakes), registry.credential_env: "wrong-Passw0rd"}
    server = registry.fake(fakes).server
    assert server is not None

    result = publish_to(registry.name, run_release, signed_release, release_key, env)

    assert result.exit_code == 1
    assert result.stderr == (
        f"Error: {registry.label} GET {server.url}{registry.first_read}: HTTP 401 Unauthorized\n"
    )
    assert "wrong-Passw0rd" not in result.stdout + result.stderr
    assert registry.writes(fakes) == []
