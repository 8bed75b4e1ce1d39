"""A tool's result as the server sends it: at most ``MAX_RESULT_BYTES`` of JSON.

Every tool goes through it, built-in or a plugin's, so none can flood the client
(``worktree_read`` of a huge diff, ``workspace_status`` of a tree with a million
changes). A result over the limit is cut down and says so: a text ends with a note
(``[result truncated: ...]``); an object keeps its keys, with its long texts shortened
and its long lists cut, plus ``"truncated": {"size", "limit", "note"}`` (any other value
is held as ``{"value": ..., "truncated": ...}``).
"""

from __future__ import annotations

import json
from itertools import islice
from typing import Any

from gzia.i18n import gettext
from gzia.orchy.limits import MAX_RESULT_BYTES


def bounded_result(value: Any, limit: int = MAX_RESULT_BYTES) -> tuple[str, dict[str, Any] | None]:
    """The result's text and structured content (an object result only)."""
    text = value if isinstance(value, str) else _dumps(value)
    size = _size(text)
    if size <= limit:
        return text, value if isinstance(value, dict) else None

    note = gettext("[result truncated: {size} bytes, more than the {limit} a tool may return]",
                   size=size, limit=limit)
    room = limit - _size(note) - 1
    if isinstance(value, str):
        return _cut(value, room) + "\n" + note, None
    mark = {"size": size, "limit": limit, "note": note}
    shrunk = _fit(value, room - _size(_dumps({"truncated": mark})))
    structured = {**shrunk, "truncated": mark} if isinstance(shrunk, dict) else {
        "value": shrunk, "truncated": mark}
    return _dumps(structured), structured


def _fit(value: Any, room: int) -> Any:
    """``value`` with its texts and lists capped, halving the caps until it fits."""
    chars = items = max(room, 0)
    while True:
        shrunk = _capped(value, chars, items)
        if (chars == 0 and items == 0) or _size(_dumps(shrunk)) <= room:
            return shrunk
        chars, items = chars // 2, items // 2


def _capped(value: Any, chars: int, items: int) -> Any:
    if isinstance(value, str):
        return value[:chars]
    if isinstance(value, dict):
        return {key: _capped(item, chars, items) for key, item in islice(value.items(), items)}
    if isinstance(value, list | tuple):
        return [_capped(item, chars, items) for item in value[:items]]
    return value


def _cut(text: str, room: int) -> str:
    """The longest start of ``text`` whose UTF-8 fits in ``room`` bytes."""
    room = max(room, 0)
    return text[:room].encode("utf-8", "replace")[:room].decode("utf-8", "ignore")


def _dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)


def _size(text: str) -> int:
    return len(text.encode("utf-8", "replace"))
