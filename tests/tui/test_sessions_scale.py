"""The home screen over many sessions: at most ``ROWS_SHOWN`` rows (the newest the filter
matches, the title saying how many more there are), and no re-read of the store while
nothing in it changed (the running sessions are still checked, and seen to end)."""

from __future__ import annotations

import os
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from textual.widgets import DataTable, Static

from gzia.i18n import N_
from gzia.sessions.project import find_project
from gzia.sessions.record import SessionRecord, Status
from gzia.sessions.store import SessionStore
from gzia.supervisor.procinfo import process_start_time
from gzia.tui.app import GzApp
from gzia.tui.rows import COLUMN_TITLES, ROWS_SHOWN, TICK_S
from gzia.tui.screens.new_session import NewSessionScreen
from gzia.tui.screens.sessions import SessionsScreen
from gzia.views.sessions import format_duration
from tests.sessions.session_testkit import make_repo
from tests.tui.conftest import make_app, until

pytestmark = pytest.mark.anyio

MANY = 250
CLAUDE_EVERY = 10
"""Every tenth session ran ``claude`` (the rest ``shell``): a filter that narrows."""


def session_id(n: int) -> str:
    return f"{n:08x}"


def started_at(n: int) -> str:
    """Session ``n`` started ``n`` minutes after the first: the highest is the newest."""
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(1_772_000_000 + 60 * n))


def write_sessions(store: SessionStore, count: int) -> None:
    for n in range(count):
        store.create(SessionRecord(
            id=session_id(n), started_at=started_at(n), status=Status.COMPLETED,
            provider="claude" if n % CLAUDE_EVERY == 0 else "shell"))


def settle(store: SessionStore) -> None:
    """As if the store was last written a minute ago (its directory's modification time)."""
    minute_ago = time.time_ns() - 60_000_000_000
    os.utime(store.dir, ns=(minute_ago, minute_ago))


def table_ids(app: GzApp) -> list[str]:
    table = app.screen.query_one("#sessions", DataTable)
    return [str(row.key.value) for row in table.ordered_rows]


def title(app: GzApp) -> str:
    return str(app.screen.query_one("#title", Static).content)


@pytest.fixture
def store(tmp_path: Path) -> SessionStore:
    return SessionStore(find_project(make_repo(tmp_path / "repo")))


