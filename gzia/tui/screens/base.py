"""What every screen of the TUI shares: translated key labels, the app's context, and
service calls run in a worker thread with their errors shown as the CLI words them."""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from typing import Any, ClassVar, TypeVar

from textual.app import App
from textual.binding import BindingType
from textual.screen import Screen

from gzia.i18n import N_
from gzia.tui import services
from gzia.tui.context import TuiContext
from gzia.tui.keys import key, translate_bindings

T = TypeVar("T")


class GzScreen(Screen[None]):
    """A screen whose bindings' labels are message keys (see :mod:`gzia.tui.keys`)."""

    BINDINGS: ClassVar[list[BindingType]] = [key("escape", "back", N_("Back"))]

    def __init__(self) -> None:
        super().__init__()
        translate_bindings(self)
        self._busy: set[str] = set()

    @property
    def context(self) -> TuiContext:
        found = getattr(self.app, "tui_context", None)
        if not isinstance(found, TuiContext):
            raise TypeError("a gz-ia screen runs inside GzApp")
        return found

    def action_back(self) -> None:
        if len(self.app.screen_stack) > 2:  # the default screen, then the home screen
            self.app.pop_screen()

    def call(self, job: Callable[[], T], done: Callable[[T], object], *,
             group: str = "actions",
             failed: Callable[[BaseException], object] | None = None) -> None:
        """Run ``job`` in a worker thread, then ``done(result)`` on the UI's thread; an
        error goes to ``failed`` (default: :meth:`show_problem`). A group other than
        ``actions`` runs one job at a time: a call while one runs is dropped (a refresh
        that would repeat the one under way)."""
        if group in self._busy:
            return
        if group != "actions":
            self._busy.add(group)
        on_error = failed or self.show_problem

        def run() -> None:
            try:
                value = job()
            except Exception as exc:  # every failure is shown, none is lost
                self._busy.discard(group)
                self.app.call_from_thread(on_error, exc)
                return
            self._busy.discard(group)
            self.app.call_from_thread(done, value)

        self.run_worker(run, thread=True, group=group, exit_on_error=False)

    def show_problem(self, exc: BaseException) -> None:
        from gzia.tui.screens.confirm import NoticeScreen

        self.app.push_screen(NoticeScreen.of_problem(services.problem_of(exc)))


@contextlib.contextmanager
def terminal_lent(app: App[Any]) -> Iterator[None]:
    """The TUI suspended while the block has the terminal (an agent, an attach), and back
    on every way out. Textual's ``suspend`` resumes only when its block ends without an
    error: a failed start or attach would leave the TUI stopped, its screen frozen."""
    from gzia.tui.terminal import CLEAR, END_LINE, write_terminal

    failure: BaseException | None = None
    with app.suspend():
        write_terminal(CLEAR)  # the session starts on a clean screen (gzia/tui/terminal.py)
        try:
            yield
        except BaseException as exc:  # raised again once the TUI is back
            failure = exc
        write_terminal(END_LINE)  # its last line ended: the prompt after quit starts a line
    app.refresh(repaint=True, layout=True)
    if failure is not None:
        raise failure
