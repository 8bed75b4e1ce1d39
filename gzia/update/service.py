"""The update use cases, composed of the steps: check, update, rollback."""

from __future__ import annotations

import contextlib
import tempfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from gzia.contract import IntegrityError, InvalidInputError, NetworkError, NotFoundError
from gzia.i18n import N_
from gzia.update import apply, download, verify
from gzia.update.channel import ChannelView, read_channel
from gzia.update.client import Credentials, current_version
from gzia.update.errors import SourceFailure
from gzia.update.installer import update_command, upgrade_hint
from gzia.update.manifest import check_channel_name
from gzia.update.model import SIGNATURE, SUMS, Release, Want, parse_version
from gzia.update.policy_rules import allowed_releases, refuse_forbidden_flags
from gzia.update.select import Decision, decide, decide_for_channel, newest
from gzia.update.settings import UpdateSettings
from gzia.update.sources import (
    Discovery,
    Source,
    configured_sources,
    discover,
    refuse_unconfigured,
)

if TYPE_CHECKING:
    import httpx

OnFailure = Callable[[Source, SourceFailure], None]


@dataclass(frozen=True)
class Options:
    version: str | None = None
    pre: bool = False
    force: bool = False
    allow_downgrade: bool = False
    dry_run: bool = False
    ignore_rollout: bool = False


def want_for(options: Options, view: ChannelView | None = None) -> Want:
    """``--version`` pins; ``--pre`` takes the newest; else the channel's plan, if any."""
    if options.version is None:
        if view is not None and view.plan is not None and not options.pre:
            return Want(version=parse_version(view.plan.version), pre=True)
        return Want(pre=options.pre)
    pinned = parse_version(options.version)
    if pinned is None:
        raise InvalidInputError(N_("invalid version: {version}"), version=options.version,
                                details={"version": options.version})
    return Want(version=pinned, pre=True)


def channel_view(client: httpx.Client, settings: UpdateSettings, options: Options,
                 on_problem: OnFailure | None = None) -> ChannelView:
    check_channel_name(settings.channel)
    return read_channel(client, configured_sources(settings), settings.channel,
                        current_version(), base_keys=_base_keys(settings),
                        ignore_rollout=options.ignore_rollout, on_problem=on_problem)


def _base_keys(settings: UpdateSettings) -> list[Any]:
    try:
        return verify.base_keys(settings.public_keys)
    except IntegrityError:
        return []  # an unreadable GZ_UPDATE_PUBLIC_KEYS: 'update' says so on its own


def check(client: httpx.Client, settings: UpdateSettings, options: Options,
          on_failure: OnFailure | None = None,
          on_problem: OnFailure | None = None) -> dict[str, Any]:
    sources = configured_sources(settings)
    refuse_unconfigured(sources)
    view = channel_view(client, settings, options, on_problem)
    found = discover(client, sources, want_for(options, view), on_failure)
    releases = allowed_releases(found.releases, settings.policy)
    latest = newest(releases)
    decision = _decide(releases, view, options, check_only=True)
    return {"current": current_version(), "latest": latest.label, "source": found.source.name,
            "newer": decision.newer, **view.fields()}


def _decide(releases: list[Release], view: ChannelView, options: Options, *,
            check_only: bool = False) -> Decision:
    """What to install among ``releases`` (those the administrator's policy allows)."""
    if view.plan is not None and options.version is None and not options.pre:
        decision = decide_for_channel(releases, current_version(),
                                      moving_off_yank=view.yanked is not None,
                                      force=options.force)
    else:
        decision = decide(releases, current_version(),
                          pinned=options.version is not None, force=options.force,
                          allow_downgrade=check_only or options.allow_downgrade)
    if decision.install and not check_only:
        view.refuse_yanked(decision.release.label)
    return decision


def update(client: httpx.Client, settings: UpdateSettings, options: Options,
           target: Path | None, *, on_failure: OnFailure | None = None,
           on_problem: OnFailure | None = None,
           progress: download.Progress | None = None,
           on_install: Callable[[str], None] | None = None) -> dict[str, Any]:
    require_zipapp(target, options.dry_run)
    refuse_forbidden_flags(settings.policy, allow_downgrade=options.allow_downgrade,
                           allow_pre=options.pre)
    sources = configured_sources(settings)
    refuse_unconfigured(sources)  # the missing source is named before the missing key
    verify.trusted_keys(settings.public_keys)  # no key at all: said before going online
    installs = target is not None and not options.dry_run
    with workspace(target, options.dry_run) as folder:
        view = channel_view(client, settings, options, on_problem)
        keys = verify.trusted_keys(settings.public_keys)  # with what the manifest taught
        want = want_for(options, view)
        found = discover(client, sources, want, on_failure)
        while True:
            decision = _decide(allowed_releases(found.releases, settings.policy), view, options)
            result = {**_result(decision, found, target, options), **view.fields()}
            if not decision.install:
                return result
            if on_install is not None:
                on_install(decision.release.label)
            staged = folder / (target.name if target else decision.release.pyz_name())
            try:
                _stage(client, decision.release, found.source, keys, staged, progress=progress,
                       scratch_shiv=None if installs else folder / "shiv-root")
                break
            except NetworkError as error:  # never on INTEGRITY: that would help an attacker
                found = _fall_back(client, sources, found, want, error, on_failure=on_failure)
        result["verified"] = True
        if installs and target is not None:
            result.update(_install(staged, target, folder))
        return result


