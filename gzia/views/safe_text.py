"""Text from elsewhere, made safe to show on a terminal."""

from __future__ import annotations

import re
from typing import TextIO

_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def for_stream(stream: TextIO, text: str) -> str:
    """``text`` as it may be written to ``stream``: on a terminal, control characters
    other than newline and tab are shown as ``\\xNN``. Prompts, event texts and record
    fields may come from an agent or a hand-edited file, and an escape sequence in them
    must not drive the operator's terminal (retitle it, move the cursor, hide lines).
    Pipes get the text as it is."""
    if _CONTROL.search(text) is not None and stream.isatty():
        return _CONTROL.sub(lambda found: f"\\x{ord(found.group()):02x}", text)
    return text
