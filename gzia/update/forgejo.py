"""Discovery on Forgejo: every page of tags, then the release of each candidate tag."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any
from urllib.parse import parse_qsl, quote, urlencode, urlsplit, urlunsplit

from gzia.i18n import N_
from gzia.update.client import Credentials, get_json, host_of
from gzia.update.errors import SourceFailure
from gzia.update.model import Release, ReleaseFile, Want, nothing_found, parse_version

if TYPE_CHECKING:
    import httpx

PAGE_LIMIT = 50  # Forgejo's maximum page size
MAX_PAGES = 200


def _page_url(url: str, page: int) -> str:
    parts = urlsplit(url)
    query = [(k, v) for k, v in parse_qsl(parts.query) if k not in ("page", "limit")]
    query += [("page", str(page)), ("limit", str(PAGE_LIMIT))]
    return urlunsplit(parts._replace(query=urlencode(query)))


def list_tags(client: httpx.Client, url: str, credentials: Credentials | None) -> list[str]:
    """Every tag name, page after page, until ``X-Total-Count`` names are read."""
    names: list[str] = []
    for page in range(1, MAX_PAGES + 1):
        document, headers = get_json(client, _page_url(url, page), credentials)
        if not isinstance(document, list):
            raise SourceFailure(N_("{host} sent an invalid JSON document"),
                                reason_code="update.reason_bad_json", host=host_of(url))
        names += [t["name"] for t in document if isinstance(t, dict)
                  and isinstance(t.get("name"), str)]
        if _last_page(document, names, headers.get("x-total-count", "")):
            return names
    raise SourceFailure(N_("{host} returned too many pages"),
                        reason_code="update.reason_too_many_pages", host=host_of(url))


def _last_page(document: list[Any], names: list[str], total: str) -> bool:
    """``X-Total-Count`` decides when the server sends it: a server whose page size cap
    (``MAX_RESPONSE_ITEMS``) is below our ``limit`` sends short pages before the last."""
    if not document:
        return True
    if total.isdigit():
        return len(names) >= int(total)
    return len(document) < PAGE_LIMIT


def release_url(tags_url: str, tag: str) -> str:
    parts = urlsplit(tags_url)
    base = parts.path.rstrip("/")
    base = base[: -len("/tags")] if base.endswith("/tags") else base
    return urlunsplit(parts._replace(path=f"{base}/releases/tags/{quote(tag, safe='')}",
                                     query=""))


def _release(document: Any, tag: str) -> Release | None:
    if not isinstance(document, dict) or document.get("draft") is not False:
        return None  # drafts (and anything that does not say it is not one) are skipped
    version = parse_version(tag)
    if version is None:
        return None
    label = tag[1:] if tag[:1] in ("v", "V") else tag
    release = Release(version, label, "forgejo")
    for asset in document.get("assets") or []:
        if isinstance(asset, dict) and isinstance(asset.get("browser_download_url"), str):
            size = asset.get("size")
            release.files[str(asset.get("name"))] = ReleaseFile(
                str(asset.get("name")), asset["browser_download_url"],
                size if isinstance(size, int) else None)
    return release


def discover_forgejo(client: httpx.Client, url: str, credentials: Credentials | None,
                     want: Want) -> list[Release]:
    """The newest usable release (or the pinned one) found on Forgejo."""
    tags = list_tags(client, url, credentials)
    if not tags:
        raise SourceFailure(N_("no published tags in the repository"),
                            reason_code="update.reason_no_tags")
    candidates = []
    for tag in tags:
        version = parse_version(tag)
        if version is not None and want.allows(version):
            candidates.append((version, tag))
    for _, tag in sorted(candidates, reverse=True):
        release = _usable(client, url, credentials, tag, want)
        if release is not None:
            return [release]
    raise nothing_found(want)


def _usable(client: httpx.Client, url: str, credentials: Credentials | None, tag: str,
            want: Want) -> Release | None:
    try:
        document, _ = get_json(client, release_url(url, tag), credentials)
    except SourceFailure as failure:
        if failure.params.get("status") == 404:
            return None  # a tag without a release
        raise
    release = _release(document, tag)
    if release is None or not release.complete(want.platform):
        return None
    if document.get("prerelease") and not want.allows(release.version, flagged_pre=True):
        return None
    return release
