"""The exact argv and environment each built-in driver produces, run for real on fakes."""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path
from typing import Any, NamedTuple

import pytest

from gzia.contract import InvalidInputError, NotFoundError
from gzia.drivers import LaunchRequest, LaunchSpec, Permission, get_driver, load_drivers
from tests.drivers.driver_fakes import FakeAgents

CONVERSATION = "6f1c2a0e-3b4d-4e5f-8a9b-0c1d2e3f4a5b"
PROMPT = "fix the failing test"
NESTED = {"CLAUDECODE": "1", "CLAUDE_CODE_ENTRYPOINT": "cli"}
R, S, A = Permission.READONLY, Permission.SUPERVISED, Permission.AUTONOMOUS
DENY = '{"edit":"deny","bash":"deny"}'
ASK = '{"edit":"ask","bash":"ask"}'



class Case(NamedTuple):
    provider: str
    resume: bool
    permission: Permission
    conversation_id: str | None
    prompt: str | None
    args: list[str]
    added_env: dict[str, str]


CASES = [Case(*c) for c in [
    ("claude", False, R, CONVERSATION, PROMPT,
     ["--permission-mode", "plan", "--session-id", CONVERSATION, "--", PROMPT], {}),
    ("claude", False, S, CONVERSATION, PROMPT,
     ["--permission-mode", "default", "--session-id", CONVERSATION, "--", PROMPT], {}),
    ("claude", False, A, CONVERSATION, PROMPT,
     ["--dangerously-skip-permissions", "--session-id", CONVERSATION, "--", PROMPT], {}),
    ("claude", True, R, CONVERSATION, None,
     ["--permission-mode", "plan", "--resume", CONVERSATION], {}),
    ("claude", True, S, CONVERSATION, None,
     ["--permission-mode", "default", "--resume", CONVERSATION], {}),
    ("claude", True, A, CONVERSATION, PROMPT,
     ["--dangerously-skip-permissions", "--resume", CONVERSATION, "--", PROMPT], {}),
    ("opencode", False, R, None, PROMPT,
     ["--agent", "plan", f"--prompt={PROMPT}"], {"OPENCODE_PERMISSION": DENY}),
    ("opencode", False, S, None, PROMPT, [f"--prompt={PROMPT}"], {"OPENCODE_PERMISSION": ASK}),
    ("opencode", False, A, None, PROMPT, ["--auto", f"--prompt={PROMPT}"], {}),
    ("opencode", True, R, None, None,
     ["--agent", "plan", "--continue"], {"OPENCODE_PERMISSION": DENY}),
    ("opencode", True, S, None, None, ["--continue"], {"OPENCODE_PERMISSION": ASK}),
    ("opencode", True, A, "ses_4f2a9c", None, ["--auto", "--session=ses_4f2a9c"], {}),
    ("agy", False, S, None, PROMPT, ["-i", PROMPT], {}),
    ("agy", False, A, None, PROMPT, ["--dangerously-skip-permissions", "-i", PROMPT], {}),
    ("agy", True, S, None, None, [], {}),
    ("agy", True, A, "c0ffee12", None,
     ["--dangerously-skip-permissions", "--conversation", "c0ffee12"], {}),
    ("pi-agent", False, R, None, PROMPT, ["--tools", "read,grep,find,ls", PROMPT], {}),
    ("pi-agent", False, S, None, PROMPT, [PROMPT], {}),
    ("pi-agent", False, A, None, PROMPT, [PROMPT], {}),
    ("pi-agent", True, R, None, None, ["--tools", "read,grep,find,ls", "--continue"], {}),
    ("pi-agent", True, S, None, None, ["--continue"], {}),
    ("pi-agent", True, A, None, PROMPT, ["--continue", PROMPT], {}),
    ("shell", False, S, None, None, [], {}),
    ("shell", False, A, None, None, [], {}),
    ("shell", True, S, None, None, [], {}),
    ("shell", True, A, None, PROMPT, [], {}),
]]
BINARIES = {"claude": "claude", "opencode": "opencode", "agy": "agy", "pi-agent": "pi",
            "shell": "fake-shell"}


def request(workdir: Path, env: dict[str, str], permission: Permission = S, *,
            prompt: str | None = None, conversation_id: str | None = None,
            resume: bool = False, mcp_config: Path | None = None,
            command: list[str] | None = None) -> LaunchRequest:
    return LaunchRequest(workdir, permission, prompt, conversation_id, resume, env,
                         mcp_config=mcp_config, command=command)


def run_spec(spec: LaunchSpec, workdir: Path, fake_agents: FakeAgents) -> dict[str, Any]:
    completed = subprocess.run(spec.argv, env=spec.env, cwd=workdir, timeout=30, check=False)
    assert completed.returncode == 0
    return fake_agents.recorded()


