"""The new-session form's rows and fields, driven by Textual's pilot against a real git
repository: the radio rows choose with the arrows (and show the choice, focused or not),
the shell runs a command, and a name, labels and a timeout reach the session as ``--name``,
``--label`` and ``--timeout`` would; a bad value is the command line's own error."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from textual.widgets import Input, OptionList, RadioSet, TextArea

from gzia.i18n import set_language
from gzia.tui.app import GzApp
from tests.background.conftest import wait_final
from tests.run.conftest import gz, gz_start
from tests.supervisor.conftest import notes
from tests.tui.conftest import Gz
from tests.tui.forms_kit import open_form, project_app, records, shown, with_fake_agents

__all__ = ["gz", "gz_start", "notes"]

pytestmark = pytest.mark.anyio
SHELL_ROW = 4


@pytest.fixture
def app(tmp_path: Path, notes: Path, monkeypatch: pytest.MonkeyPatch) -> GzApp:
    with_fake_agents(tmp_path / "agents", notes, monkeypatch)
    set_language("en")
    yield project_app(tmp_path / "project")
    set_language(None)


def fill(app: GzApp, **values: str) -> None:
    for name, value in values.items():
        field = app.screen.query_one(f"#{name}")
        if isinstance(field, TextArea):
            field.insert(value)
        else:
            assert isinstance(field, Input)
            field.value = value


async def test_the_arrows_choose_what_the_focused_row_shows(app: GzApp) -> None:
    """→ on the Run row takes "in the background" (it used to move an invisible cursor
    only, and Ctrl+S started in the foreground): the session started is a background one."""
    async with app.run_test(size=(100, 30)) as pilot:
        await open_form(pilot, app)
        app.screen.query_one("#agents", OptionList).highlighted = SHELL_ROW
        where = app.screen.query_one("#where", RadioSet)
        where.focus()
        await pilot.pause()
        assert where.region.height == 1  # one line, not a box over the options
        await pilot.press("right")
        assert where.pressed_button is not None and where.pressed_button.id == "background"
        fill(app, prompt="true")
        await pilot.press("ctrl+s")
        for _ in range(2):  # the start, then the list's reload
            await app.workers.wait_for_complete()
            await pilot.pause()
        [record] = records(app)
    assert record["holder"]  # a background run, as chosen
    assert wait_final(app.tui_context.store.project.root, str(record["id"]))["status"] == (
        "completed")


async def test_the_permission_row_starts_on_the_default_and_arrows_move_from_there(
        app: GzApp) -> None:
    async with app.run_test(size=(100, 30)) as pilot:
        await open_form(pilot, app)
        permission = app.screen.query_one("#permission", RadioSet)
        permission.focus()
        await pilot.pause()
        await pilot.press("right")  # supervised (the default) -> autonomous
        assert permission.pressed_button is not None
        assert permission.pressed_button.name == "autonomous"
        await pilot.press("left", "left")
        assert permission.pressed_button.name == "readonly"


async def test_the_shell_runs_a_command_with_labels_and_a_timeout(app: GzApp) -> None:
    async with app.run_test(size=(100, 30)) as pilot:
        await open_form(pilot, app)
        app.screen.query_one("#agents", OptionList).highlighted = SHELL_ROW
        await pilot.pause()
        assert shown(app, "#prompt-label") == "Command"
        fill(app, prompt="sh -c 'echo from the form > out.txt'", labels='team=core note="a b"',
             timeout="30", name="  fix login ")
        await pilot.press("ctrl+s")
        await pilot.pause()
        [record] = records(app)
        assert "Merge: m" in shown(app, ".dialog-body Static")
    assert (record["mode"], record["provider"], record["status"], record["labels"],
            record["name"]) == ("exec", "shell", "completed", {"team": "core", "note": "a b"},
                                "fix login")  # stripped, as --name strips it
    assert (Path(str(record["worktree_dir"])) / "out.txt").read_text() == "from the form\n"


async def test_the_timeout_stops_the_session(app: GzApp) -> None:
    async with app.run_test(size=(100, 30)) as pilot:
        await open_form(pilot, app)
        app.screen.query_one("#agents", OptionList).highlighted = SHELL_ROW
        await pilot.pause()
        fill(app, prompt="sleep 60", timeout="0.5")
        await pilot.press("ctrl+s")
        await pilot.pause()
        [record] = records(app)
    assert (record["status"], record["end_reason"]) == ("killed", "timeout")


OPTIONS = {"labels": "--label", "timeout": "--timeout", "name": "--name"}


@pytest.mark.parametrize("lang", ["en", "es"])
@pytest.mark.parametrize(("field", "value"), [("labels", "oops"), ("timeout", "0"),
                                              ("timeout", "soon"), ("name", "x" * 81)])
async def test_a_bad_value_is_the_command_lines_error(app: GzApp, gz: Gz, lang: str,
                                                      field: str, value: str) -> None:
    set_language(lang)
    async with app.run_test(size=(100, 30)) as pilot:
        await open_form(pilot, app)
        fill(app, **{field: value})
        await pilot.press("ctrl+s")
        await pilot.pause()
        said = shown(app, "#problem")
        assert records(app) == []
    root = app.tui_context.store.project.root
    cli = gz("exec", OPTIONS[field], value, "--", "true", cwd=root, env={"GZ_LANG": lang})
    assert (cli.exit_code, cli.stderr.rstrip("\n")) == (2, said)


@pytest.mark.parametrize("lang", ["en", "es"])
def test_a_command_starts_with_the_line_exec_prints(
        tmp_path: Path, gz: Gz, capfd: pytest.CaptureFixture[str], lang: str) -> None:
    """In the foreground the form's command session says what ``gz-ia exec`` says as it
    starts (it said "Starting chat with Shell", as for the shell itself)."""
    from gzia.sessions.project import find_project
    from gzia.sessions.record import SessionRecord
    from gzia.tui.starting import Choice, launch_report
    from tests.sessions.session_testkit import make_repo, prepare_workspace

    set_language(lang)
    repo = make_repo(tmp_path / "repo")
    workspace = prepare_workspace(find_project(repo), "d00d0001")
    choice = Choice(provider="shell", permission="supervised", command=("sh", "-c", "echo a b"))
    launch_report(choice)(SessionRecord(id="d00d0001", provider="shell", started_at=""),
                          workspace)
    said = capfd.readouterr().err.splitlines()[-1]
    set_language(None)
    cli = gz("exec", "--", "sh", "-c", "echo a b", cwd=repo, env={"GZ_LANG": lang})
    [exec_line] = [line for line in cli.stderr.splitlines() if line.startswith("❯❯")]
    [cli_id] = set(re.findall(r"\b[0-9a-f]{8}\b", exec_line))
    assert said == exec_line.replace(cli_id, "d00d0001")
