"""What ``session update`` and ``--resolve-with-agent`` say."""

from __future__ import annotations

from typing import TYPE_CHECKING

from gzia.i18n import gettext, ngettext

if TYPE_CHECKING:
    from gzia.sessions.merge import UpdateResult
    from gzia.sessions.record import SessionRecord


def render_update(result: UpdateResult) -> list[str]:
    if result.already_up_to_date:
        return [gettext("✧ Session '{id}' is already up to date with {base}.",
                        id=result.session_id, base=result.base.shown)]
    key = (gettext("✓ Session '{id}' rebased onto {base} ({commit}).", id=result.session_id,
                   base=result.base.shown, commit=result.base.commit[:12])
           if result.method == "rebase" else
           gettext("✓ {base} ({commit}) merged into session '{id}'.", id=result.session_id,
                   base=result.base.shown, commit=result.base.commit[:12]))
    return [key]


def render_handoff(session_id: str, resolver: SessionRecord, files: list[str],
                   agent: str) -> list[str]:
    return [
        ngettext("⇢ The conflict in {count} file of session '{id}' is handed to session "
                 "'{new}' ({agent}): {files}",
                 "⇢ The conflicts in {count} files of session '{id}' are handed to session "
                 "'{new}' ({agent}): {files}",
                 len(files), id=session_id, new=resolver.id, agent=agent,
                 files=", ".join(files)),
        gettext("Review it with gz-ia session diff {new}, then merge it instead of '{id}': "
                "gz-ia session merge {new}", new=resolver.id, id=session_id),
    ]
