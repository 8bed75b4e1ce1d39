"""Publishing to a Nexus raw repository: ``PUT /repository/<repo>/gz-ia/X.Y.Z/<file>``.

A release is never overwritten. Every path is read first: a file already there with the
same bytes is left alone (so re-running after a partial failure completes the release), a
file there with other bytes stops the whole publication before anything is uploaded. Nexus
itself refuses a redeploy with 400 (up to 3.77) or 409 (3.96); both mean "already published".
The zipapps go first and the signature last, so a client never sees a signed list whose
files are not there yet; each upload is read back and must hash as the local file.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import quote

from release import artifacts, sums
from release.errors import ReleaseError
from release.http import make_client, network_error, status_error

if TYPE_CHECKING:
    import httpx


@dataclass(frozen=True)
class NexusTarget:
    url: str
    repository: str
    user: str = field(repr=False)
    password: str = field(repr=False)

    def file_url(self, version: str, name: str) -> str:
        path = "/".join(quote(part, safe="") for part in (artifacts.PRODUCT, version, name))
        return f"{self.url}/repository/{quote(self.repository, safe='')}/{path}"


def remote_sha256(client: httpx.Client, url: str) -> str | None:
    """The sha256 of what Nexus serves at ``url``, or ``None`` when nothing is there."""
    import httpx

    try:
        with client.stream("GET", url) as response:
            if response.status_code == 404:
                return None
            if response.status_code != 200:
                raise status_error(f"Nexus GET {url}", response)
            digest = hashlib.sha256()
            for chunk in response.iter_bytes():
                digest.update(chunk)
            return digest.hexdigest()
    except httpx.HTTPError as exc:
        raise network_error(f"Nexus GET {url}", exc) from None


def plan(
    client: httpx.Client, target: NexusTarget, version: str, files: list[Path]
) -> list[dict[str, str]]:
    """One step per file: ``upload`` or ``present``; other bytes already there is a CONFLICT."""
    steps = []
    for path in files:
        url = target.file_url(version, path.name)
        remote = remote_sha256(client, url)
        if remote is not None and remote != sums.file_sha256(path):
            raise ReleaseError(
                "CONFLICT",
                f"Nexus already holds a different {path.name} for {version}; not overwriting",
                hint="publish a new version instead of replacing a released one",
            )
        steps.append({"file": path.name, "url": url, "action": "present" if remote else "upload"})
    return steps


def upload(client: httpx.Client, url: str, path: Path) -> None:
    import httpx

    try:
        response = client.put(
            url, content=path.read_bytes(), headers={"Content-Type": "application/octet-stream"}
        )
    except httpx.HTTPError as exc:
        raise network_error(f"Nexus PUT {url}", exc) from None
    if response.status_code in (400, 409):
        raise ReleaseError(
            "CONFLICT",
            f"Nexus refused {path.name} (HTTP {response.status_code}): already published",
        )
    if response.status_code not in (200, 201, 204):
        raise status_error(f"Nexus PUT {url}", response)


def confirm(client: httpx.Client, url: str, path: Path) -> None:
    """Nexus serves exactly the uploaded bytes (a wrong request can store an empty file)."""
    if remote_sha256(client, url) != sums.file_sha256(path):
        raise ReleaseError(
            "INTEGRITY",
            f"Nexus does not serve the uploaded {path.name}",
            hint=f"delete {url} in Nexus, then publish again",
        )


def publish(
    target: NexusTarget, version: str, files: list[Path], *, dry_run: bool
) -> dict[str, object]:
    """Check every path, then upload what is missing and read it back (nothing in a dry run)."""
    with make_client(auth=(target.user, target.password)) as client:
        steps = plan(client, target, version, files)
        for step, path in zip(steps, files, strict=True):
            if step["action"] == "upload" and not dry_run:
                upload(client, step["url"], path)
                confirm(client, step["url"], path)
                step["action"] = "uploaded"
    return {"url": target.url, "repository": target.repository, "files": steps}