CASE_IDS = [f"{c.provider}-{'resume' if c.resume else 'new'}-{c.permission}" for c in CASES]


@pytest.mark.parametrize("case", CASES, ids=CASE_IDS)
def test_argv_and_environment(fake_agents: FakeAgents, workdir: Path, case: Case) -> None:
    binary = fake_agents.install(BINARIES[case.provider])
    base = fake_agents.env(SHELL=str(binary), **NESTED)
    if case.provider == "claude" and case.resume:
        claude_transcript(Path(base["HOME"]) / ".claude", workdir)
    spec = get_driver(case.provider).launch(request(
        workdir, base, case.permission, prompt=case.prompt,
        conversation_id=case.conversation_id, resume=case.resume))

    expected_env = dict(base)
    if case.provider == "claude":
        for name in NESTED:
            del expected_env[name]
    expected_env.update(case.added_env)
    assert spec == LaunchSpec([str(binary), *case.args], expected_env)
    recorded = run_spec(spec, workdir, fake_agents)
    assert recorded["args"] == case.args
    assert recorded["cwd"] == str(workdir)
    agent_env: dict[str, str] = recorded["env"]
    assert {k: v for k, v in agent_env.items() if k in base or k in expected_env} == expected_env


def test_claude_conversation_id_is_a_fresh_uuid_each_time() -> None:
    claude = get_driver("claude")
    first, second = claude.new_conversation_id(), claude.new_conversation_id()
    assert first is not None and second is not None and first != second
    assert len(first) == 36 and first.count("-") == 4
    assert [get_driver(p).new_conversation_id() for p in ("agy", "opencode", "pi-agent", "shell")] \
        == [None, None, None, None]


def claude_transcript(config_dir: Path, workdir: Path) -> Path:
    """Where Claude Code keeps a conversation: its directory name encodes the working dir."""
    project = config_dir / "projects" / re.sub(r"[^A-Za-z0-9]", "-", str(workdir))
    project.mkdir(parents=True, exist_ok=True)
    path = project / f"{CONVERSATION}.jsonl"
    path.write_text(json.dumps({"type": "user", "sessionId": CONVERSATION}) + "\n")
    return path


def test_claude_resume_before_any_transcript_starts_the_same_conversation(
    fake_agents: FakeAgents, workdir: Path
) -> None:
    path = fake_agents.install("claude")
    env = fake_agents.env()
    spec = get_driver("claude").launch(
        request(workdir, env, conversation_id=CONVERSATION, resume=True, prompt="again"))
    assert spec.argv == [str(path), "--permission-mode", "default", "--session-id", CONVERSATION,
                         "--", "again"]


def test_claude_transcripts_are_looked_up_in_CLAUDE_CONFIG_DIR(
    fake_agents: FakeAgents, workdir: Path, tmp_path: Path
) -> None:
    path = fake_agents.install("claude")
    claude_transcript(tmp_path / "claude-config", workdir)
    env = fake_agents.env(CLAUDE_CONFIG_DIR=str(tmp_path / "claude-config"))
    spec = get_driver("claude").launch(
        request(workdir, env, conversation_id=CONVERSATION, resume=True))
    assert spec.argv == [str(path), "--permission-mode", "default", "--resume", CONVERSATION]
    without_config = {k: v for k, v in env.items() if k != "CLAUDE_CONFIG_DIR"}
    spec = get_driver("claude").launch(
        request(workdir, without_config, conversation_id=CONVERSATION, resume=True))
    assert spec.argv[-2:] == ["--session-id", CONVERSATION]


def test_claude_resume_without_id_continues_in_the_session_directory(
    fake_agents: FakeAgents, workdir: Path
) -> None:
    path = fake_agents.install("claude")
    spec = get_driver("claude").launch(request(workdir, fake_agents.env(), resume=True))
    assert spec.argv == [str(path), "--permission-mode", "default", "--continue"]


def test_claude_new_chat_without_an_id_takes_none(fake_agents: FakeAgents, workdir: Path) -> None:
    path = fake_agents.install("claude")
    spec = get_driver("claude").launch(request(workdir, fake_agents.env(), prompt="hi"))
    assert spec.argv == [str(path), "--permission-mode", "default", "--", "hi"]


@pytest.mark.parametrize("bad", ["not-a-uuid", "--help", "../../x"])
def test_claude_refuses_a_malformed_conversation_id(
    fake_agents: FakeAgents, workdir: Path, bad: str
) -> None:
    fake_agents.install("claude")
    with pytest.raises(InvalidInputError) as caught:
        get_driver("claude").launch(request(workdir, fake_agents.env(), conversation_id=bad))
    assert caught.value.details == {"provider": "claude", "conversation_id": bad}


