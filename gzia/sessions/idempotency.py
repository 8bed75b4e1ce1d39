"""``--idempotency-key``: one key, one session, however often (or concurrently) it is asked.

The key is stored in the session's record and stays active until that record is deleted.
A start with a key holds the key's lock file (``.harness/idempotency/<digest>.lock``)
from looking the key up until the new record is written, so two concurrent starts with
one key start one session: the second finds the first's record.

The execution payload (provider, command, prompt, project directory, permission) decides
whether a request is the same one: the same payload returns the existing session; another
is ``IDEMPOTENCY_CONFLICT``. Labels are metadata: when only they differ, the existing
session is returned as it is, with a warning.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import re
import time
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass

from gzia.contract import IdempotencyConflictError, InvalidInputError, LockedError
from gzia.filelock import lock_fd
from gzia.i18n import N_
from gzia.sessions.reconcile import reconcile
from gzia.sessions.record import SessionRecord
from gzia.sessions.store import SessionStore, open_regular

KEY = re.compile(r"[A-Za-z0-9._:@/+=-]{1,200}")
LOCK_TIMEOUT_S = 30.0
"""How long a start waits for another holding the same key (setting up a worktree)."""


def validate_key(key: str) -> str:
    if KEY.fullmatch(key) is None:
        raise InvalidInputError(N_("invalid idempotency key '{key}': expected 1-200 letters, "
                                   "digits or . _ : @ / + = -"),
                                key=key,
                                details={"option": "--idempotency-key", "value": key})
    return key


@dataclass(frozen=True)
class Payload:
    """What makes two starts the same request."""

    provider: str
    command: tuple[str, ...] | None
    prompt: str | None
    directory: str
    permission: str

    @classmethod
    def of_record(cls, record: SessionRecord) -> Payload:
        command = record.command
        return cls(record.provider, tuple(command) if command is not None else None,
                   record.initial_prompt or None, record.working_dir, record.permission_level)

    def differs_from(self, other: Payload) -> list[str]:
        return [name for name in ("provider", "command", "prompt", "directory", "permission")
                if getattr(self, name) != getattr(other, name)]


@dataclass(frozen=True)
class Reused:
    """A start answered by the session that already holds the key."""

    record: SessionRecord
    metadata_differs: list[str]


def payload_of(provider: str, command: Sequence[str] | None, prompt: str | None,
               directory: str, permission: str) -> Payload:
    return Payload(provider, tuple(command) if command is not None else None, prompt or None,
                   directory, permission)


def existing_session(store: SessionStore, key: str, payload: Payload,
                     labels: Mapping[str, str] | None) -> Reused | None:
    """The session holding ``key``, if its payload is ``payload``; ``None`` when no session
    holds it; ``IDEMPOTENCY_CONFLICT`` when one holds it for another payload."""
    holder = next((r for r in store.list().records if r.idempotency_key == key), None)
    if holder is None:
        return None
    holder = reconcile(store, holder)
    differs = Payload.of_record(holder).differs_from(payload)
    if differs:
        raise IdempotencyConflictError(
            N_("idempotency key '{key}' belongs to session {id}, started with another {fields}; "
               "nothing was started"),
            key=key, id=holder.id, fields=", ".join(differs),
            details={"key": key, "session_id": holder.id, "differs": differs})
    metadata = ["labels"] if (holder.labels or None) != (dict(labels or {}) or None) else []
    return Reused(holder, metadata)


@contextlib.contextmanager
def key_lock(store: SessionStore, key: str) -> Iterator[None]:
    """Hold the key's lock (``LOCKED``, retryable, after :data:`LOCK_TIMEOUT_S`)."""
    directory = store.project.harness_dir / "idempotency"
    directory.mkdir(parents=True, exist_ok=True)
    digest = hashlib.sha256(key.encode()).hexdigest()[:32]
    fd, _ = open_regular(directory / f"{digest}.lock", os.O_RDWR | os.O_CREAT)
    try:
        if not lock_fd(fd, time.monotonic() + LOCK_TIMEOUT_S, poll=0.01):
            raise LockedError(N_("another gz-ia is starting a "
                                 "session with idempotency key '{key}'"),
                              key=key, details={"key": key})
        yield
    finally:
        os.close(fd)
