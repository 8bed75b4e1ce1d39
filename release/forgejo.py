"""Publishing to Forgejo: a draft release for tag ``vX.Y.Z``, its attachments, then publish.

Clients skip drafts, so a release only becomes visible once every file is attached. The
release body carries the SHA256SUMS text; that is how a re-run recognises its own draft and
completes it (keeping attachments whose name and size match, replacing the others) instead
of creating a second release. A published release is never changed: if it differs from the
local one the publication is refused.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

from release import artifacts
from release.errors import ReleaseError
from release.http import make_client, network_error, status_error

if TYPE_CHECKING:
    import httpx


@dataclass(frozen=True)
class ForgejoTarget:
    url: str
    repository: str
    token: str = field(repr=False)

    @property
    def api(self) -> str:
        owner, name = self.repository.split("/")
        return f"{self.url}/api/v1/repos/{quote(owner, safe='')}/{quote(name, safe='')}"


def release_body(version: str, sums_text: str) -> str:
    return f"{artifacts.PRODUCT} {version}\n\nSHA256SUMS:\n```\n{sums_text}```\n"


class Api:
    """The few Forgejo calls publishing needs; every failure becomes a ReleaseError."""

    def __init__(self, client: httpx.Client, target: ForgejoTarget) -> None:
        self.client = client
        self.target = target

    def call(self, method: str, path: str, ok: tuple[int, ...], **kwargs: Any) -> httpx.Response:
        import httpx

        url = self.target.api + path
        try:
            response = self.client.request(method, url, **kwargs)
        except httpx.HTTPError as exc:
            raise network_error(f"Forgejo {method} {url}", exc) from None
        if response.status_code not in ok:
            raise status_error(f"Forgejo {method} {url}", response)
        return response

    def release_by_tag(self, tag: str) -> dict[str, Any] | None:
        response = self.call("GET", f"/releases/tags/{quote(tag, safe='')}", (200, 404))
        return None if response.status_code == 404 else dict(response.json())

    def create_draft(self, tag: str, body: str, prerelease: bool, target: str | None) -> None:
        payload: dict[str, object] = {
            "tag_name": tag, "name": tag, "body": body, "draft": True, "prerelease": prerelease,
        }  # fmt: skip
        if target:
            payload["target_commitish"] = target
        # 409: a release for the tag appeared meanwhile; the caller reads it again.
        self.call("POST", "/releases", (201, 409), json=payload)

    def edit(self, release_id: int, changes: dict[str, object]) -> None:
        self.call("PATCH", f"/releases/{release_id}", (200,), json=changes)

    def delete_asset(self, release_id: int, asset_id: int) -> None:
        self.call("DELETE", f"/releases/{release_id}/assets/{asset_id}", (204, 404))

    def upload(self, release_id: int, path: Path) -> None:
        files = {"attachment": (path.name, path.read_bytes(), "application/octet-stream")}
        self.call(
            "POST", f"/releases/{release_id}/assets", (201,), params={"name": path.name},
            files=files,
        )  # fmt: skip


def check_published(release: dict[str, Any], body: str, files: list[Path]) -> None:
    """A published release must be this very release, or the publication is refused."""
    sizes = sorted((a["name"], a["size"]) for a in release.get("assets") or [])
    expected = sorted((p.name, p.stat().st_size) for p in files)
    if body.split("SHA256SUMS:", 1)[1] not in (release.get("body") or "") or sizes != expected:
        raise ReleaseError(
            "CONFLICT",
            f"Forgejo release {release['tag_name']} is already published with other files; "
            "not overwriting",
            hint="publish a new version instead of replacing a released one",
        )


def stale_assets(release: dict[str, Any], body: str, files: list[Path]) -> list[dict[str, Any]]:
    """Attachments of a draft that must go: all of them if the draft is another build's,
    else those whose name is unknown, whose size differs, or whose name came before."""
    assets = list(release.get("assets") or [])
    if release.get("body") != body:
        return assets
    sizes = {p.name: p.stat().st_size for p in files}
    stale, kept = [], set()
    for asset in assets:  # a second attachment of one name goes too: names must be unique
        if sizes.get(asset["name"]) != asset["size"] or asset["name"] in kept:
            stale.append(asset)
        else:
            kept.add(asset["name"])
    return stale


def sync_draft(
    api: Api, release: dict[str, Any], body: str, files: list[Path], dry_run: bool
) -> list[dict[str, str]]:
    """Make the draft hold exactly ``files``; returns one step per file and per removal."""
    stale = stale_assets(release, body, files)
    stale_ids = {a["id"] for a in stale}
    kept = {a["name"] for a in release.get("assets") or [] if a["id"] not in stale_ids}
    steps = [{"file": a["name"], "action": "remove"} for a in stale]
    steps += [{"file": p.name, "action": "present" if p.name in kept else "upload"} for p in files]
    if dry_run:
        return steps
    release_id = int(release["id"])
    for asset in stale:
        api.delete_asset(release_id, int(asset["id"]))
    if release.get("body") != body:
        api.edit(release_id, {"body": body})
    for step, path in zip(steps[len(stale) :], files, strict=True):
        if step["action"] == "upload":
            api.upload(release_id, path)
            step["action"] = "uploaded"
    for step in steps[: len(stale)]:
        step["action"] = "removed"
    return steps


def find_or_create_draft(
    api: Api, version: str, body: str, *, commit: str | None, dry_run: bool
) -> tuple[dict[str, Any] | None, str]:
    """The release of ``vX.Y.Z`` (a new draft unless it exists), and whether it was created."""
    tag = artifacts.tag_name(version)
    release = api.release_by_tag(tag)
    if release is not None or dry_run:
        return release, "completed"
    api.create_draft(tag, body, artifacts.is_prerelease(version), commit)
    release = api.release_by_tag(tag)
    if release is None:
        raise ReleaseError("NETWORK", f"Forgejo did not keep the draft release {tag}")
    return release, "created"


def publish_draft(api: Api, release_id: int, tag: str, body: str, files: list[Path]) -> None:
    """Turn the draft into a release, then read it back: published, with exactly ``files``."""
    api.edit(release_id, {"draft": False})
    final = api.release_by_tag(tag)
    if final is None or final.get("draft"):
        raise ReleaseError("NETWORK", f"Forgejo did not publish the release {tag}")
    check_published(final, body, files)


def publish(
    target: ForgejoTarget,
    version: str,
    files: list[Path],
    sums_text: str,
    *,
    commit: str | None,
    dry_run: bool,
) -> dict[str, object]:
    """Create or complete the draft for ``vX.Y.Z``, attach every file, then publish it."""
    tag, body = artifacts.tag_name(version), release_body(version, sums_text)
    report: dict[str, object] = {"url": target.url, "repository": target.repository, "tag": tag}
    with make_client() as client:
        client.headers["Authorization"] = f"token {target.token}"
        api = Api(client, target)
        release, state = find_or_create_draft(api, version, body, commit=commit, dry_run=dry_run)
        if release is None:  # dry run, nothing there yet
            steps = [{"file": p.name, "action": "upload"} for p in files]
            report.update(release="create", files=steps)
        elif not release.get("draft"):
            check_published(release, body, files)
            steps = [{"file": p.name, "action": "present"} for p in files]
            report.update(release="present", files=steps)
        else:
            report["files"] = sync_draft(api, release, body, files, dry_run)
            report["release"] = "complete" if dry_run else state
            if not dry_run:
                publish_draft(api, int(release["id"]), tag, body, files)
    return report
