"""A ``SKILL.md``'s YAML front matter, read within fixed bounds.

A skill can come from any cloned repository, so its front matter is hostile until
proven small: at most :data:`MAX_BYTES` bytes are read, and the YAML's events are
checked before anything is built from them: at most :data:`MAX_DEPTH` nested
collections and :data:`MAX_NODES` values once every alias is expanded (an "alias bomb"
of a few hundred bytes names billions). Each check stops at the first event past its
bound, so a hostile file costs what a small one does.
"""

from __future__ import annotations

import codecs
import os
import stat
from pathlib import Path
from typing import Any

from gzia.i18n import N_

MAX_BYTES = 16 * 1024
"""Bytes of a ``SKILL.md`` read to find its front matter (both ``---`` lines included)."""
MAX_DEPTH = 32
"""Collections (mappings, lists) nested in one another."""
MAX_NODES = 10_000
"""Values (scalars and collections) the front matter holds with every alias expanded."""
FENCE = "---"


class SkillFileError(ValueError):
    """What is wrong with a ``SKILL.md``: ``key`` names a message with the detail's
    numbers in ``params`` when the front matter passes one of this module's limits."""

    def __init__(self, detail: str, key: str | None = None, **params: Any) -> None:
        super().__init__(detail)
        self.key = key
        self.params = params


def front_matter(path: Path) -> dict[str, Any]:
    """The YAML mapping between the opening ``---`` line and the next ``---`` line."""
    import yaml  # type: ignore[import-untyped]  # PyYAML ships no type hints

    text = _front_matter_text(path)
    try:
        _check_events(yaml.parse(text, Loader=yaml.SafeLoader))
        meta = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        raise SkillFileError(" ".join(str(exc).split())) from None
    if not isinstance(meta, dict):
        raise SkillFileError("the front matter is not a mapping")
    return meta


def _front_matter_text(path: Path) -> str:
    head, truncated = _read_head(path)
    lines = head.splitlines()
    if truncated and lines and not head.endswith(("\n", "\r")):
        lines.pop()  # cut short: only whole lines count
    if not lines or lines[0].strip() != FENCE:
        raise SkillFileError("no YAML front matter (the file must start with '---')")
    end = next((i for i, line in enumerate(lines[1:], 1) if line.strip() == FENCE), None)
    if end is None and truncated:
        raise SkillFileError(f"the front matter is larger than {MAX_BYTES} bytes",
                             N_("skill '{path}' cannot be read: its front matter is larger than "
                                "{limit} bytes"),
                             limit=MAX_BYTES)
    if end is None:
        raise SkillFileError("the front matter has no closing '---'")
    return "\n".join(lines[1:end])


def _read_head(path: Path) -> tuple[str, bool]:
    """The first :data:`MAX_BYTES` bytes of ``path`` as text, and whether more follow.
    Only a regular file is read (never a FIFO or a device a link points to)."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY | os.O_CLOEXEC)
        with os.fdopen(fd, "rb") as file:
            if not stat.S_ISREG(os.fstat(file.fileno()).st_mode):
                raise SkillFileError("not a regular file")
            raw = file.read(MAX_BYTES + 1)
        truncated = len(raw) > MAX_BYTES
        decoder = codecs.getincrementaldecoder("utf-8")()
        return decoder.decode(raw[:MAX_BYTES], final=not truncated), truncated
    except (OSError, UnicodeDecodeError) as exc:
        raise SkillFileError(str(exc)) from None


def _check_events(events: Any) -> None:
    """Raise on the first event past :data:`MAX_DEPTH` or :data:`MAX_NODES`.

    ``open_sizes`` holds, per open collection, its anchor and expanded size so far; a
    closed anchored collection's size is what each alias to it adds."""
    import yaml  # lazy: start-up speed (only a SKILL.md needs it)

    sizes: dict[str, int] = {}
    open_sizes: list[list[Any]] = []
    total = 0
    for event in events:
        if isinstance(event, yaml.CollectionEndEvent):
            anchor, size = open_sizes.pop()
            _add(open_sizes, size)
            if anchor is not None:
                sizes[anchor] = size
            continue
        if isinstance(event, yaml.AliasEvent):
            added = sizes.get(event.anchor, 1)
        elif isinstance(event, yaml.ScalarEvent | yaml.CollectionStartEvent):
            added = 1
        else:
            continue
        total += added
        _check_nodes(total)
        if isinstance(event, yaml.CollectionStartEvent):
            open_sizes.append([event.anchor, 1])
            _check_depth(len(open_sizes))
            continue
        _add(open_sizes, added)
        if isinstance(event, yaml.ScalarEvent) and event.anchor is not None:
            sizes[event.anchor] = 1


def _add(open_sizes: list[list[Any]], size: int) -> None:
    if open_sizes:
        open_sizes[-1][1] += size


def _check_nodes(total: int) -> None:
    if total > MAX_NODES:
        raise SkillFileError(
            f"the front matter holds more than {MAX_NODES} values with its aliases expanded",
            N_("skill '{path}' cannot be read: its front matter holds more than {limit} values "
               "with its aliases expanded"),
            limit=MAX_NODES)


def _check_depth(depth: int) -> None:
    if depth > MAX_DEPTH:
        raise SkillFileError(f"the front matter nests deeper than {MAX_DEPTH} levels",
                             N_("skill '{path}' cannot be read: its front matter nests deeper than "
                                "{limit} levels"),
                             limit=MAX_DEPTH)
