"""Channel manifests: a small signed JSON document per channel (``stable``, ``beta``...).

The release tooling publishes ``<channel>.json`` and its minisign signature
``<channel>.json.minisig`` (the signature covers the document's bytes, as for SHA256SUMS):

* Nexus: ``<nexus>/repository/<repo>/gz-ia/channels/<channel>.json`` (beside the releases);
* Forgejo: assets ``manifest-<serial>.json`` (+ ``.minisig``) of the release of tag
  ``channel-<channel>``; the highest serial with both files is read.

:func:`fetch_channel_manifest` reads the sources in their order (Nexus, then Forgejo) and
returns the first manifest that is signed by a trusted key, well formed, of that channel,
not expired and not older than one seen before; every refusal is reported to ``on_problem``
and the next source is tried. ``None`` when no source publishes a usable one: the caller
then does what it does without manifests.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any
from urllib.parse import parse_qsl, quote, urlsplit, urlunsplit

from gzia.contract import InvalidInputError
from gzia.i18n import N_, gettext
from gzia.update.client import get_json, open_stream, translate_errors, usable_url
from gzia.update.errors import SourceFailure
from gzia.update.forgejo import release_url
from gzia.update.minisign import PublicKey, SignatureProblem, key_id_text, parse_signature
from gzia.update.minisign import verify as verify_signature
from gzia.update.model import parse_version

if TYPE_CHECKING:
    import httpx

    from gzia.update.sources import Source

SCHEMA = 1
MANIFEST_LIMIT = 64 << 10  # bytes of the document: a few hundred yanks fit many times over
SIGNATURE_LIMIT = 4 << 10
MAX_YANKED = 1000
MAX_KEY_CHANGES = 16
MAX_TEXT = 500
CHANNEL_NAME = re.compile(r"[a-z][a-z0-9._-]{0,31}")
FORGEJO_TAG = "channel-{channel}"
_FORGEJO_ASSET = re.compile(r"manifest-(?P<serial>[0-9]{1,18})\.json")


@dataclass(frozen=True)
class Rollout:
    version: str
    percentage: int  # 0..100


@dataclass(frozen=True)
class ChannelManifest:
    """What a channel's manifest says; ``source`` and ``signer`` say where it came from."""

    channel: str
    serial: int
    version: str  # the channel's current version
    expires: datetime
    rollout: Rollout | None = None
    minimum_version: str | None = None
    yanked: dict[str, str] = field(default_factory=dict)  # version → reason
    add_keys: tuple[str, ...] = ()  # minisign public key lines, trusted from now on
    revoke_keys: tuple[str, ...] = ()  # key ids as minisign prints them, never trusted again
    source: str = ""
    signer: str = ""  # the key id that signed it

    def yank_reason(self, version: str) -> str | None:
        parsed = parse_version(version)
        for label, reason in self.yanked.items():
            if parsed is not None and parse_version(label) == parsed:
                return reason
        return None

    def below_minimum(self, version: str) -> bool:
        running, minimum = parse_version(version), parse_version(self.minimum_version or "")
        return running is not None and minimum is not None and running < minimum

    def to_json(self) -> dict[str, Any]:
        rollout = None if self.rollout is None else {"version": self.rollout.version,
                                                     "percentage": self.rollout.percentage}
        return {"schema": SCHEMA, "channel": self.channel, "serial": self.serial,
                "version": self.version, "expires": _timestamp(self.expires),
                "rollout": rollout, "minimum_version": self.minimum_version,
                "yanked": [{"version": v, "reason": r} for v, r in self.yanked.items()],
                "keys": {"add": list(self.add_keys), "revoke": list(self.revoke_keys)},
                "source": self.source, "signer": self.signer}


class ManifestProblem(SourceFailure):
    """A manifest that was found but refused (``reason_code`` says why)."""


Report = Callable[["Source", SourceFailure], None]


def check_channel_name(channel: str) -> str:
    if CHANNEL_NAME.fullmatch(channel) is None:
        raise InvalidInputError(N_("invalid update channel '{channel}': use lower-case letters, "
                                   "digits, '.', '_' or '-', starting with a letter"),
                                channel=channel, details={"channel": channel})
    return channel


# parsing --------------------------------------------------------------------------------


