"""Discovery on Nexus: the search API (components or assets), every page, both path styles."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

from gzia.i18n import N_
from gzia.update.client import Credentials, get_json, host_of
from gzia.update.errors import SourceFailure
from gzia.update.model import Release, ReleaseFile, Want, nothing_found, parse_version

if TYPE_CHECKING:
    import httpx

# gz-ia/<version>/<file>, with or without the leading slash of SQL-era servers
_PATH = re.compile(r"(?:^|/)gz-ia/(?P<version>[^/]+)/(?P<file>[^/]+)$")
MAX_PAGES = 1000


def with_token(url: str, token: str | None) -> str:
    parts = urlsplit(url)
    query = [(k, v) for k, v in parse_qsl(parts.query, keep_blank_values=True)
             if k != "continuationToken"]
    if token is not None:
        query.append(("continuationToken", token))
    return urlunsplit(parts._replace(query=urlencode(query)))


def search_items(client: httpx.Client, url: str, credentials: Credentials | None,
                 ) -> Iterator[dict[str, Any]]:
    """Every item of every page: follow ``continuationToken`` until it is null."""
    token: str | None = None
    for _ in range(MAX_PAGES):
        document, _ = get_json(client, with_token(url, token), credentials)
        if not isinstance(document, dict) or not isinstance(document.get("items"), list):
            raise SourceFailure(N_("{host} sent an invalid JSON document"),
                                reason_code="update.reason_bad_json", host=host_of(url))
        yield from (i for i in document["items"] if isinstance(i, dict))
        token = document.get("continuationToken")
        if token is None:
            return
    raise SourceFailure(N_("{host} returned too many pages"),
                        reason_code="update.reason_too_many_pages", host=host_of(url))


def assets_of(item: dict[str, Any]) -> list[dict[str, Any]]:
    """An asset search item is the asset; a component search item nests its assets."""
    nested = item.get("assets")
    if isinstance(nested, list):
        return [a for a in nested if isinstance(a, dict)]
    return [item]


def _release_file(asset: dict[str, Any], name: str) -> ReleaseFile | None:
    url = asset.get("downloadUrl")
    if not isinstance(url, str):
        return None
    checksum = asset.get("checksum") if isinstance(asset.get("checksum"), dict) else {}
    sha256 = checksum.get("sha256") if checksum else None
    size = asset.get("fileSize")
    return ReleaseFile(name, url, size if isinstance(size, int) else None,
                       sha256 if isinstance(sha256, str) else None)


def discover_nexus(client: httpx.Client, url: str, credentials: Credentials | None,
                   want: Want) -> list[Release]:
    """Usable releases found on Nexus, any order."""
    releases: dict[str, Release] = {}
    seen = 0
    for item in search_items(client, url, credentials):
        seen += 1
        for asset in assets_of(item):
            match = _PATH.search(str(asset.get("path", "")))
            version = parse_version(match["version"]) if match else None
            if match is None or version is None or not want.allows(version):
                continue
            found = _release_file(asset, match["file"])
            if found is not None:
                release = releases.setdefault(match["version"],
                                              Release(version, match["version"], "nexus"))
                release.files[found.name] = found
    usable = [r for r in releases.values() if r.complete(want.platform)]
    if not seen and credentials is None:
        # Nexus 3.71 answers an anonymous search with 200 and no items when anonymous
        # access is off, instead of 401
        raise SourceFailure(N_("{host} found no assets at all; if anonymous access is off, set "
                               "GZ_NEXUS_USER and GZ_NEXUS_PASSWORD"),
                            reason_code="update.reason_nexus_nothing_anonymous", host=host_of(url))
    if not usable:
        raise nothing_found(want)
    return usable
