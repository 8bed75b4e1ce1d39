"""The command palette lists the actions of the screen it was opened from.

Every action is a key binding; the palette offers the same bindings by name (in the
user's language) with their keys, those the footer has no room for included, so each
action is reachable both ways from one declaration.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import partial
from typing import Any

from textual.binding import Binding
from textual.command import DiscoveryHit, Hit, Hits, Provider
from textual.dom import DOMNode
from textual.screen import Screen

from gzia.tui.keys import is_gz_ia_key


class ScreenActions(Provider):
    """The described bindings of the screen below the palette (and of the app), those the
    footer has no room for included: each is listed with its key."""

    async def discover(self) -> Hits:
        for title, key_name, node, action in screen_actions(self.screen):
            yield DiscoveryHit(title, partial(self.app.run_action, action, node), help=key_name)

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        for title, key_name, node, action in screen_actions(self.screen):
            score = matcher.match(title)
            if score > 0:
                run = partial(self.app.run_action, action, node)
                yield Hit(score, matcher.highlight(title), run, text=title, help=key_name)


def screen_actions(screen: Screen[Any]) -> Iterator[tuple[str, str, DOMNode, str]]:
    """gz-ia's actions on ``screen`` (and the app's), enabled now: their titles, keys,
    nodes and actions. Widgets' own keys (a table's cursor moves) are left out: they are
    Textual's, in English, and the palette would open on them."""
    seen: set[str] = set()
    for key_name, active in screen.active_bindings.items():
        binding, node = active.binding, active.node
        if not is_gz_ia_key(binding):  # a widget's key (Enter on the table) over the screen's
            binding, node = _screens_own(screen, key_name) or (binding, node)
        if not is_gz_ia_key(binding) or not active.enabled or binding.action in seen:
            continue
        if binding.action.endswith(("command_palette", "help")):
            continue
        seen.add(binding.action)
        shown = binding.key_display or screen.app.get_key_display(binding)
        yield binding.description, shown or key_name, node, binding.action


def _screens_own(screen: Screen[Any], key_name: str) -> tuple[Binding, DOMNode] | None:
    """The screen's own gz-ia binding of ``key_name``, which a focused widget's shadows."""
    own = [b for b in screen._bindings.key_to_bindings.get(key_name, []) if is_gz_ia_key(b)]
    return (own[0], screen) if own else None
