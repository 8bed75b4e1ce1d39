"""The new-session form: agent (installed or not, as ``gz-ia drivers`` sees them),
permission, sandbox, profiles, prompt, name, base, labels, timeout, foreground or
background; then the start ``gz-ia chat`` makes.

In the foreground the TUI is suspended and the agent gets the terminal through the
supervisor's hand-off (Ctrl+C reaches the agent); when it ends, the outcome is shown
in the CLI's words. In the background the start returns at once and the session list
shows the new session.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import TYPE_CHECKING, ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import (
    Footer,
    Input,
    Label,
    OptionList,
    RadioButton,
    RadioSet,
    Static,
    TextArea,
)
from textual.widgets.option_list import Option

from gzia.contract import GzError, Permission
from gzia.i18n import N_, gettext, pgettext
from gzia.sessions.sandbox_choice import sandbox_for
from gzia.tui import starting
from gzia.tui.keys import key
from gzia.tui.screens.base import GzScreen, terminal_lent
from gzia.tui.screens.confirm import NoticeScreen
from gzia.tui.screens.forms import problem_text
from gzia.tui.screens.sessions import SessionsScreen
from gzia.tui.screens.toggles import TOGGLES_CSS, Choices, Pick, Tick
from gzia.tui.services import problem_of
from gzia.views.words import permission_text

if TYPE_CHECKING:
    from gzia.sessions.run import SessionRun
    from gzia.sessions.sandbox_choice import SandboxOffer

NOTICE_S = 10.0
"""How long a start's warning stays on the screen."""


