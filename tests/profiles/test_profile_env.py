"""A profile's ``env``: never gz-ia's own variables, never gz-ia's withheld credentials.

The agent stand-in prints its whole environment; gz-ia runs with credentials set.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.profiles.conftest import write_profile

TOKEN = "forgejo-secret-4f1c"
PRINTER = "#!/bin/sh\nenv > \"$FAKE_OUT\"\n"


@pytest.fixture
def project(repo: Path, config_dir: Path, tmp_path: Path) -> dict[str, Any]:
    agent = tmp_path / "print-env"
    agent.write_text(PRINTER)
    agent.chmod(0o755)
    out = tmp_path / "env.txt"
    env = {"FAKE_OUT": str(out), "GZ_FORGEJO_TOKEN": TOKEN, "GZ_NEXUS_PASSWORD": TOKEN,
           "GZ_BUILD_API_KEY": TOKEN, "GZ_NEXUS_SEARCH_URL": f"https://ci:{TOKEN}@nexus.test/s",
           "VISIBLE": "plain"}
    return {"repo": repo, "agent": agent, "out": out, "env": env,
            "profiles": repo / ".harness" / "profiles"}


def run(project: dict[str, Any], env: dict[str, str], lang: str = "en") -> tuple[int, Any]:
    write_profile(project["profiles"] / "p", {"name": "p", "env": env})
    done = subprocess.run(
        [sys.executable, "-m", "gzia", "exec", "--json", "--profile", "p", "--",
         str(project["agent"])], cwd=project["repo"],
        env={**os.environ, **project["env"], "GZ_LANG": lang}, stdin=subprocess.DEVNULL,
        capture_output=True, text=True, timeout=120, check=False)
    assert TOKEN not in done.stdout + done.stderr
    return done.returncode, json.loads(done.stdout)


@pytest.mark.parametrize("name", [
    "GIT_CONFIG_COUNT", "GIT_CONFIG_KEY_0", "GIT_CONFIG_VALUE_0", "GIT_CONFIG_PARAMETERS",
    "GIT_CONFIG_GLOBAL", "GIT_CONFIG_NOSYSTEM", "GZ_SESSION_ID", "GZ_GUARD_ALLOW_PUSH",
    "GZ_LANG",
])
def test_a_profile_cannot_set_gz_ias_own_variables(project: dict[str, Any], name: str) -> None:
    code, document = run(project, {name: "0"})
    error = document["errors"][0]
    assert (code, error["code"]) == (2, "INVALID_INPUT")
    assert error["message"] == f"profile 'p' sets {name}, which is gz-ia's own (GIT_CONFIG*, GZ_*)"
    assert error["hint"] == f"remove {name} from the profile's env"
    assert error["details"] == {"profile": "p", "env": name}
    assert not project["out"].exists()  # no agent ran
    assert not (project["repo"] / ".harness" / "worktrees").exists()


def test_the_refusal_in_spanish(project: dict[str, Any]) -> None:
    code, document = run(project, {"GIT_CONFIG_COUNT": "0"}, lang="es")
    error = document["errors"][0]
    assert (code, error["code"]) == (2, "INVALID_INPUT")
    assert (error["message"], error["hint"]) == (
        "el perfil 'p' define GIT_CONFIG_COUNT, que es propia de gz-ia (GIT_CONFIG*, GZ_*)",
        "quita GIT_CONFIG_COUNT del env del perfil")


@pytest.mark.parametrize("variable", ["GZ_FORGEJO_TOKEN", "GZ_NEXUS_PASSWORD",
                                      "GZ_BUILD_API_KEY", "GZ_NEXUS_SEARCH_URL"])
@pytest.mark.parametrize("lang", ["en", "es"])
def test_a_profile_cannot_reach_a_withheld_credential(
    project: dict[str, Any], variable: str, lang: str
) -> None:
    code, document = run(project, {"LEAK": "x-${" + variable + "}-y"}, lang)
    error = document["errors"][0]
    expected = {
        "en": (f"profile 'p' asks for {variable} (for LEAK), a credential gz-ia keeps from "
               "agents", "give the agent a variable of its own: set it in gz-ia's environment "
               "under another name"),
        "es": (f"el perfil 'p' pide {variable} (para LEAK), una credencial que gz-ia no da a "
               "los agentes", "da al agente una variable propia: defínela en el entorno de "
               "gz-ia con otro nombre"),
    }
    assert (code, error["code"]) == (2, "INVALID_INPUT")
    assert (error["message"], error["hint"]) == expected[lang]
    assert error["details"] == {"profile": "p", "variable": variable, "env": "LEAK"}
    assert not project["out"].exists()


def test_what_the_agent_sees_is_still_expanded(project: dict[str, Any]) -> None:
    code, document = run(project, {"SEEN": "<${VISIBLE}>"})
    assert code == 0, document
    printed = project["out"].read_text()
    assert "SEEN=<plain>\n" in printed
    assert TOKEN not in printed
