"""The new-session form's sandbox row: why it cannot be changed, when it cannot
(:mod:`gzia.sessions.sandbox_choice` decides)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from gzia.i18n import gettext

if TYPE_CHECKING:
    from gzia.sessions.sandbox_choice import SandboxOffer


def why_locked(offer: SandboxOffer) -> list[str]:
    """The lines under a locked row (none when it can be changed): no ``bwrap`` and how to
    install it, what ``bwrap`` answered, or the policy file that requires the sandbox."""
    from gzia.sessions.sandbox_choice import INSTALL_HINT

    support = offer.support
    if support.bwrap is None:
        return [gettext("no sandbox here: bubblewrap (bwrap) is not installed"),
                gettext(INSTALL_HINT)]
    if support.problem is not None:
        return [gettext("no sandbox here: bubblewrap cannot create one ({problem})",
                        problem=support.problem), gettext("'gz-ia doctor' checks it")]
    if offer.policy_file is not None:
        return [gettext("required by the administrator's policy ({file})",
                        file=offer.policy_file)]
    return []