@pytest.mark.parametrize("provider", ["opencode", "agy"])
@pytest.mark.parametrize("bad", ["--help", "a b", "../x", ""])
def test_resume_ids_that_could_be_misread_are_refused(
    fake_agents: FakeAgents, workdir: Path, provider: str, bad: str
) -> None:
    fake_agents.install(BINARIES[provider])
    with pytest.raises(InvalidInputError):
        get_driver(provider).launch(
            request(workdir, fake_agents.env(), conversation_id=bad, resume=True))


NAMES = {"agy": "Google Antigravity (agy)", "shell": "Shell (shell)"}


@pytest.mark.parametrize("provider", ["agy", "shell"])
@pytest.mark.parametrize("resume", [False, True])
def test_readonly_is_refused_where_it_cannot_be_enforced(
    fake_agents: FakeAgents, workdir: Path, provider: str, resume: bool, lang: str
) -> None:
    name = NAMES[provider]
    fake_agents.install(BINARIES[provider])
    env = fake_agents.env()
    with pytest.raises(InvalidInputError) as caught:
        get_driver(provider).launch(request(workdir, env, R, prompt="look", resume=resume))
    assert caught.value.details == {"provider": provider, "permission": "readonly"}
    assert caught.value.message == {
        "en": f"agent '{name}' cannot be restricted to read-only; choose supervised or autonomous",
        "es": f"el agente '{name}' no se puede restringir a solo lectura; "
              "elige supervised o autonomous",
    }[lang]


@pytest.mark.parametrize(
    ("provider", "prompt", "tail"),
    [
        ("claude", "--version", ["--", "--version"]),
        ("claude", "doctor", ["--", " doctor"]),
        ("claude", "doctor the tests", ["--", "doctor the tests"]),
        ("pi-agent", "-v", [" -v"]),
        ("pi-agent", "@secrets.txt", [" @secrets.txt"]),
        ("pi-agent", "install", [" install"]),
        ("pi-agent", "install the deps", ["install the deps"]),
        ("opencode", "--auto", ["--prompt=--auto"]),
        ("agy", "--dangerously-skip-permissions", ["-i", "--dangerously-skip-permissions"]),
    ],
)
def test_prompts_are_never_read_as_options_or_subcommands(
    fake_agents: FakeAgents, workdir: Path, provider: str, prompt: str, tail: list[str]
) -> None:
    fake_agents.install(BINARIES[provider])
    spec = get_driver(provider).launch(request(workdir, fake_agents.env(), prompt=prompt))
    assert spec.argv[-len(tail):] == tail


def test_multiline_prompt_is_one_argument(fake_agents: FakeAgents, workdir: Path) -> None:
    fake_agents.install("opencode")
    prompt = "first line\nsecond = line"
    spec = get_driver("opencode").launch(request(workdir, fake_agents.env(), prompt=prompt))
    assert run_spec(spec, workdir, fake_agents)["args"] == [f"--prompt={prompt}"]


def test_claude_gets_the_mcp_config_file_before_the_conversation_flags(
    fake_agents: FakeAgents, workdir: Path, tmp_path: Path
) -> None:
    path = fake_agents.install("claude")
    config = tmp_path / "mcp.json"
    config.write_text('{"mcpServers": {}}')
    spec = get_driver("claude").launch(request(
        workdir, fake_agents.env(), A, prompt="go", conversation_id=CONVERSATION,
        mcp_config=config))
    assert spec.argv == [str(path), "--dangerously-skip-permissions", "--mcp-config", str(config),
                         "--session-id", CONVERSATION, "--", "go"]


def test_opencode_gets_mcp_servers_through_its_inline_config(
    fake_agents: FakeAgents, workdir: Path, tmp_path: Path
) -> None:
    fake_agents.install("opencode")
    config = tmp_path / "mcp.json"
    config.write_text(json.dumps({"mcpServers": {
        "gz-ia": {"command": "/opt/gz-ia", "args": ["mcp", "--session", "ab12cd34"],
                  "env": {"GZ_LANG": "es"}},
        "docs": {"url": "http://127.0.0.1:9/mcp", "headers": {"X-Key": "k"}},
    }}))
    user_inline = json.dumps({"theme": "dark", "mcp": {"mine": {"type": "remote", "url": "u"}}})
    env = fake_agents.env(OPENCODE_CONFIG_CONTENT=user_inline)
    spec = get_driver("opencode").launch(request(workdir, env, A, mcp_config=config))
    assert json.loads(spec.env["OPENCODE_CONFIG_CONTENT"]) == {
        "theme": "dark",
        "mcp": {
            "mine": {"type": "remote", "url": "u"},
            "gz-ia": {"type": "local", "command": ["/opt/gz-ia", "mcp", "--session", "ab12cd34"],
                      "enabled": True, "environment": {"GZ_LANG": "es"}},
            "docs": {"type": "remote", "url": "http://127.0.0.1:9/mcp", "enabled": True,
                     "headers": {"X-Key": "k"}},
        },
    }
    assert "--mcp-config" not in spec.argv


