"""What ``session pr`` says, and how a session's pull request reads in ``show`` and the TUI."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from gzia.i18n import N_, gettext

if TYPE_CHECKING:
    from gzia.sessions.review import PrResult

_MSG_PR_STATE: dict[object, str] = {
    "open": N_("open"),
    "closed": N_("closed"),
    "merged": N_("merged"),
}


def pull_request_text(pull_request: dict[str, Any]) -> str:
    """``#12 open https://forge.example/acme/widget/pulls/12``."""
    state = pull_request.get("state")
    word = gettext(_MSG_PR_STATE[state]) if state in _MSG_PR_STATE else str(state)
    return f"#{pull_request.get('number')} {word} {pull_request.get('url') or ''}".rstrip()


def render_pr(result: PrResult) -> list[str]:
    pr, session_id = result.pull_request, result.session.id
    if result.push is None:
        return [gettext("Pull request of session '{id}': {pr}", id=session_id,
                        pr=pull_request_text(pr.to_json()))]
    key = (N_("✓ Session '{id}' pushed to {remote}; pull request #{number} opened: {url}")
           if result.created else
           N_("✓ Session '{id}' pushed to {remote}; pull request #{number} was already open: "
              "{url}"))
    return [gettext(key, id=session_id, remote=result.push.remote, number=pr.number,
                    url=pr.url)]
