"""Options ``chat`` and ``exec`` share for scripts: ``--label`` and ``--idempotency-key``."""

from __future__ import annotations

from typing import Annotated

import typer

Labels = Annotated[list[str] | None, typer.Option(
    "--label", help="Label the session: k=v (repeatable; kept on resume).", show_default=False)]


def parsed_labels(texts: list[str] | None) -> dict[str, str] | None:
    """The labels given, validated before anything starts; ``None`` when there are none."""
    from gzia.sessions.labels import parse_labels

    return parse_labels(texts or ()) or None
