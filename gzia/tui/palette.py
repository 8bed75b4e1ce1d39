"""The command palette lists the actions of the screen it was opened from.

Every action is a key binding; the palette offers the same bindings by name (in the
user's language) with their keys, those the footer has no room for included, so each
action is reachable both ways from one declaration.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import partial

from textual.command import DiscoveryHit, Hit, Hits, Provider
from textual.dom import DOMNode


class ScreenActions(Provider):
    """The described bindings of the screen below the palette (and of the app), those the
    footer has no room for included: each is listed with its key."""

    async def discover(self) -> Hits:
        for title, key_name, node, action in self._actions():
            yield DiscoveryHit(title, partial(self.app.run_action, action, node), help=key_name)

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        for title, key_name, node, action in self._actions():
            score = matcher.match(title)
            if score > 0:
                run = partial(self.app.run_action, action, node)
                yield Hit(score, matcher.highlight(title), run, text=title, help=key_name)

    def _actions(self) -> Iterator[tuple[str, str, DOMNode, str]]:
        seen: set[str] = set()
        for key_name, active in self.screen.active_bindings.items():
            binding = active.binding
            if not binding.description or not active.enabled or binding.action in seen:
                continue
            if binding.action.endswith("command_palette"):
                continue
            seen.add(binding.action)
            shown = binding.key_display or self.app.get_key_display(binding)
            yield binding.description, shown or key_name, active.node, binding.action
