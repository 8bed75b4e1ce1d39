"""Channel manifests as the release tooling publishes them (docs/update.md, "Channels").

``manifest_document(channel, version, **fields)`` is the JSON object; ``sign_manifest(workdir,
document, key)`` returns ``(bytes, signature text)`` signed by the real minisign tool (any
bytes may be given instead of a document, for hostile ones); ``publish_nexus`` puts both at
``gz-ia/channels/<channel>.json`` of repository ``gz-ia``; ``publish_forgejo`` attaches them
as ``manifest-<serial>.json`` to the release of tag ``channel-<channel>``.
"""

from __future__ import annotations

import itertools
import json
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from tests.fakes.forgejo import Attachment, ForgejoFake
from tests.fakes.nexus import NexusFake
from tests.fakes.signing import MinisignKey

_files = itertools.count()


def in_days(days: float) -> str:
    return (datetime.now(UTC) + timedelta(days=days)).strftime("%Y-%m-%dT%H:%M:%SZ")


def manifest_document(channel: str = "stable", version: str = "1.5.0", *, serial: int = 1,
                      **fields: Any) -> dict[str, Any]:
    return {"schema": 1, "channel": channel, "serial": serial, "version": version,
            "expires": in_days(30), **fields}


def sign_manifest(workdir: Path, document: dict[str, Any] | bytes,
                  key: MinisignKey) -> tuple[bytes, bytes]:
    data = document if isinstance(document, bytes) else json.dumps(document).encode()
    workdir.mkdir(parents=True, exist_ok=True)
    path = workdir / f"manifest-{next(_files)}.json"
    path.write_bytes(data)
    return data, key.sign(path, trusted_comment="gz-ia channel manifest").encode()


def publish_nexus(nexus: NexusFake, channel: str, data: bytes, signature: bytes) -> None:
    nexus.put("gz-ia", f"gz-ia/channels/{channel}.json", data)
    nexus.put("gz-ia", f"gz-ia/channels/{channel}.json.minisig", signature)


def publish_forgejo(forgejo: ForgejoFake, channel: str, serial: int, data: bytes,
                    signature: bytes) -> None:
    tag = f"channel-{channel}"
    release = next((r for r in forgejo.repo().releases if r.tag_name == tag), None)
    if release is None:
        release = forgejo.publish(tag, {})
    release.assets += [Attachment(f"manifest-{serial}.json", data),
                       Attachment(f"manifest-{serial}.json.minisig", signature)]