class NewSessionScreen(GzScreen):
    BINDINGS: ClassVar[list[BindingType]] = [
        key("ctrl+s", "start", N_("Start")),
    ]
    DEFAULT_CSS = """
    NewSessionScreen #new-form { padding: 0 1; }
    NewSessionScreen .title { text-style: bold; margin-bottom: 1; }
    NewSessionScreen .row { height: auto; }
    NewSessionScreen .row > Label { width: 11; }
    NewSessionScreen #prompt-label { padding-top: 1; }
    NewSessionScreen #permission-row { margin-top: 1; }
    NewSessionScreen #agents { height: auto; max-height: 6; width: 1fr; border: none;
                               padding: 0; }
    NewSessionScreen #profiles { height: auto; max-height: 4; width: 1fr; }
    NewSessionScreen #agent-detail, NewSessionScreen #sandbox-detail {
        padding-left: 11; color: $text-muted; }
    NewSessionScreen #sandbox-detail { height: auto; display: none; }
    NewSessionScreen #prompt { height: 5; width: 1fr; }
    NewSessionScreen .field Input { height: 1; width: 1fr; border: none; padding: 0 1; }
    NewSessionScreen #problem { margin-top: 1; color: $error; }
    """ + TOGGLES_CSS

    def __init__(self) -> None:
        super().__init__()
        self.agents: starting.Agents | None = None
        self.busy = False

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="new-form"):
            yield Static(gettext("New session"), classes="title")
            with Horizontal(classes="row"):
                yield Label(gettext("Agent"))
                yield OptionList(Option(gettext("Looking for agents on PATH..."), disabled=True),
                                 id="agents")
            yield Static("", id="agent-detail", markup=False)
            with Horizontal(classes="row", id="permission-row"):
                yield Label(gettext("Permission"))
                yield _permission_set(starting.default_permission())
            with Horizontal(classes="row"):
                yield Label(gettext("Sandbox"))
                yield _sandbox_set(sandbox_for(None))
            yield Static("", id="sandbox-detail", markup=False)
            yield from self._profiles()
            with Horizontal(classes="row"):
                yield Label(gettext("Prompt"), id="prompt-label")
                yield TextArea(id="prompt", soft_wrap=True, show_line_numbers=False)
            with Horizontal(classes="row field"):
                yield Label(gettext("Name"))
                yield Input(placeholder=gettext("what you call the session (optional)"),
                            id="name")
            with Horizontal(classes="row field"):
                yield Label(gettext("Base"))
                yield Input(placeholder=gettext("branch, tag or commit to start from (optional; "
                                                "default: HEAD)"), id="base")
            with Horizontal(classes="row field"):
                yield Label(gettext("Labels"))
                yield Input(placeholder=gettext("key=value ... (optional)"), id="labels")
            with Horizontal(classes="row field"):
                yield Label(gettext("Timeout"))
                yield Input(placeholder=gettext("seconds (optional): the session is stopped "
                                                "after them"), id="timeout")
            with Horizontal(classes="row"):
                yield Label(gettext("Run"))
                with Choices(id="where"):
                    yield Pick(gettext("in the foreground (this terminal)"), value=True,
                               id="foreground")
                    yield Pick(gettext("in the background"), id="background")
            yield Static("", id="problem", markup=False)
        yield Footer()

    def _profiles(self) -> ComposeResult:
        """The profiles' multi-select, only when the project or the user has profiles."""
        try:
            names = starting.profile_names(self.context.store.project)
        except Exception as exc:  # a broken catalogue: said, and the form still works
            yield Static(problem_text(exc), id="profiles-problem", markup=False)
            return
        if names:
            with Horizontal(classes="row"):
                yield Label(gettext("Profiles"))
                with Vertical(id="profiles"):
                    yield from (Tick(name, name=name) for name in names)

    def on_mount(self) -> None:
        from gzia.sessions.sandbox_choice import sandbox_offer

        self.call(starting.find_agents, self._show_agents, group="agents",
                  failed=self._failed)
        self.call(sandbox_offer, self._offer_sandbox, group="sandbox", failed=self._failed)

    def _offer_sandbox(self, offer: SandboxOffer) -> None:
        """The row at the setting; locked, with the reason under it, when it cannot change."""
        from gzia.tui.sandbox_choice import why_locked

        self.query_one("#sandbox-on" if offer.on else "#sandbox-off", RadioButton).value = True
        self.query_one("#sandbox", RadioSet).disabled = offer.locked
        why = self.query_one("#sandbox-detail", Static)
        why.update("\n".join(why_locked(offer)))
        why.display = offer.locked

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "start":
            return None if self.busy or self.agents is None else True
        return True

    def _show_agents(self, agents: starting.Agents) -> None:
        self.agents = agents
        self.refresh_bindings()
        listing = self.query_one("#agents", OptionList)
        listing.clear_options()
        listing.add_options(Option(_agent_row(a), id=a.status.id) for a in agents.all)
        listing.highlighted = _first_pick(agents)
        listing.focus()

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        agent = self._agent(event.option.id)
        if agent is None:
            return
        self.query_one("#agent-detail", Static).update(_agent_detail(agent))
        prompt = self.query_one("#prompt", TextArea)
        prompt.disabled = not (agent.takes_prompt or agent.runs_commands)
        self.query_one("#prompt-label", Label).update(
            gettext("Command") if agent.runs_commands else gettext("Prompt"))
        prompt.placeholder = _task_placeholder(agent)

    def _agent(self, provider: str | None) -> starting.Agent | None:
        found = [a for a in self.agents.all if a.status.id == provider] if self.agents else []
        return found[0] if found else None

    def action_start(self) -> None:
        try:
            choice = self._choice()
        except GzError as exc:  # a bad label or timeout: the CLI's words, on the form
            self._say(problem_text(exc))
            return
        if self.busy or choice is None:
            return
        self._say("")
        if choice.background:
            self.busy = True
            self._say(gettext("Starting the session..."))
            self.refresh_bindings()
            project_dir, tools = self.context.store.project.base, self.context.preapproved_tools
            self.call(lambda: starting.start_in_background(project_dir, choice, tools),
                      self._started_in_background, group="start", failed=self._failed)
        else:
            self._run_in_foreground(choice)

    def _choice(self) -> starting.Choice | None:
        """What the form says, its texts read as the command line reads them (a bad
        value: InvalidInputError, in the command line's words)."""
        option = self.query_one("#agents", OptionList).highlighted_option
        agent = self._agent(option.id if option is not None else None)
        if agent is None:
            return None
        permission = self.query_one("#permission", RadioSet).pressed_button
        ticked = self.query("#profiles Tick").results(Tick)
        task = self.query_one("#prompt", TextArea).text
        return starting.Choice(
            provider=agent.status.id,
            permission=str(permission.name if permission else Permission.SUPERVISED),
            profiles=tuple(str(tick.name) for tick in ticked if tick.value),
            prompt="" if agent.runs_commands else task,
            command=starting.parse_command(task) if agent.runs_commands else (),
            labels=starting.parse_labels(self.query_one("#labels", Input).value),
            timeout_s=starting.parse_timeout(self.query_one("#timeout", Input).value),
            name=starting.parse_name(self.query_one("#name", Input).value),
            base=self.query_one("#base", Input).value.strip() or None,
            sandbox=self.query_one("#sandbox-on", RadioButton).value,
            background=self.query_one("#background", RadioButton).value)

    def _run_in_foreground(self, choice: starting.Choice) -> None:
        """The agent gets this terminal (the TUI is suspended) until it ends."""
        try:
            with self._terminal_handed_over():
                run = starting.start(self.context.store.project.base, choice,
                                     on_launch=starting.launch_report(choice),
                                     preapproved_tools=self.context.preapproved_tools)
        except Exception as exc:  # the CLI's error line and hint, on the form
            self._say(problem_text(exc))
            return
        self.app.push_screen(_outcome(run), lambda _: self._started(run.record.id))

    @contextlib.contextmanager
    def _terminal_handed_over(self) -> Iterator[None]:
        if self.app.is_headless:  # no terminal to give (the pilot's tests)
            yield
            return
        with terminal_lent(self.app):
            yield

    def _started_in_background(self, started: tuple[str, list[str]]) -> None:
        session_id, warnings = started
        for warning in warnings:
            self.app.notify(warning, title=gettext("Warning"), severity="warning",
                            markup=False, timeout=NOTICE_S)
        self._started(session_id)

    def _started(self, session_id: str) -> None:
        """Back to the list, read again at once, its cursor on the new session."""
        self.busy = False
        self.app.pop_screen()
        home = self.app.screen
        if isinstance(home, SessionsScreen):
            home.select_when_listed(session_id)
        self.app.call_later(home.run_action, "reload")

    def _failed(self, exc: BaseException) -> None:
        self.busy = False
        self._say(problem_text(exc))
        self.refresh_bindings()

    def _say(self, text: str) -> None:
        """``text`` under the form, scrolled into view (at 80x24 the form is taller than
        the screen: a refusal said below it went unseen)."""
        problem = self.query_one("#problem", Static)
        problem.update(text)
        if text:
            self.call_after_refresh(problem.scroll_visible, animate=False)


