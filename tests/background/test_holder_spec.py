"""The holder spec: one typed message, written by the starting command, read by the holder."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from gzia.sandbox import NetworkPlan, SandboxServices
from gzia.sessions.background import HolderSpec
from gzia.supervisor.command import Command
from gzia.supervisor.watchdog import Watchdog

SPEC = HolderSpec(
    project=Path("/repo"), id="ab12cd34", argv=("claude", "--x"), cwd=Path("/repo/wt"),
    env={"PATH": "/bin"}, log_path=Path("/repo/.harness/logs/ab12cd34.log"),
    log_max_bytes=1 << 20, window=(24, 80), socket=Path("/tmp/gz-ia-0/ab12cd34-abcdef.sock"),
    watchdog=Watchdog(kill_grace_ms=500, timeout_s=None, no_output_timeout_s=2.5),
)


def test_a_spec_reads_back_as_written() -> None:
    assert HolderSpec.from_json(SPEC.to_json()) == SPEC
    assert json.loads(SPEC.to_json()) == {
        "project": "/repo", "id": "ab12cd34", "argv": ["claude", "--x"], "cwd": "/repo/wt",
        "env": {"PATH": "/bin"}, "log_path": "/repo/.harness/logs/ab12cd34.log",
        "log_max_bytes": 1048576, "window": [24, 80],
        "socket": "/tmp/gz-ia-0/ab12cd34-abcdef.sock",
        "watchdog": {"kill_grace_ms": 500, "timeout_s": None, "no_output_timeout_s": 2.5},
        "orchy": None,
    }
    assert SPEC.command == Command(("claude", "--x"), Path("/repo/wt"), {"PATH": "/bin"},
                                   pty=True)


def test_the_warm_servers_socket_travels_and_a_spec_without_one_reads() -> None:
    warm = replace(SPEC, orchy=Path("/tmp/gz-ia-0/ab12cd34-123456.sock"))
    assert HolderSpec.from_json(warm.to_json()) == warm
    assert HolderSpec.from_json(_broken(orchy=KeyError)) == SPEC
def test_a_sandboxs_proxy_travels_with_the_spec() -> None:
    plan = SandboxServices(NetworkPlan(Path("/tmp/gz-ia-0/ab12cd34-abcdef.net"),
                                      ("api.example.com",)))
    spec = HolderSpec(**{**SPEC.__dict__, "sandbox": plan})

    assert HolderSpec.from_json(spec.to_json()) == spec
    assert json.loads(spec.to_json())["sandbox"]["proxy"] == {
        "handshake": "/tmp/gz-ia-0/ab12cd34-abcdef.net", "hosts": ["api.example.com"]}


def _broken(**changes: object) -> bytes:
    data = json.loads(SPEC.to_json())
    for key, value in changes.items():
        if value is KeyError:
            del data[key]
        else:
            data[key] = value
    return json.dumps(data).encode()


@pytest.mark.parametrize("raw", [
    b"[]", b'"spec"', _broken(id=KeyError), _broken(argv=[]), _broken(argv=["a", 1]),
    _broken(env={"A": 1}), _broken(env=[]), _broken(log_max_bytes=True),
    _broken(log_max_bytes="1"), _broken(window=[24]), _broken(window=[0, 80]),
    _broken(watchdog={"bogus": 1}), _broken(watchdog={"timeout_s": "1"}),
    _broken(socket=None), _broken(orchy=1),
    _broken(sandbox={"proxy": {"hosts": []}}),
    _broken(sandbox={"proxy": {"handshake": "/x", "hosts": [1]}}), _broken(sandbox=[]),
], ids=repr)
def test_a_spec_that_is_not_one_is_refused_whole(raw: bytes) -> None:
    with pytest.raises(ValueError, match=r"holder spec|JSON|Expecting"):
        HolderSpec.from_json(raw)
