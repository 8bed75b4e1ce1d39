"""Options ``chat`` and ``exec`` share for scripts: ``--label`` and ``--idempotency-key``."""

from __future__ import annotations

from typing import Annotated

import typer

Labels = Annotated[list[str] | None, typer.Option(
    "--label", help="Label the session: k=v (repeatable; kept on resume).", show_default=False)]


IdempotencyKey = Annotated[str | None, typer.Option(
    "--idempotency-key", help="Start at most one session for KEY: a repeat returns it.",
    metavar="KEY")]


def valid_key(key: str | None) -> str | None:
    from gzia.sessions.idempotency import validate_key

    return None if key is None else validate_key(key)


def parsed_labels(texts: list[str] | None) -> dict[str, str] | None:
    """The labels given, validated before anything starts; ``None`` when there are none."""
    from gzia.sessions.labels import parse_labels

    return parse_labels(texts or ()) or None