def _outcome(run: SessionRun) -> NoticeScreen:
    """How the run ended, in ``gz-ia chat``'s words: its lines, or its error and hint."""
    from gzia.sessions.run import RunEnd
    from gzia.sessions.run_errors import run_error

    record = run.record
    if run.end is not RunEnd.COMPLETED:
        return NoticeScreen.of_problem(problem_of(run_error(run)))
    from gzia.views.sessions import finished_lines

    lines = finished_lines(record)[:1]  # its next steps are keys here, not commands
    if record.is_isolated:
        lines.append(gettext("Review: Enter, then 2 (its diff)   Merge: m"))
    return NoticeScreen(gettext("Session {id}", id=record.id), lines)


def _first_pick(agents: starting.Agents) -> int | None:
    """The row highlighted first: ``gz-ia chat``'s default agent, else the first installed."""
    ids = [a.status.id for a in agents.all]
    installed = [a.status.id for a in agents.all if a.status.available]
    first = agents.preselected or next(iter(installed), None)
    return ids.index(first) if first in ids else None


def _permission_set(default: str) -> Choices:
    return Choices(*(Pick(permission_text(p), value=p.value == default, name=p.value,
                           id=f"permission-{p.value}")
                      for p in Permission), id="permission")


def _sandbox_set(on: bool) -> Choices:
    """Off or on, locked until :func:`gzia.tui.sandbox_choice.sandbox_offer` has answered."""
    return Choices(Pick(pgettext("tui.sandbox", "off"), value=not on, id="sandbox-off"),
                   Pick(gettext("on: only its worktree is writable (bubblewrap)"), value=on,
                        id="sandbox-on"),
                   id="sandbox", disabled=True)


def _task_placeholder(agent: starting.Agent) -> str:
    if agent.runs_commands:
        return gettext("The command to run, e.g. make test (empty: {name} opens $SHELL)",
                       name=agent.status.name)
    if agent.takes_prompt:
        return gettext("The agent's first task (optional)")
    return gettext("{name} takes no prompt", name=agent.status.name)


def _agent_row(agent: starting.Agent) -> Text:
    status = agent.status
    if status.available:
        state = gettext("{name} — ready to use", name=status.name)
        return Text(f"[✓] {state}" + (f" ({status.version})" if status.version else ""))
    return Text(f"[✗] {gettext('{name} — not installed (not found on PATH)', name=status.name)}",
                style="dim")


def _agent_detail(agent: starting.Agent) -> str:
    status = agent.status
    if status.available:
        return gettext("Found at {path}", path=status.path or "")
    if status.install_hint:
        return gettext("Install: {hint}", hint=status.install_hint)
    return ""
