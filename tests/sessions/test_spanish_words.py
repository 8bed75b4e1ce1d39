"""Under GZ_LANG=es no status, permission, end reason, holder state, stop outcome, label or
tab is shown in English; records and JSON keep the English (contract) values."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from enum import StrEnum
from pathlib import Path

import pytest

from gzia.contract import Permission
from gzia.i18n import gettext, set_language
from gzia.sessions.agent_state import AgentState
from gzia.sessions.project import Project
from gzia.sessions.record import HolderRef, HolderState, Status
from gzia.sessions.stop_outcome import StopHow, WhyKilled
from gzia.supervisor.endreason import EndReason
from gzia.tui.screens.detail import TABS
from gzia.views.words import (
    AGENT_STATE_WORDS,
    END_REASON_WORDS,
    HOLDER_WORDS,
    PERMISSION_WORDS,
    STATUS_WORDS,
    STOP_WORDS,
    WHY_KILLED_WORDS,
    agent_state_text,
    end_reason_text,
    holder_text,
    permission_text,
    status_text,
    stop_text,
    why_killed_text,
)
from tests.conftest import Result
from tests.sessions.session_testkit import make_session

Cli = Callable[..., Result]
SPANISH = {"GZ_LANG": "es"}
WORDS: list[tuple[type[StrEnum], dict[str, str], Callable[[str], str]]] = [
    (Status, STATUS_WORDS, status_text),
    (Permission, PERMISSION_WORDS, permission_text),
    (EndReason, END_REASON_WORDS, end_reason_text),
    (HolderState, HOLDER_WORDS, holder_text),
    (AgentState, AGENT_STATE_WORDS, agent_state_text),
    (StopHow, STOP_WORDS, stop_text),
    (WhyKilled, WHY_KILLED_WORDS, why_killed_text),
]
SAME_IN_SPANISH = {"PID:", "Base:", "Prompt:"}  # the original's Spanish keeps them
ENGLISH_WORDS = {value for enum, _, _ in WORDS for value in enum}


@pytest.fixture
def spanish() -> Iterator[None]:
    set_language("es")
    yield
    set_language(None)


@pytest.mark.usefixtures("spanish")
@pytest.mark.parametrize(("enum", "words", "shown"), WORDS,
                         ids=lambda x: getattr(x, "__name__", ""))
def test_every_value_of_each_enum_has_a_spanish_word(
        enum: type[StrEnum], words: dict[str, str], shown: Callable[[str], str]) -> None:
    assert set(words) == set(enum)
    english = {member.value: member.value for member in enum}
    spanish = {member.value: shown(member.value) for member in enum}
    assert all(spanish[v] != english[v] and spanish[v] not in ENGLISH_WORDS for v in english)
    assert shown("hibernating") == "hibernating"  # a newer version's value, shown as it is


@pytest.mark.parametrize(("enum", "shown"), [(e, s) for e, _, s in WORDS],
                         ids=lambda x: getattr(x, "__name__", ""))
def test_english_shows_the_contract_values(enum: type[StrEnum],
                                           shown: Callable[[str], str]) -> None:
    assert [shown(member.value) for member in enum] == [member.value for member in enum]


@pytest.mark.usefixtures("spanish")
def test_every_tab_of_the_detail_screen_in_spanish() -> None:
    assert {name: gettext(title) for name, title in TABS} == {
        "record": "Registro", "diff": "Diferencias", "events": "Eventos", "output": "Salida"}


def _english_word_in(text: str) -> set[str]:
    return set(re.findall(r"[a-z_]+", text)) & ENGLISH_WORDS


def test_session_list_and_show_have_no_english_word(cli: Cli, project: Project) -> None:
    permissions = list(Permission)
    reasons = list(EndReason)
    for n, status in enumerate(Status):
        make_session(project, f"abcdef0{n}", status=status,
                     permission_level=permissions[n % len(permissions)])
    listed = cli("session", "list", "-d", str(project.root), env=SPANISH).stdout
    rows = listed.splitlines()[2:]
    assert len(rows) == len(Status)
    assert [_english_word_in(row) for row in rows] == [set()] * len(Status)
    # the running one, with no process, is found lost
    assert {row.split()[3] for row in rows} == {"completada", "fallida", "detenida",
                                                     "perdida", "pausada"}
    assert all("Aislado" in row for row in rows)  # the mode column
    for n, reason in enumerate(reasons):  # every end reason a record can name
        make_session(project, f"fedcba0{n}", status="killed", pid=4242, exit_code=143,
                     permission_level="autonomous", initial_prompt="fix it",
                     merged_at="2026-03-01T10:02:00Z", labels={"team": "a"})
        _set_end_reason(project, f"fedcba0{n}", reason)
        shown = cli("session", "show", f"fedcba0{n}", "-d", str(project.root), env=SPANISH)
        assert _english_word_in(shown.stdout.replace("fix it", "")) == set(), reason
    english = cli("session", "show", "fedcba00", "-d", str(project.root)).stdout
    spanish = cli("session", "show", "fedcba00", "-d", str(project.root), env=SPANISH).stdout
    labels = [(en.split(":")[0] + ":", es.split(":")[0] + ":") for en, es in zip(
        english.splitlines()[1:], spanish.splitlines()[1:], strict=True)]
    assert len(labels) == 15  # every label a record can show
    assert {es for en, es in labels if en == es} == SAME_IN_SPANISH
    assert "Estado:     detenida" in spanish.splitlines()
    assert "Permisos:   autónomo" in spanish.splitlines()
    assert "Código de salida: 143" in spanish.splitlines()
    assert "Motivo fin: fin del proceso" in spanish.splitlines()


def _set_end_reason(project: Project, session_id: str, reason: str) -> None:
    from gzia.sessions.store import SessionStore

    def change(record: object) -> None:
        record.end_reason = reason  # type: ignore[attr-defined]

    SessionStore(project).update(session_id, change)


def test_poll_and_wait_in_spanish(cli: Cli, project: Project, tmp_path: Path) -> None:
    gone = HolderRef(pid=2**22 + 7, start_time="1", socket=tmp_path / "gone.sock")
    make_session(project, "abcdef01", status="failed", exit_code=3, holder=gone)
    root = str(project.root)
    polled = cli("session", "poll", "abcdef01", "-d", root, env=SPANISH).stdout
    assert polled == ("abcdef01  fallida  salida 3  0 bytes  inactiva -  "
                      "proceso desaparecido\n")
    assert cli("--json", "session", "poll", "abcdef01", "-d", root,
               env=SPANISH).json["data"]["holder"] == "gone"
    waited = cli("session", "wait", "abcdef01", "-d", root, env=SPANISH).stdout
    assert _english_word_in(waited) == set()
    assert "fallida" in waited and "fin del proceso" in waited
    metrics = cli("session", "metrics", "abcdef01", "-d", root, env=SPANISH).stdout
    assert "Estado:" in metrics and _english_word_in(metrics) == set()
    listed = cli("metrics", "-d", root, env=SPANISH).stdout
    assert "fallida" in listed and _english_word_in(listed) == set()
