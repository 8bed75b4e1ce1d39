"""``gz-ia update --from PATH|URL``: a release from a directory, a file or a mirror's URL,
checked exactly as a downloaded one (the signature over SHA256SUMS, the hash, the staged
file's ``--version``) and installed by the same swap.

A release directory holds ``SHA256SUMS``, ``SHA256SUMS.minisig`` and the pyz of this
platform (``gz-ia-X.Y.Z-<os>-<arch>.pyz``); a file is such a pyz with the other two beside
it. The signature is checked before anything in SHA256SUMS is believed.
"""

from __future__ import annotations

import hashlib
import os
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol
from urllib.parse import urljoin, urlsplit

from gzia.contract import IntegrityError, InvalidInputError, NotFoundError
from gzia.i18n import N_
from gzia.policy import refuse_forbidden
from gzia.update import download, verify
from gzia.update.client import Credentials, current_version, usable_url
from gzia.update.model import SIGNATURE, SUMS, Release, ReleaseFile, parse_version
from gzia.update.platform import platform_tag
from gzia.update.policy_rules import allowed_releases, refuse_forbidden_flags
from gzia.update.select import decide
from gzia.update.service import install_verified, require_zipapp, workspace
from gzia.update.sources import configured_sources

if TYPE_CHECKING:
    import httpx

    from gzia.update.service import Options
    from gzia.update.settings import UpdateSettings

_CHUNK = 1 << 20


class Folder(Protocol):
    """Where a release's files are: a local directory or a URL."""

    def read_small(self, name: str) -> bytes: ...

    def stream(self, name: str, destination: Path,
               progress: download.Progress | None) -> tuple[str, int]: ...


@dataclass(frozen=True)
class LocalFolder:
    path: Path

    def read_small(self, name: str) -> bytes:
        """``SHA256SUMS`` or its signature: without them nothing is installed."""
        if not (self.path / name).is_file():
            raise IntegrityError(N_("{file} is missing in {folder}: a release without its "
                                    "signed SHA256SUMS is never installed"),
                                 file=name, folder=str(self.path),
                                 details={"file": name, "folder": str(self.path)})
        return _read_bounded(self.path / name, download.SMALL_LIMIT)

    def stream(self, name: str, destination: Path,
               progress: download.Progress | None) -> tuple[str, int]:
        digest = hashlib.sha256()
        with _open(self.path / name) as reader, destination.open("wb") as out:
            size = download.write_chunks(iter(lambda: reader.read(_CHUNK), b""), out, digest,
                                         name=name, limit=download.PYZ_LIMIT,
                                         total=os.fstat(reader.fileno()).st_size,
                                         progress=progress)
        return digest.hexdigest(), size


@dataclass(frozen=True)
class RemoteFolder:
    client: httpx.Client
    url: str  # ends with "/"
    credentials: Credentials | None

    def _file(self, name: str) -> ReleaseFile:
        return ReleaseFile(name, urljoin(self.url, name))

    def read_small(self, name: str) -> bytes:
        return download.fetch_small(self.client, self._file(name), self.credentials)

    def stream(self, name: str, destination: Path,
               progress: download.Progress | None) -> tuple[str, int]:
        return download.stream_to_file(self.client, self._file(name), self.credentials,
                                       destination, progress=progress)


def _open(path: Path) -> Any:
    try:
        return path.open("rb")
    except FileNotFoundError:
        raise _missing(path) from None
    except OSError as exc:
        raise IntegrityError(N_("cannot read {path}: {detail}"), path=str(path),
                             detail=exc.strerror or str(exc), details={"path": str(path)}) from exc


def _missing(path: Path) -> NotFoundError:
    return NotFoundError(N_("{path} does not exist"), path=str(path), details={"path": str(path)})


def _read_bounded(path: Path, limit: int) -> bytes:
    with _open(path) as reader:
        data: bytes = reader.read(limit + 1)
    if len(data) > limit:
        raise download.too_large(path.name, limit)
    return data


