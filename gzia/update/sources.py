"""Discover: Nexus first, Forgejo when Nexus fails for any reason.

Every source failing is ``NETWORK`` (retryable), except when retrying cannot help: no source
configured is ``INVALID_INPUT``; every configured source answering that nothing matching is
published is ``NOT_FOUND``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from gzia.contract import GzError, InvalidInputError, NetworkError, NotFoundError
from gzia.i18n import N_, gettext
from gzia.update.client import Credentials, host_of, usable_url
from gzia.update.errors import SourceFailure
from gzia.update.forgejo import discover_forgejo
from gzia.update.model import Release, Want
from gzia.update.nexus import discover_nexus
from gzia.update.platform import platform_tag
from gzia.update.settings import UpdateSettings

if TYPE_CHECKING:
    import httpx

NOT_CONFIGURED = N_("{setting} is not set")
NOTHING_PUBLISHED = frozenset({N_("no complete release of version {version} for {platform}"),
                               N_("no complete gz-ia release for {platform}"),
                               N_("no published tags in the repository")})
"""The reasons that say a source answered and has nothing matching what was asked."""

Discover = Callable[["httpx.Client", str, "Credentials | None", Want], list[Release]]


@dataclass(frozen=True)
class Source:
    name: str  # "nexus" or "forgejo"
    url: str
    credentials: Credentials | None
    discover: Discover
    setting: str  # the key that configures it
    secrets: str = ""  # the settings that hold its credentials, for messages


@dataclass
class Discovery:
    releases: list[Release]
    source: Source
    failures: list[tuple[Source, SourceFailure]] = field(default_factory=list)


def configured_sources(settings: UpdateSettings) -> list[Source]:
    nexus = settings.nexus_search_url
    forgejo = settings.forgejo_api_url
    return [
        Source("nexus", nexus,
               Credentials.basic(nexus, settings.nexus_user, settings.nexus_password),
               discover_nexus, "GZ_NEXUS_SEARCH_URL", "GZ_NEXUS_USER/GZ_NEXUS_PASSWORD"),
        Source("forgejo", forgejo, Credentials.token(forgejo, settings.forgejo_token),
               discover_forgejo, "GZ_FORGEJO_API_URL", "GZ_FORGEJO_TOKEN"),
    ]


def refuse_unconfigured(sources: list[Source]) -> None:
    """No source configured at all is ``INVALID_INPUT``, said before anything else that an
    update needs (the trusted key) and before any request."""
    if not any(source.url for source in sources):
        raise _all_failed([(s, SourceFailure(NOT_CONFIGURED,
                                             reason_code="update.reason_not_configured",
                                             setting=s.setting)) for s in sources], Want())


def discover(client: httpx.Client, sources: list[Source], want: Want,
             on_failure: Callable[[Source, SourceFailure], None] | None = None,
             earlier: tuple[tuple[Source, SourceFailure], ...] = ()) -> Discovery:
    """The usable releases of the first source that has any; failures are reported.

    ``earlier``: failures of sources already given up, named too if every source fails.
    """
    failures: list[tuple[Source, SourceFailure]] = list(earlier)
    for source in sources:
        try:
            if not source.url:
                raise SourceFailure(NOT_CONFIGURED, reason_code="update.reason_not_configured",
                                    setting=source.setting)
            if not usable_url(source.url):
                raise SourceFailure(N_("{setting} is not an http(s) URL with a host name"),
                                    reason_code="update.reason_bad_url", setting=source.setting)
            if source.credentials is not None and not source.credentials.protected:
                raise SourceFailure(N_("refusing to send {secrets} over plain http to {host}; use "
                                       "an https URL"),
                                    reason_code="update.reason_plain_http_credentials",
                                    secrets=source.secrets, host=host_of(source.url))
            releases = source.discover(client, source.url, source.credentials, want)
            return Discovery(releases, source, failures)
        except SourceFailure as failure:
            failures.append((source, failure))
            configured = failure.key != NOT_CONFIGURED
            if on_failure is not None and configured and source is not sources[-1]:
                on_failure(source, failure)
    raise _all_failed(failures, want)


def _all_failed(failures: list[tuple[Source, SourceFailure]], want: Want) -> GzError:
    reasons = {s.name: f.message for s, f in failures}
    answered = [s for s, f in failures if f.key != NOT_CONFIGURED]
    if not answered:
        return InvalidInputError(N_("no release source is configured: neither GZ_NEXUS_SEARCH_URL "
                                    "nor GZ_FORGEJO_API_URL is set"),
                                 hint_key=N_("set GZ_NEXUS_SEARCH_URL and/or GZ_FORGEJO_API_URL "
                                             "(see docs/update.md)"),
                                 details={"reasons": reasons})
    if all(f.key in NOTHING_PUBLISHED for _, f in failures if f.key != NOT_CONFIGURED):
        return _not_published(answered, want, reasons)
    return NetworkError(
        N_("could not check for updates (Nexus: {nexus}; Forgejo: {forgejo})"),
        nexus=reasons.get("nexus", ""),
        forgejo=reasons.get("forgejo", ""),
        hint_key=N_("check the network, GZ_NEXUS_SEARCH_URL and GZ_FORGEJO_API_URL; behind a proxy "
                    "set HTTPS_PROXY or HTTP_PROXY"),
        details={"reasons": reasons},
    )


def _not_published(answered: list[Source], want: Want, reasons: dict[str, str]) -> GzError:
    """Every source that answered has nothing matching ``want``: retrying cannot help."""

    names = [s.name.capitalize() for s in answered]
    where = (gettext("in {first} nor {second}", first=names[0], second=names[1]) if len(names) == 2
             else gettext("in {name}", name=names[0]))
    platform = want.platform or platform_tag()
    version = str(want.version) if want.version is not None else None
    return NotFoundError(
        (N_("version {version} is not published for {platform} {where}")
         if version else N_("no gz-ia release is published for {platform} {where}")),
        version=version, platform=platform, where=where,
        hint_key=(N_("'gz-ia update --check' shows the newest published version")
                  if version else None),
        details={"version": version, "platform": platform,
                 "sources": [s.name for s in answered], "reasons": reasons})
