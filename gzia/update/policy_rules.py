"""What the administrator's policy (:mod:`gzia.policy`) allows ``gz-ia update`` to do:
the flags it permits and the versions it may install."""

from __future__ import annotations

from typing import TYPE_CHECKING

from gzia.contract import SafetyBlockError
from gzia.i18n import N_
from gzia.policy import Policy, refuse_forbidden, specifier

if TYPE_CHECKING:
    from gzia.update.model import Release

FLAG_RULES = (("allow_downgrade", "--allow-downgrade"), ("allow_pre", "--pre"))


def refuse_forbidden_flags(policy: Policy, **given: bool) -> None:
    """``SAFETY_BLOCK`` for a flag the policy withholds (``allow_downgrade=True`` means
    ``--allow-downgrade`` was given)."""
    for rule, flag in FLAG_RULES:
        if given.get(rule):
            refuse_forbidden(rule, flag, policy)


def allowed_releases(releases: list[Release], policy: Policy) -> list[Release]:
    """The releases within the policy's ``versions``; ``SAFETY_BLOCK`` when none is."""
    rule = policy.update.get("versions")
    if rule is None:
        return releases
    allowed = specifier(rule.value)
    kept = [r for r in releases if allowed.contains(r.version, prereleases=True)]
    if not kept:
        raise SafetyBlockError(N_("the administrator's policy in {file} allows only gz-ia "
                                  "{versions}, and no such release was found"),
                               file=str(rule.file), versions=rule.value,
                               hint_key=N_("ask the administrator of this machine"),
                               details={"file": str(rule.file), "versions": rule.value,
                                        "found": [r.label for r in releases]})
    return kept