def test_opencode_reports_an_unreadable_mcp_config(
    fake_agents: FakeAgents, workdir: Path, tmp_path: Path
) -> None:
    fake_agents.install("opencode")
    config = tmp_path / "mcp.json"
    config.write_text("{not json")
    with pytest.raises(InvalidInputError) as caught:
        get_driver("opencode").launch(request(workdir, fake_agents.env(), mcp_config=config))
    assert caught.value.details["path"] == str(config)


def test_mcp_support_of_each_builtin() -> None:
    assert {d.id: d.mcp_support for d in load_drivers().values()} == {
        "agy": "none", "claude": "flag", "opencode": "env", "pi-agent": "none", "shell": "none"}


def test_path_is_looked_up_in_the_agent_environment_not_ours(
    fake_agents: FakeAgents, workdir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    fake_agents.install("claude")
    monkeypatch.setenv("PATH", str(fake_agents.bin))
    claude = get_driver("claude")
    assert claude.resolve({"PATH": "/nonexistent"}) is None
    found = claude.resolve({"PATH": f"/nonexistent:{fake_agents.bin}"})
    assert found == str(fake_agents.bin / "claude")


def test_relative_path_entries_resolve_to_an_absolute_path(
    fake_agents: FakeAgents, monkeypatch: pytest.MonkeyPatch
) -> None:
    fake_agents.install("pi")
    monkeypatch.chdir(fake_agents.root)
    assert get_driver("pi-agent").resolve({"PATH": "bin"}) == str(fake_agents.bin / "pi")


@pytest.mark.parametrize(("installed", "found"),
                         [(["pi"], "pi"), (["pi-agent"], "pi-agent"), (["pi-agent", "pi"], "pi")])
def test_pi_is_found_as_pi_or_as_pi_agent(
    fake_agents: FakeAgents, workdir: Path, installed: list[str], found: str
) -> None:
    for binary in installed:
        fake_agents.install(binary, version_text="0.73.1")
    driver = get_driver("pi-agent")
    assert driver.resolve(fake_agents.env()) == str(fake_agents.bin / found)
    spec = driver.launch(request(workdir, fake_agents.env()))
    assert spec.argv == [str(fake_agents.bin / found)]
    assert driver.probe_version(fake_agents.env()) == "0.73.1"


class TestShell:
    def test_runs_SHELL_from_the_agent_environment(self, fake_agents: FakeAgents,
                                                   workdir: Path) -> None:
        shell = fake_agents.install("fake-shell")
        spec = get_driver("shell").launch(request(workdir, fake_agents.env(SHELL=str(shell))))
        assert spec.argv == [str(shell)]
        assert run_spec(spec, workdir, fake_agents)["cwd"] == str(workdir)

    @pytest.mark.parametrize("shell", [None, "", "relative/sh", "/nonexistent/zsh"])
    def test_falls_back_to_sh(self, workdir: Path, shell: str | None) -> None:
        env = {"PATH": "/nonexistent"} if shell is None else {"PATH": "/nonexistent",
                                                               "SHELL": shell}
        spec = get_driver("shell").launch(request(workdir, env))
        assert spec.argv == ["/bin/sh"]
        assert get_driver("shell").resolve(env) == "/bin/sh"

    def test_runs_a_given_command_found_on_the_agent_path(
        self, fake_agents: FakeAgents, workdir: Path
    ) -> None:
        tool = fake_agents.install("make")
        spec = get_driver("shell").launch(
            request(workdir, fake_agents.env(), command=["make", "test", "-j2"], prompt="x"))
        assert spec.argv == [str(tool), "test", "-j2"]
        assert run_spec(spec, workdir, fake_agents)["args"] == ["test", "-j2"]

    def test_runs_a_command_relative_to_the_workspace(
        self, fake_agents: FakeAgents, workdir: Path
    ) -> None:
        script = fake_agents.install("run-me")
        (workdir / "scripts").mkdir()
        target = workdir / "scripts" / "run-me"
        target.write_bytes(script.read_bytes())
        target.chmod(0o755)
        spec = get_driver("shell").launch(
            request(workdir, fake_agents.env(), command=["scripts/run-me", "a b"]))
        assert spec.argv == [str(target), "a b"]

    def test_a_missing_command_is_not_found(self, fake_agents: FakeAgents, workdir: Path) -> None:
        with pytest.raises(NotFoundError) as caught:
            get_driver("shell").launch(request(workdir, fake_agents.env(), command=["nope"]))
        assert caught.value.details == {"program": "nope"}

    def test_is_always_available(self) -> None:
        shell = get_driver("shell")
        assert shell.resolve({}) is not None
        assert shell.install_hint() == ""