@pytest.mark.parametrize(("language", "capped", "narrowed"), [
    ("english", f"Sessions: showing {ROWS_SHOWN} of {MANY}: filter to narrow · status: all",
     f"Sessions: 25 of {MANY} · status: all"),
    ("spanish", f"Sesiones: se muestran {ROWS_SHOWN} de {MANY}: filtre para acotar · estado: "
     "todos", f"Sesiones: 25 de {MANY} · estado: todos"),
])
async def test_the_table_shows_the_newest_rows_up_to_the_cap_and_says_so(
    store: SessionStore, language: str, capped: str, narrowed: str,
    request: pytest.FixtureRequest
) -> None:
    request.getfixturevalue(language)
    write_sessions(store, MANY)
    newest_first = [session_id(n) for n in reversed(range(MANY))]
    app = make_app(store.project.root)
    async with app.run_test(size=(120, 40)) as pilot:
        await until(pilot, lambda: len(table_ids(app)) == ROWS_SHOWN, "the capped table")
        assert table_ids(app) == newest_first[:ROWS_SHOWN]
        assert title(app) == capped
        await pilot.press("slash", *"claude")
        await until(pilot, lambda: len(table_ids(app)) == MANY // CLAUDE_EVERY, "the filter")
        assert table_ids(app) == [sid for sid in newest_first
                                  if int(sid, 16) % CLAUDE_EVERY == 0]
        assert title(app) == narrowed


@pytest.fixture
def counted_reads(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """One entry per full read of the store (:meth:`SessionStore.list`, the real one)."""
    reads: list[int] = []
    real_list = SessionStore.list

    def counting(self: SessionStore) -> object:
        reads.append(1)
        return real_list(self)

    monkeypatch.setattr(SessionStore, "list", counting)
    return reads


@pytest.fixture
def sleeper() -> Iterator[subprocess.Popen[bytes]]:
    process = subprocess.Popen(["sleep", "60"])
    yield process
    process.kill()
    process.wait()


@pytest.mark.usefixtures("english")
async def test_no_re_read_while_nothing_changed_but_running_sessions_are_checked(
    store: SessionStore, counted_reads: list[int], sleeper: subprocess.Popen[bytes]
) -> None:
    write_sessions(store, 50)
    running = store.create(SessionRecord(
        id="feedf00d", started_at=started_at(99), provider="shell", pid=sleeper.pid,
        pid_start_time=process_start_time(sleeper.pid)))
    settle(store)
    app = make_app(store.project.root, refresh_s=0.05)
    async with app.run_test(size=(120, 40)) as pilot:
        await until(pilot, lambda: len(table_ids(app)) == 51, "the sessions")
        await pilot.pause(1.0)  # twenty refreshes
        assert len(counted_reads) == 1
        sleeper.kill()  # the process ends with no write to the store
        sleeper.wait()
        table = app.screen.query_one("#sessions", DataTable)
        await until(pilot, lambda: str(table.get_row(running.id)[2]) == Status.LOST,
                    "the ended session shown lost")
        store.create(SessionRecord(id="0ddba11e", started_at=started_at(100),
                                   provider="shell", status=Status.COMPLETED))
        await until(pilot, lambda: table_ids(app)[:1] == ["0ddba11e"], "the new session")
    assert len(counted_reads) > 1


@pytest.mark.usefixtures("english")
async def test_running_durations_move_on_once_per_tick_not_on_every_refresh(
    store: SessionStore, sleeper: subprocess.Popen[bytes]
) -> None:
    """Each change to the table redraws all its rows while keys wait: the durations of
    running sessions move on every TICK_S seconds, not at every refresh."""
    started = 1_772_000_000  # a whole tick
    running = store.create(SessionRecord(
        id="feedf00d", started_at=time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(started)),
        provider="shell", pid=sleeper.pid, pid_start_time=process_start_time(sleeper.pid)))
    now = [started + 65.0]
    app = make_app(store.project.root, clock=lambda: now[0], refresh_s=0.05)
    duration = COLUMN_TITLES.index(N_("DURATION"))
    async with app.run_test(size=(120, 40)) as pilot:
        table = app.screen.query_one("#sessions", DataTable)
        await until(pilot, lambda: table_ids(app) == [running.id], "the session")
        assert str(table.get_row(running.id)[duration]) == "1m00s"
        now[0] = started + 65.0 + TICK_S - 6  # within the same tick: several refreshes
        await pilot.pause(0.5)
        assert str(table.get_row(running.id)[duration]) == "1m00s"
        now[0] = started + 65.0 + TICK_S
        await until(pilot, lambda: str(table.get_row(running.id)[duration])
                    == format_duration((60 + TICK_S) * 1000), "the next tick's duration")


@pytest.mark.usefixtures("english")
async def test_rows_drawn_before_textual_measures_them_are_already_full_width(
    store: SessionStore
) -> None:
    """Textual measures added rows only once the app is idle, and keeps what it drew
    before that: columns squeezed to their titles. The screen sets the widths itself when
    it adds rows; here a row is drawn right after the columns are made again (as a resize
    makes them), with no chance for Textual to be idle in between."""
    write_sessions(store, 30)
    app = make_app(store.project.root)
    async with app.run_test(size=(120, 40)) as pilot:
        await until(pilot, lambda: len(table_ids(app)) == 30, "the sessions")
        screen = app.screen
        assert isinstance(screen, SessionsScreen)
        table = screen.query_one("#sessions", DataTable)
        screen._set_columns(120)
        screen._fill()
        header, first_row = (table.render_line(y).text for y in (0, 1))
        assert header.split() == ["ID", "STATE", "STATUS", "PROVIDER", "AGE", "DURATION",
                                  "LABELS", "BRANCH", "+/-BASE"]
        assert first_row.split()[:4] == [session_id(29), "exited", "completed", "shell"]


@pytest.mark.parametrize(("language", "said"), [
    ("english", "Error: I/O error: Not a directory: {dir}"),
    ("spanish", "Error: error de E/S: Not a directory: {dir}"),  # the detail is the OS's
])
async def test_a_store_that_cannot_be_read_opens_the_screen_with_the_cli_error(
    store: SessionStore, language: str, said: str, request: pytest.FixtureRequest
) -> None:
    """The first read runs before the first frame: when it fails, the screen still opens,
    its title saying what ``gz-ia session list`` says, and the keys still work."""
    request.getfixturevalue(language)
    store.dir.parent.mkdir(parents=True, exist_ok=True)
    store.dir.write_text("not a directory\n")
    app = make_app(store.project.root)
    async with app.run_test(size=(120, 40)) as pilot:
        await until(pilot, lambda: title(app).startswith("Error:"), "the error")
        assert title(app) == said.format(dir=store.dir)
        assert table_ids(app) == []
        await pilot.press("n")
        await until(pilot, lambda: isinstance(app.screen, NewSessionScreen),
                    "the new-session form")
