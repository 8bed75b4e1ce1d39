"""What gz-ia learned from channel manifests and keeps in its state dir (``update/``).

* ``trust.json``: keys added by a manifest (signed by a key already trusted), key ids
  revoked by one, and the highest manifest serial seen per channel. Revocations only ever
  grow: a revoked key is never trusted again, built-in or not. A file that cannot be read
  is ignored (the built-in keys still work), never trusted more than that.
* ``machine-id``: 32 random hex digits, created once (atomically, mode 0600); the
  rollout bucket is computed from it.
* ``manifest.json``: the last verified manifest of the channel (gzia.update.manifest_cache:
  read by every command without this module).

Everything is written atomically (temp file, fsync, rename) with mode 0600.
"""

from __future__ import annotations

import json
import os
import secrets
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from gzia.atomic import write_atomic
from gzia.update.manifest_cache import PRIVATE, update_state_dir
from gzia.update.minisign import SignatureProblem, parse_public_key


@dataclass
class Trust:
    added: dict[str, str] = field(default_factory=dict)  # key id → public key line
    revoked: set[str] = field(default_factory=set)  # key ids
    serials: dict[str, int] = field(default_factory=dict)  # channel → highest serial seen

    @classmethod
    def load(cls, folder: Path | None = None) -> Trust:
        try:
            document = json.loads(((folder or update_state_dir()) / "trust.json").read_text())
        except (OSError, ValueError):
            return cls()
        if not isinstance(document, dict):
            return cls()
        added, serials, revoked = (document.get(k) for k in ("added", "serials", "revoked"))
        return cls({str(k): str(v) for k, v in added.items()} if isinstance(added, dict) else {},
                   {str(k).upper() for k in revoked} if isinstance(revoked, list) else set(),
                   {str(k): v for k, v in serials.items() if isinstance(v, int)}
                   if isinstance(serials, dict) else {})

    def save(self, folder: Path | None = None) -> None:
        document = {"added": self.added, "revoked": sorted(self.revoked),
                    "serials": self.serials}
        write_atomic((folder or update_state_dir()) / "trust.json",
                     (json.dumps(document, indent=2) + "\n").encode(), PRIVATE)

    def learn(self, channel: str, serial: int, add: tuple[str, ...],
              revoke: tuple[str, ...]) -> bool:
        """Take in what a verified manifest says; whether anything changed."""
        before = (dict(self.added), set(self.revoked), dict(self.serials))
        self.revoked |= {k.upper() for k in revoke}
        for line in add:
            try:
                key = parse_public_key(line)
            except SignatureProblem:
                continue  # a key line gz-ia cannot read adds nothing
            if key.id_hex not in self.revoked:
                self.added[key.id_hex] = line.strip()
        for key_id in self.revoked:
            self.added.pop(key_id, None)
        self.serials[channel] = max(serial, self.serials.get(channel, serial))
        return before != (self.added, self.revoked, self.serials)

    def apply(self, keys: list[Any]) -> list[Any]:
        """``keys`` (built in and configured) plus the added ones, minus every revoked one."""
        known = {k.id_hex for k in keys}
        learned = []
        for _, line in sorted(self.added.items()):
            try:
                learned.append(parse_public_key(line))
            except SignatureProblem:
                continue  # a damaged entry trusts nothing
        return [k for k in [*keys, *learned]
                if k.id_hex not in self.revoked and (k in keys or k.id_hex not in known)]


def machine_id(folder: Path | None = None) -> str:
    """This machine's id for rollouts: created once, never rewritten; a racing second
    creator reads the first one's."""
    path = (folder or update_state_dir()) / "machine-id"
    try:
        existing = path.read_text().strip()
    except FileNotFoundError:
        existing = ""
    if len(existing) == 32 and all(c in "0123456789abcdef" for c in existing):
        return existing
    path.parent.mkdir(parents=True, exist_ok=True)
    temp = path.with_name(f".machine-id.{secrets.token_hex(4)}.tmp")
    fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, PRIVATE)
    with os.fdopen(fd, "w") as handle:
        handle.write(secrets.token_hex(16) + "\n")
        handle.flush()
        os.fsync(handle.fileno())
    try:
        if existing:  # damaged: replaced (atomically) once
            temp.replace(path)
        else:
            os.link(temp, path)  # fails if another process created it first
    except FileExistsError:
        pass
    finally:
        temp.unlink(missing_ok=True)
    return path.read_text().strip()