def parse_manifest(data: bytes, channel: str) -> ChannelManifest:
    """The manifest in ``data`` (already verified); :class:`ManifestProblem` when it is not
    one, or not of ``channel``."""
    try:
        document = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError) as exc:
        raise _malformed(N_("not a JSON document")) from exc
    if not isinstance(document, dict) or document.get("schema") != SCHEMA:
        raise _malformed(N_("not a version {schema} channel manifest"), schema=SCHEMA)
    if document.get("channel") != channel:
        raise ManifestProblem(N_("it is the manifest of channel '{found}', not '{channel}'"),
                              reason_code="update.manifest_other_channel",
                              found=str(document.get("channel"))[:40], channel=channel)
    add, revoke = _key_changes(document.get("keys"))
    return ChannelManifest(
        channel=channel, serial=_integer(document, "serial", 0, 2**62),
        version=_version(document.get("version"), "version"),
        expires=_time(document.get("expires")), rollout=_rollout(document.get("rollout")),
        minimum_version=_optional_version(document.get("minimum_version")),
        yanked=_yanked(document.get("yanked")), add_keys=add, revoke_keys=revoke)


def _malformed(key: str, **params: Any) -> ManifestProblem:
    return ManifestProblem(N_("malformed manifest: {detail}"), reason_code="update.manifest_bad",
                           detail=gettext(key, **params))


def _integer(document: dict[str, Any], name: str, low: int, high: int) -> int:
    value = document.get(name)
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise _malformed(N_("'{field}' must be an integer from {low} to {high}"), field=name,
                         low=low, high=high)
    return value


def _version(value: object, name: str) -> str:
    if not isinstance(value, str) or len(value) > 64 or parse_version(value) is None:
        raise _malformed(N_("'{field}' must be a version"), field=name)
    return value.strip().removeprefix("v")


def _optional_version(value: object) -> str | None:
    return None if value is None else _version(value, "minimum_version")


def _time(value: object) -> datetime:
    try:
        moment = datetime.fromisoformat(str(value)) if isinstance(value, str) else None
    except ValueError:
        moment = None
    if moment is None or moment.tzinfo is None:
        raise _malformed(N_("'expires' must be a date and time with its time zone"))
    return moment.astimezone(UTC)


def _rollout(value: object) -> Rollout | None:
    if value is None:
        return None
    if not isinstance(value, dict):
        raise _malformed(N_("'rollout' must be an object with a version and a percentage"))
    return Rollout(_version(value.get("version"), "rollout.version"),
                   _integer(value, "percentage", 0, 100))


def _yanked(value: object) -> dict[str, str]:
    if value is None:
        return {}
    if not isinstance(value, list) or len(value) > MAX_YANKED:
        raise _malformed(N_("'yanked' must be a list of at most {count} entries"),
                         count=MAX_YANKED)
    yanked = {}
    for entry in value:
        reason = entry.get("reason", "") if isinstance(entry, dict) else None
        if not isinstance(reason, str) or len(reason) > MAX_TEXT:
            raise _malformed(N_("each yanked entry needs a version and a short reason"))
        yanked[_version(entry.get("version"), "yanked.version")] = _one_line(reason)
    return yanked


def _key_changes(value: object) -> tuple[tuple[str, ...], tuple[str, ...]]:
    if value is None:
        return (), ()
    add = _short_strings(value.get("add", []) if isinstance(value, dict) else None)
    revoke = _short_strings(value.get("revoke", []) if isinstance(value, dict) else None)
    if add is None or revoke is None:
        raise _malformed(N_("'keys' must hold lists 'add' and 'revoke' of at most {count} keys"),
                         count=MAX_KEY_CHANGES)
    return add, tuple(k.strip().upper() for k in revoke)


def _short_strings(value: object) -> tuple[str, ...] | None:
    if not isinstance(value, list) or len(value) > MAX_KEY_CHANGES \
            or not all(isinstance(v, str) and len(v) <= 200 for v in value):
        return None
    return tuple(value)


def _one_line(text: str) -> str:
    return " ".join(text.split())


def _timestamp(moment: datetime) -> str:
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


# verification -----------------------------------------------------------------------------


def verify_manifest(data: bytes, signature: bytes, channel: str, keys: list[PublicKey], *,
                    now: datetime, seen_serial: int | None = None) -> ChannelManifest:
    """Signature first (nothing unsigned is parsed), then the content and its freshness."""
    try:
        signer = verify_signature(data, parse_signature(signature.decode("utf-8", "replace")),
                                  keys)
    except SignatureProblem as problem:
        raise ManifestProblem(N_("signature rejected: {reason}"),
                              reason_code="update.manifest_signature",
                              reason=problem.message) from problem
    manifest = parse_manifest(data, channel)
    signer_id = key_id_text(signer.key_id)
    if manifest.expires <= now:
        raise ManifestProblem(N_("it expired on {expires}"), reason_code="update.manifest_expired",
                              expires=_timestamp(manifest.expires))
    if seen_serial is not None and manifest.serial < seen_serial:
        raise ManifestProblem(N_("its serial {serial} is older than {seen}, already seen here"),
                              reason_code="update.manifest_replayed", serial=manifest.serial,
                              seen=seen_serial)
    if signer_id in manifest.revoke_keys:
        raise ManifestProblem(N_("it revokes key {key_id}, the key that signed it"),
                              reason_code="update.manifest_self_revoked", key_id=signer_id)
    return _signed_by(manifest, signer_id)


