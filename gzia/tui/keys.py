"""Key bindings whose descriptions are message keys, drawn in the user's language.

Textual reads ``BINDINGS`` once per class; the footer and the command palette show each
binding's description. Declaring the description as a message key (``tui.key_quit``) and
translating it per instance keeps every label in the catalogue, in either language.
"""

from __future__ import annotations

from dataclasses import replace

from textual.binding import Binding
from textual.dom import DOMNode

from gzia.i18n import gettext

GZ_IA_KEY = "gz-ia"
"""The id of every binding declared by :func:`key`: the command palette and the help
screen list those, not the keys Textual's widgets bring (a table's ``Cursor up``...)."""


def key(keys: str, action: str, message_key: str, *, show: bool = True,
        priority: bool = False) -> Binding:
    """A binding described by ``message_key`` (``tui.<name>``, ``tui_forms.<name>``)."""
    return Binding(keys, action, message_key, show=show, priority=priority, id=GZ_IA_KEY)


def is_gz_ia_key(binding: Binding) -> bool:
    return binding.id == GZ_IA_KEY


def translate_bindings(node: DOMNode) -> None:
    """Replace each message-key description of ``node``'s bindings with its text."""
    table = node._bindings.key_to_bindings  # Textual's per-instance copy
    for name, bindings in table.items():
        table[name] = [_translated(binding) for binding in bindings]


def _translated(binding: Binding) -> Binding:
    return replace(binding, description=gettext(binding.description))