@dataclass(frozen=True)
class Offline:
    """Where ``--from`` points: the folder and, for a file, its name."""

    folder: Folder
    name: str | None
    shown: str


def locate(location: str, client: httpx.Client,
           credentials: Callable[[str], Credentials | None]) -> Offline:
    """``location`` as a folder (and a file name when it names a file)."""
    if "://" in location:
        if not usable_url(location):
            raise InvalidInputError(N_("--from: '{location}' is neither a path nor an http(s) URL"),
                                    location=location, details={"location": location})
        url_path = urlsplit(location).path
        name = url_path.rsplit("/", 1)[-1] if url_path.endswith(".pyz") else None
        base = urljoin(location, ".") if name else location.rstrip("/") + "/"
        return Offline(RemoteFolder(client, base, credentials(base)), name, location)
    path = Path(location).expanduser().absolute()
    if path.is_dir():
        return Offline(LocalFolder(path), None, str(path))
    if not path.is_file():
        raise _missing(path)
    return Offline(LocalFolder(path.parent), path.name, str(path))


def _credentials_for(settings: UpdateSettings, url: str) -> Credentials | None:
    """A mirror on a configured registry's host gets that registry's credentials."""
    return next((s.credentials for s in configured_sources(settings)
                 if s.credentials is not None and s.credentials.applies_to(url)), None)


def release_in(offline: Offline, entries: dict[str, str], wanted: str | None) -> Release:
    """The release ``--from`` names: its file, else the newest pyz of this platform listed
    in the signed SHA256SUMS (``wanted``: the one of ``--version``)."""
    pattern = re.compile(rf"gz-ia-(?P<version>.+)-{re.escape(platform_tag())}\.pyz")
    found = {}
    for name in ([offline.name] if offline.name else entries):
        match = pattern.fullmatch(name)
        version = parse_version(match["version"]) if match else None
        if version is not None and (wanted is None or version == parse_version(wanted)):
            found[version] = name
    if not found:
        raise NotFoundError(N_("no gz-ia release for {platform} in {location}"),
                            platform=platform_tag(), location=offline.shown,
                            details={"platform": platform_tag(), "location": offline.shown})
    version = max(found)
    name = found[version]
    return Release(version, str(version), "file", {name: ReleaseFile(name, name)})


def update_from(client: httpx.Client, settings: UpdateSettings, location: str,
                options: Options, target: Path | None, *,
                progress: download.Progress | None = None) -> dict[str, Any]:
    require_zipapp(target, options.dry_run)
    refuse_forbidden("allow_from", "--from", settings.policy)
    refuse_forbidden_flags(settings.policy, allow_downgrade=options.allow_downgrade,
                           allow_pre=False)
    keys = verify.trusted_keys(settings.public_keys)
    offline = locate(location, client, lambda url: _credentials_for(settings, url))
    entries = verify.verify_sums(offline.folder.read_small(SUMS),
                                 offline.folder.read_small(SIGNATURE), keys)
    release = release_in(offline, entries, options.version)
    decision = decide(allowed_releases([release], settings.policy), current_version(),
                      pinned=True, force=options.force, allow_downgrade=options.allow_downgrade)
    result = {"current": decision.current, "version": release.label, "source": offline.shown,
              "newer": decision.newer, "updated": False, "dry_run": options.dry_run,
              "verified": False, "path": str(target) if target else None, "previous": None}
    if not decision.install:
        return result
    name = release.pyz_name() if offline.name is None else offline.name
    with workspace(target, options.dry_run) as folder:
        staged = folder / (target.name if target else name)
        expected = verify.expected_hash(entries, name, None)
        digest, size = offline.folder.stream(name, staged, progress)
        verify.check_download(name, digest, expected, size, None)
        result.update(install_verified(staged, release.label, target, folder, options))
    return result
