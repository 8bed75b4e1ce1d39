"""The terminal left tidy each time the TUI gives it up or takes it back.

Textual leaves its alternate screen on quit and on a hand-over (attach, resume, a
foreground agent), and enters it again on the way back. Around that:

- leaving, the TUI's frame is erased first: a terminal without an alternate screen (the
  Linux console) is left blank, not with the last frame under the shell's prompt;
- handing the terminal over, its screen is cleared, so the session starts on a clean
  screen rather than under the lines that were there before gz-ia;
- when the session is done, its last line is ended: the cursor the terminal saves as the
  TUI comes back (and restores when it quits) is at the start of a line, so the prompt
  after quitting starts on a line of its own;
- coming back, the screen is cleared before the first frame, which draws every line.
"""

from __future__ import annotations

import sys

from textual.drivers.linux_driver import LinuxDriver

CLEAR = "\x1b[H\x1b[2J"
"""Cursor home, then erase the whole screen."""
END_LINE = "\r\n"


class TidyDriver(LinuxDriver):
    """Textual's Unix driver with the steps above."""

    def stop_application_mode(self) -> None:
        self.write(CLEAR)
        super().stop_application_mode()

    def start_application_mode(self) -> None:
        super().start_application_mode()  # type: ignore[no-untyped-call]  # Textual: untyped
        self.write(CLEAR)
        self.flush()


def write_terminal(text: str) -> None:
    """Write on the terminal while the TUI has given it up (Textual writes on stderr)."""
    stream = sys.__stderr__
    if stream is not None:
        stream.write(text)
        stream.flush()
