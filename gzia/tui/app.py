"""``GzApp``: the terminal UI's screen stack, keys, command palette and language.

The sessions screen is the home screen; the new-session form and the update screen are
pushed by :meth:`GzApp.action_new_session` and :meth:`GzApp.action_update`. Textual
itself honours ``NO_COLOR`` (a monochrome filter over every frame); the language is
gz-ia's (:func:`gzia.i18n.language`), as for every other command.
"""

from __future__ import annotations

import os
import select
import signal
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType
from typing import TYPE_CHECKING, ClassVar

from textual.app import App
from textual.binding import BindingType
from textual.command import CommandPalette
from textual.driver import Driver

from gzia.contract import TerminatedError
from gzia.i18n import N_, gettext
from gzia.tui.context import TuiContext
from gzia.tui.keys import key, translate_bindings
from gzia.tui.palette import ScreenActions

if TYPE_CHECKING:
    from gzia.tui.screens.sessions import SessionsScreen

HANGUP_CHECK_S = 1.0
"""How often the UI checks that its terminal is still there."""
HOME_ONLY_ACTIONS = frozenset({"new_session", "update"})
TUI_SIGNALS = (signal.SIGHUP, signal.SIGTSTP, signal.SIGCONT)


class GzApp(App[None]):
    """The TUI of one project (``context.store`` is its session store)."""

    TITLE = "gz-ia"
    ENABLE_COMMAND_PALETTE = True
    COMMANDS: ClassVar = {ScreenActions}
    BINDINGS: ClassVar[list[BindingType]] = [
        key("ctrl+q", "quit", N_("Quit"), show=False, priority=True),
        key("ctrl+p", "command_palette", N_("Commands"), show=False, priority=True),
        key("question_mark", "help", N_("Keys"), show=False),
        key("n", "new_session", N_("New")),
        key("u", "update", N_("Update"), show=False),  # 80 columns: in the palette
    ]

    def __init__(self, context: TuiContext, terminal_fd: int | None = None) -> None:
        super().__init__()
        translate_bindings(self)
        self.tui_context = context
        self.terminal_fd = terminal_fd
        """The terminal to watch for a hang-up (None: headless, nothing to watch)."""
        self.terminal_lost = False
        self.home: SessionsScreen | None = None

    def get_driver_class(self) -> type[Driver]:
        """Textual's own, tidier on a Unix terminal (:mod:`gzia.tui.terminal`)."""
        from textual.drivers.linux_driver import LinuxDriver

        found = super().get_driver_class()
        if found is LinuxDriver:
            from gzia.tui.terminal import TidyDriver

            return TidyDriver
        return found

    def on_mount(self) -> None:
        from gzia.tui.screens.sessions import SessionsScreen

        self.home = SessionsScreen()
        self.push_screen(self.home)
        if self.terminal_fd is not None:
            self.set_interval(HANGUP_CHECK_S, self._quit_if_the_terminal_hung_up)

    def on_ready(self) -> None:
        """Textual is ready: the home screen reads the store (see its ``first_read``)."""
        if self.home is not None:
            self.home.first_read()

    def _quit_if_the_terminal_hung_up(self) -> None:
        """The terminal closed under gz-ia (an SSH link dropped, a window closed): quit.

        A SIGHUP only notes it (see :func:`run_app`); without a SIGHUP, when the terminal
        is not gz-ia's controlling terminal, every read fails at once and poll says so.
        """
        if self.terminal_fd is not None and (self.terminal_lost or hung_up(self.terminal_fd)):
            self.terminal_lost = True
            self.exit()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """``n`` and ``u`` open their screens from the home screen only: never a second
        form over the first, nor a form over a session's detail (the command palette
        offers them over the home screen)."""
        if action in HOME_ONLY_ACTIONS:
            from gzia.tui.screens.sessions import SessionsScreen

            screen = self.screen  # the palette offers the actions of the screen below
            if isinstance(screen, CommandPalette) and len(self.screen_stack) > 1:
                screen = self.screen_stack[-2]
            return isinstance(screen, SessionsScreen)
        return True

    def action_new_session(self) -> None:
        from gzia.tui.screens.new_session import NewSessionScreen

        self.push_screen(NewSessionScreen())

    def action_update(self) -> None:
        from gzia.tui.screens.update import UpdateScreen

        self.push_screen(UpdateScreen())

    def action_help(self) -> None:
        from gzia.tui.screens.help import HelpScreen

        if not isinstance(self.screen, HelpScreen | CommandPalette):
            self.push_screen(HelpScreen(self.screen))

    def action_command_palette(self) -> None:
        if not isinstance(self.screen, CommandPalette):
            self.push_screen(CommandPalette(placeholder=gettext("Search for a command…"),
                                            id="--command-palette"))


def hung_up(fd: int) -> bool:
    """Whether the terminal on ``fd`` has lost its other side (poll says POLLHUP)."""
    poller = select.poll()
    poller.register(fd, select.POLLIN)
    return any(events & (select.POLLHUP | select.POLLERR | select.POLLNVAL)
               for _, events in poller.poll(0))


def run_app(context: TuiContext) -> None:
    """Run the TUI on this terminal until the user quits, or until the terminal is gone
    (then :class:`TerminatedError`: exit 143, as for SIGHUP in every other command)."""
    app = GzApp(context, terminal_fd=sys.stdin.fileno())
    with signals_for(app):
        app.run()
    if app.terminal_lost:
        silence_standard_output()  # nobody is left to read it, and writing it would fail
        raise TerminatedError(N_("terminated"))


@contextmanager
def signals_for(app: GzApp) -> Iterator[None]:
    """SIGHUP ends the UI through its own exit, and Textual's Ctrl+Z handlers (SIGTSTP,
    SIGCONT) do not outlive it: a SIGCONT after the app ended (the kernel sends one with
    the SIGHUP of a closed terminal) would otherwise restart a UI that is gone."""

    def note_hang_up(_signum: int, _frame: FrameType | None) -> None:
        app.terminal_lost = True
        signal.signal(signal.SIGCONT, signal.SIG_DFL)  # the SIGCONT that follows: no resume

    before = {signum: signal.getsignal(signum) for signum in TUI_SIGNALS}
    signal.signal(signal.SIGHUP, note_hang_up)
    try:
        yield
    finally:
        for signum, handler in before.items():
            signal.signal(signum, handler)


def silence_standard_output() -> None:
    null = os.open(os.devnull, os.O_WRONLY)
    for stream in (sys.stdout, sys.stderr):
        os.dup2(null, stream.fileno())
    os.close(null)
