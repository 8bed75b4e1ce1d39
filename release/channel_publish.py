"""Reading and publishing channel manifests on Nexus and Forgejo.

* Nexus: ``<repo>/gz-ia/channels/<channel>.json`` and ``….json.minisig``, replaced in place
  (the one path a release repository must let the publisher overwrite; with redeploy
  disabled the old file is deleted first). Each upload is read back.
* Forgejo: assets ``manifest-<serial>.json`` and ``….minisig`` of the release of tag
  ``channel-<channel>`` (created when missing). New names for every serial: a client never
  sees half of an update; older pairs are removed once the new one is read back.
"""

from __future__ import annotations

import hashlib
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

from gzia.update.manifest import FORGEJO_TAG, newest_forgejo_pair
from release.errors import ReleaseError
from release.forgejo import Api, ForgejoTarget
from release.http import make_client, network_error, status_error
from release.nexus import NexusTarget, remote_sha256

if TYPE_CHECKING:
    import httpx


def nexus_urls(target: NexusTarget, channel: str) -> tuple[str, str]:
    base = f"{target.url}/repository/{quote(target.repository, safe='')}/gz-ia/channels"
    return f"{base}/{channel}.json", f"{base}/{channel}.json.minisig"


def read_nexus(target: NexusTarget, channel: str) -> tuple[bytes, bytes] | None:
    with make_client(auth=(target.user, target.password)) as client:
        document, signature = (_get(client, url) for url in nexus_urls(target, channel))
    return None if document is None or signature is None else (document, signature)


def _get(client: httpx.Client, url: str) -> bytes | None:
    import httpx

    try:
        response = client.get(url)
    except httpx.HTTPError as exc:
        raise network_error(f"GET {url}", exc) from None
    if response.status_code == 404:
        return None
    if response.status_code != 200:
        raise status_error(f"GET {url}", response)
    return response.content


def publish_nexus(target: NexusTarget, channel: str, data: bytes, signature: bytes, *,
                  dry_run: bool) -> dict[str, object]:
    urls = nexus_urls(target, channel)
    steps = [{"file": url.rsplit("/", 1)[1], "action": "upload"} for url in urls]
    if not dry_run:
        with make_client(auth=(target.user, target.password)) as client:
            for step, url, content in zip(steps, urls, (data, signature), strict=True):
                _replace(client, url, content)
                step["action"] = "uploaded"
    return {"url": target.url, "repository": target.repository, "files": steps}


def _replace(client: httpx.Client, url: str, content: bytes) -> None:
    """PUT ``content`` at ``url``; a repository that refuses a redeploy (400/409) gets a
    DELETE first. The upload is read back."""
    import httpx

    try:
        response = _put(client, url, content)
        if response.status_code in (400, 409):
            client.delete(url)
            response = _put(client, url, content)
    except httpx.HTTPError as exc:
        raise network_error(f"Nexus PUT {url}", exc) from None
    if response.status_code not in (200, 201, 204):
        raise status_error(f"Nexus PUT {url}", response)
    if remote_sha256(client, url) != hashlib.sha256(content).hexdigest():
        raise ReleaseError("INTEGRITY", f"Nexus does not serve the uploaded {url}")


def _put(client: httpx.Client, url: str, content: bytes) -> httpx.Response:
    return client.put(url, content=content, headers={"Content-Type": "application/octet-stream"})


def read_forgejo(target: ForgejoTarget, channel: str) -> tuple[bytes, bytes] | None:
    with make_client() as client:
        client.headers["Authorization"] = f"token {target.token}"
        release = Api(client, target).release_by_tag(FORGEJO_TAG.format(channel=channel))
        pair = newest_forgejo_pair(release.get("assets")) if release else None
        if pair is None:
            return None
        document, signature = _get(client, pair.document), _get(client, pair.signature)
    return None if document is None or signature is None else (document, signature)


def publish_forgejo(target: ForgejoTarget, channel: str, serial: int, data: bytes,
                    signature: bytes, *, commit: str | None, dry_run: bool) -> dict[str, object]:
    tag, name = FORGEJO_TAG.format(channel=channel), f"manifest-{serial}.json"
    files = [(name, data), (f"{name}.minisig", signature)]
    steps = [{"file": n, "action": "upload"} for n, _ in files]
    report: dict[str, object] = {"url": target.url, "repository": target.repository, "tag": tag,
                                 "files": steps}
    if dry_run:
        return report
    with make_client() as client:
        client.headers["Authorization"] = f"token {target.token}"
        api = Api(client, target)
        release = _channel_release(api, tag, channel, commit)
        for step, (file_name, content) in zip(steps, files, strict=True):
            _upload(api, int(release["id"]), file_name, content)
            step["action"] = "uploaded"
        final = _confirmed(api, tag, files)
        for asset in final.get("assets") or []:
            if asset["name"].startswith("manifest-") and asset["name"] not in dict(files):
                api.delete_asset(int(final["id"]), int(asset["id"]))
                steps.append({"file": asset["name"], "action": "removed"})
    return report


def _channel_release(api: Api, tag: str, channel: str, commit: str | None) -> dict[str, Any]:
    release = api.release_by_tag(tag)
    if release is None:
        payload: dict[str, object] = {
            "tag_name": tag, "name": f"gz-ia channel {channel}", "draft": False,
            "prerelease": False, "body": f"The signed manifest of the {channel} channel."}
        if commit:
            payload["target_commitish"] = commit
        api.call("POST", "/releases", (201, 409), json=payload)
        release = api.release_by_tag(tag)
    if release is None or release.get("draft") is not False:
        raise ReleaseError("NETWORK", f"Forgejo did not keep the release {tag}")
    return release


def _upload(api: Api, release_id: int, name: str, content: bytes) -> None:
    files = {"attachment": (name, content, "application/octet-stream")}
    api.call("POST", f"/releases/{release_id}/assets", (201,), params={"name": name},
             files=files)


def _confirmed(api: Api, tag: str, files: list[tuple[str, bytes]]) -> dict[str, Any]:
    final = api.release_by_tag(tag)
    sizes = {a["name"]: a["size"] for a in (final or {}).get("assets") or []}
    if final is None or any(sizes.get(n) != len(c) for n, c in files):
        raise ReleaseError("NETWORK", f"Forgejo does not list the uploaded manifest of {tag}")
    return final