def require_zipapp(target: Path | None, dry_run: bool = False) -> None:
    """Only a gz-ia running from its zipapp can replace itself (a dry run needs none)."""
    if target is None and not dry_run:
        command = update_command()
        raise NotFoundError(N_("gz-ia is not running from a gz-ia.pyz zipapp, so it cannot replace "
                               "itself"),
                            hint_key=upgrade_hint(command), command=command)


def install_verified(staged: Path, label: str, target: Path | None, folder: Path,
                     options: Options) -> dict[str, Any]:
    """Run the verified ``staged`` file's ``--version``, then swap it in (unless this is a
    dry run, which runs it with a scratch shiv root)."""
    installs = target is not None and not options.dry_run
    apply.self_test(staged, label, None if installs else folder / "shiv-root")
    if not installs or target is None:
        return {"verified": True}
    return {"verified": True, **_install(staged, target, folder)}


def _install(staged: Path, target: Path, folder: Path) -> dict[str, Any]:
    keep = {b for b in (apply.build_id(target), apply.build_id(staged)) if b}
    previous = apply.install(staged, target, folder)
    apply.clean_shiv_cache(target.name, keep)
    return {"previous": str(previous), "updated": True}


def _stage(client: httpx.Client, release: Release, source: Source, keys: list[Any],
           staged: Path, *, progress: download.Progress | None, scratch_shiv: Path | None,
           ) -> None:
    """Download and verify ``release`` into ``staged``, then run it; removed on failure."""
    try:
        fetch_verified(client, release, source.credentials, keys, staged, progress=progress)
        apply.self_test(staged, release.label, scratch_shiv)
    except BaseException:
        staged.unlink(missing_ok=True)
        raise


def _fall_back(client: httpx.Client, sources: list[Source], found: Discovery, want: Want,
               error: NetworkError, *, on_failure: OnFailure | None) -> Discovery:
    """A download from one source failed: discover on the next ones, or re-raise."""
    rest = [s for s in sources[sources.index(found.source) + 1:] if s.url]
    if not rest:
        raise error
    failure = SourceFailure(N_("download of {file} failed: {reason}"),
                            reason_code="update.download_failed", **error.params)
    if on_failure is not None:
        on_failure(found.source, failure)
    return discover(client, rest, want, on_failure, earlier=((found.source, failure),))


@contextlib.contextmanager
def workspace(target: Path | None, dry_run: bool) -> Iterator[Path]:
    if target is None or dry_run:
        with tempfile.TemporaryDirectory(prefix="gz-ia-update-") as folder:
            yield Path(folder)
        return
    with apply.update_lock(target) as folder:
        yield folder


def _result(decision: Decision, found: Discovery, target: Path | None,
            options: Options) -> dict[str, Any]:
    return {"current": decision.current, "version": decision.release.label,
            "source": found.source.name, "newer": decision.newer, "updated": False,
            "dry_run": options.dry_run, "verified": False,
            "path": str(target) if target else None, "previous": None}


def fetch_verified(client: httpx.Client, release: Release, credentials: Credentials | None,
                   keys: list[Any], destination: Path, *,
                   progress: download.Progress | None = None) -> None:
    """Signature first (small files), then the pyz, hashed while it streams."""
    sums = download.fetch_small(client, release.file(SUMS), credentials)
    signature = download.fetch_small(client, release.file(SIGNATURE), credentials)
    entries = verify.verify_sums(sums, signature, keys)
    pyz = release.file(release.pyz_name())
    expected = verify.expected_hash(entries, pyz.name, pyz.sha256)
    digest, size = download.stream_to_file(client, pyz, credentials, destination,
                                           progress=progress)
    verify.check_download(pyz.name, digest, expected, size, pyz.size)


def rollback(target: Path | None) -> dict[str, Any]:
    require_zipapp(target)
    assert target is not None  # noqa: S101 - for the type checker: require_zipapp said so
    with apply.update_lock(target) as folder:
        previous = apply.found_previous(target)
        version = apply.pyz_version(previous) if previous.is_file() else None
        if previous.is_file() and version is None:
            raise IntegrityError(N_("{path} is not a gz-ia zipapp; nothing was rolled back"),
                                 path=str(previous),
                                 details={"path": str(previous)})
        replaced = apply.pyz_version(target)
        apply.rollback(target, folder)
    return {"path": str(target), "version": version,
            "previous": str(apply.previous_path(target)), "replaced": replaced}
