"""Wait until descriptors are ready: ``poll`` (kqueue on macOS, where ``poll`` does not
work on terminals), never ``select()``, which cannot watch a descriptor numbered 1024 or
more: a holder with many connections gets such numbers."""

from __future__ import annotations

import selectors
import sys

_Selector: type[selectors.BaseSelector] = (
    selectors.DefaultSelector if sys.platform == "darwin" or not hasattr(selectors, "PollSelector")
    else selectors.PollSelector
)


def wait_ready(readable: list[int], writable: list[int],
               timeout: float | None) -> tuple[list[int], list[int]]:
    """The descriptors of ``readable`` and ``writable`` that are ready within ``timeout``."""
    with _Selector() as selector:
        events: dict[int, int] = {}
        for fd in readable:
            events[fd] = events.get(fd, 0) | selectors.EVENT_READ
        for fd in writable:
            events[fd] = events.get(fd, 0) | selectors.EVENT_WRITE
        for fd, mask in events.items():
            selector.register(fd, mask)
        ready = selector.select(timeout)
    ready_r = [key.fd for key, mask in ready if mask & selectors.EVENT_READ]
    ready_w = [key.fd for key, mask in ready if mask & selectors.EVENT_WRITE]
    return ready_r, ready_w
