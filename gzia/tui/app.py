"""``GzApp``: the terminal UI's screen stack, keys, command palette and language.

The sessions screen is the home screen; the new-session form and the update screen are
pushed by :meth:`GzApp.action_new_session` and :meth:`GzApp.action_update`. Textual
itself honours ``NO_COLOR`` (a monochrome filter over every frame); the language is
gz-ia's (:func:`gzia.i18n.language`), as for every other command.
"""

from __future__ import annotations

from typing import ClassVar

from textual.app import App
from textual.binding import BindingType
from textual.command import CommandPalette

from gzia.i18n import t
from gzia.sessions.store import SessionStore
from gzia.tui.context import TuiContext
from gzia.tui.keys import key, translate_bindings
from gzia.tui.palette import ScreenActions


class GzApp(App[None]):
    """The TUI of one project (``context.store`` is its session store)."""

    TITLE = "gz-ia"
    ENABLE_COMMAND_PALETTE = True
    COMMANDS: ClassVar = {ScreenActions}
    BINDINGS: ClassVar[list[BindingType]] = [
        key("ctrl+q", "quit", "tui.key_quit", show=False, priority=True),
        key("ctrl+p", "command_palette", "tui.key_palette", show=False, priority=True),
        key("n", "new_session", "tui.key_new"),
        key("u", "update", "tui.key_update", show=False),  # 80 columns: in the palette
    ]

    def __init__(self, context: TuiContext) -> None:
        super().__init__()
        translate_bindings(self)
        self.tui_context = context

    def on_mount(self) -> None:
        from gzia.tui.screens.sessions import SessionsScreen

        self.push_screen(SessionsScreen())

    def action_new_session(self) -> None:
        from gzia.tui.screens.new_session import NewSessionScreen

        self.push_screen(NewSessionScreen())

    def action_update(self) -> None:
        from gzia.tui.screens.update import UpdateScreen

        self.push_screen(UpdateScreen())

    def action_command_palette(self) -> None:
        if not isinstance(self.screen, CommandPalette):
            self.push_screen(CommandPalette(placeholder=t("tui.palette_placeholder"),
                                            id="--command-palette"))


def run_app(store: SessionStore) -> None:
    """Run the TUI on this terminal until the user quits."""
    GzApp(TuiContext(store)).run()