def _signed_by(manifest: ChannelManifest, signer: str) -> ChannelManifest:
    return replace(manifest, signer=signer)


# where each source publishes it -------------------------------------------------------------


def nexus_manifest_url(search_url: str, channel: str) -> str | None:
    """``<root>/repository/<repo>/gz-ia/channels/<channel>.json`` from the search URL's
    ``repository``; ``None`` when the search URL names no repository."""
    parts = urlsplit(search_url)
    root, marker, _ = parts.path.partition("/service/rest/")
    repository = dict(parse_qsl(parts.query)).get("repository")
    if not marker or not repository:
        return None
    path = f"{root}/repository/{quote(repository, safe='')}/gz-ia/channels/{channel}.json"
    return urlunsplit((parts.scheme, parts.netloc, path, "", ""))


@dataclass(frozen=True)
class Published:
    document: str  # URLs of the manifest and of its signature
    signature: str


def _nexus_files(client: httpx.Client, source: Source, channel: str) -> Published | None:
    url = nexus_manifest_url(source.url, channel)
    return None if url is None else Published(url, url + ".minisig")


def _forgejo_files(client: httpx.Client, source: Source, channel: str) -> Published | None:
    try:
        release, _ = get_json(client, release_url(source.url, FORGEJO_TAG.format(channel=channel)),
                              source.credentials)
    except SourceFailure as failure:
        if failure.params.get("status") == 404:
            return None
        raise
    if not isinstance(release, dict) or release.get("draft") is not False:
        return None
    return newest_forgejo_pair(release.get("assets"))


def newest_forgejo_pair(assets: object) -> Published | None:
    """The ``manifest-<serial>.json`` of highest serial whose ``.minisig`` is there too."""
    urls: dict[str, str] = {
        str(a.get("name")): a["browser_download_url"] for a in assets
        if isinstance(a, dict) and isinstance(a.get("browser_download_url"), str)
    } if isinstance(assets, list) else {}
    best: tuple[int, Published] | None = None
    for name, url in urls.items():
        match = _FORGEJO_ASSET.fullmatch(str(name))
        signature = urls.get(f"{name}.minisig")
        if match and signature and (best is None or int(match["serial"]) > best[0]):
            best = (int(match["serial"]), Published(url, signature))
    return None if best is None else best[1]


LOCATORS = {"nexus": _nexus_files, "forgejo": _forgejo_files}


# fetching ------------------------------------------------------------------------------------


@dataclass
class Fetch:
    """What :func:`fetch_channel_manifest` needs besides the sources."""

    channel: str
    keys: list[PublicKey]
    now: datetime
    seen_serial: int | None = None


def fetch_channel_manifest(client: httpx.Client, sources: list[Source], fetch: Fetch,
                           on_problem: Report | None = None) -> ChannelManifest | None:
    """The channel's manifest from the first source that publishes a usable one."""
    for source in sources:
        if not source.url or not usable_url(source.url) or (
                source.credentials is not None and not source.credentials.protected):
            continue  # unconfigured or unusable: said by the release discovery
        try:
            manifest = _from_source(client, source, fetch)
        except SourceFailure as failure:
            if on_problem is not None:
                on_problem(source, failure)
            continue
        if manifest is not None:
            return replace(manifest, source=source.name)
    return None


def _from_source(client: httpx.Client, source: Source,
                 fetch: Fetch) -> ChannelManifest | None:
    published = LOCATORS[source.name](client, source, fetch.channel)
    if published is None:
        return None
    data = _fetch_bounded(client, published.document, source, MANIFEST_LIMIT)
    if data is None:
        return None
    signature = _fetch_bounded(client, published.signature, source, SIGNATURE_LIMIT)
    if signature is None:
        raise ManifestProblem(N_("its signature file is missing"),
                              reason_code="update.manifest_unsigned")
    return verify_manifest(data, signature, fetch.channel, fetch.keys, now=fetch.now,
                           seen_serial=fetch.seen_serial)


def _fetch_bounded(client: httpx.Client, url: str, source: Source, limit: int) -> bytes | None:
    """The file's bytes; ``None`` when the server answers 404."""
    chunks, received = [], 0
    try:
        with open_stream(client, url, source.credentials) as response, \
                translate_errors(url, client):
            for chunk in response.iter_bytes():
                received += len(chunk)
                if received > limit:
                    raise ManifestProblem(N_("it is larger than {limit} bytes"),
                                          reason_code="update.manifest_too_large", limit=limit)
                chunks.append(chunk)
    except SourceFailure as failure:
        if failure.params.get("status") == 404:
            return None
        raise
    return b"".join(chunks)

