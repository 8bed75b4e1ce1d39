"""The form's one-line choices: radio rows (:class:`Choices` of :class:`Pick`) and
checkboxes (:class:`Tick`).

Textual draws a focused radio set or checkbox with a tall border; in a one-line row that
border is all that shows, an empty box over the options. Here a focused row keeps its
line: the focus is the reverse-video label of the option under the cursor, and the arrows
choose (as a radio group does elsewhere), so the option highlighted is the option taken.
Every option draws its state as a mark (``●``/``○``, ``X``/blank) that reads the same
without colour (``NO_COLOR``), focused or not.
"""

from __future__ import annotations

from typing import ClassVar

from textual.binding import Binding, BindingType
from textual.content import Content
from textual.widgets import Checkbox, RadioButton, RadioSet

TOGGLES_CSS = """
Choices, Choices:focus { layout: horizontal; border: none; height: 1; width: 1fr; padding: 0;
                         background-tint: $foreground 0%; }
Choices > Pick { width: auto; margin-right: 2; }
Tick, Tick:focus { border: none; padding: 0; height: 1; }
"""


class Pick(RadioButton):
    """A radio button that reads the same without colour (``NO_COLOR``): ● on, ○ off."""

    def render(self) -> Content:
        self.BUTTON_INNER = "●" if self.value else "○"
        return super().render()


class Tick(Checkbox):
    """A checkbox that reads the same without colour (``NO_COLOR``): X on, blank off."""

    def render(self) -> Content:
        self.BUTTON_INNER = "X" if self.value else " "
        return super().render()


class Choices(RadioSet):
    """A radio row whose arrows choose: the cursor starts on the option taken and moving
    it takes the option it lands on."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("down,right", "choose(1)", show=False),
        Binding("up,left", "choose(-1)", show=False),
    ]

    def on_mount(self) -> None:
        self.call_after_refresh(self._cursor_on_the_choice)

    def _cursor_on_the_choice(self) -> None:
        if self.pressed_index >= 0:
            self._selected = self.pressed_index

    def action_choose(self, step: int) -> None:
        if step > 0:
            self.action_next_button()
        else:
            self.action_previous_button()
        if self._selected is not None and self._selected != self.pressed_index:
            self.action_toggle_button()
