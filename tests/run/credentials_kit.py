"""What the credential tests share: gz-ia's withheld variables set to values no test
could find by chance, and a stand-in agent that reads the environment of every process
above it (``/proc/<pid>/environ``, as any process of the user may)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

SECRETS = {
    "GZ_FORGEJO_TOKEN": "forgejo-token-value",
    "GZ_NEXUS_PASSWORD": "nexus-password-value",
    "GZ_NEXUS_USER": "nexus-user-value",
    "GZ_NEXUS_SEARCH_URL": "https://nexus-user-value:nexus-password-value@nexus.example/search",
    "GZ_FORGEJO_API_URL": "https://forgejo.example/api/v1/tags?access_token=url-token-value",
    "GZ_PLUGIN_API_KEY": "plugin-key-value",
    "GZ_PLUGIN_INDEX_URL": "https://plugins.example/index#jwt=jwt-value",  # masked, so withheld
    "GZ_NEXUS_BASE_URL": "https://base-user:base-password-value@nexus.example/repository/r/gz-ia",
}
SECRET_TEXTS = ("forgejo-token-value", "nexus-password-value", "nexus-user-value",
                "url-token-value", "plugin-key-value", "jwt-value", "base-password-value")


def assert_no_secret(environment: dict[str, str]) -> None:
    for name in SECRETS:
        assert name not in environment
    leaked = [(name, value) for name, value in environment.items()
              for text in SECRET_TEXTS if text in value or text in name]
    assert leaked == [], leaked


# A stand-in agent that reads its own environment and each ancestor's, up to pid 1.
READ_ANCESTORS = """
import json
if sys.argv[1:] == ["--version"]:
    print("1.0.0")
    sys.exit(0)

def read(pid, name):
    try:
        with open("/proc/%d/%s" % (pid, name), "rb") as handle:
            return handle.read().decode("latin-1")
    except OSError:
        return None

def parent_of(pid):
    return int(read(pid, "stat").rsplit(")", 1)[1].split()[1])

seen, pid = [], os.getpid()
while True:
    seen.append({"pid": pid, "cmdline": read(pid, "cmdline"), "environ": read(pid, "environ")})
    if pid <= 1:
        break
    pid = parent_of(pid)
note("ancestors.json", json.dumps(seen))
"""


def ancestors_read(notes: Path) -> list[dict[str, Any]]:
    """What the stand-in read: itself, then each ancestor up to pid 1 (``environ`` is
    ``None`` where it could not read it); no value of a withheld variable in any."""
    from tests.supervisor.fakes import wait_for_note

    seen: list[dict[str, Any]] = json.loads(wait_for_note(notes, "ancestors.json", timeout=30))
    leaked = sorted({(process["pid"], secret) for process in seen if process["environ"]
                     for secret in SECRET_TEXTS if secret in process["environ"]})
    assert leaked == [], leaked
    assert seen[-1]["pid"] == 1
    return seen


def parent_environment(notes: Path, *, parent: str) -> dict[str, str]:
    """The environment the stand-in read of its parent, which runs ``parent``: read,
    since an agent can read it, and without any withheld variable."""
    process = ancestors_read(notes)[1]
    assert parent in process["cmdline"]
    assert process["environ"] is not None
    environment = dict(entry.split("=", 1) for entry in process["environ"].split("\0")
                       if "=" in entry)
    assert_no_secret(environment)
    return environment
