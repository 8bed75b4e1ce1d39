"""The actions on one session, shared by the sessions screen and the detail screen.

Each calls the service its ``gz-ia session`` command calls (:mod:`gzia.tui.services`).
Kill, merge, delete, pause and prune ask first (:class:`ConfirmScreen`); kill, merge, delete
and pause run their command's checks before the question, so a refusal they already know is shown
at once, without a question first. Merge shows the files it would bring in; a delete that
would be refused offers the forced delete, asked twice, the second time listing what is
lost. Attach and resume give the terminal to the session: the TUI is suspended until
the session detaches or ends; revive resumes a paused session in the background instead.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from textual.app import SuspendNotSupported

from gzia.i18n import gettext, ngettext, pgettext
from gzia.sessions.record import SessionRecord
from gzia.tui import services
from gzia.tui.screens.base import GzScreen, terminal_lent
from gzia.tui.screens.confirm import NameScreen, NoticeScreen, TextScreen
from gzia.tui.screens.forms import ask
from gzia.tui.services import problem_of
from gzia.views.problems import error_lines

if TYPE_CHECKING:
    from gzia.sessions.delete import DeletePreview
    from gzia.sessions.merge import MergePreview
    from gzia.sessions.store import SessionStore


class SessionActions(GzScreen):
    """A screen with a current session (:meth:`current`) and the actions on it."""

    def current(self) -> SessionRecord | None:
        raise NotImplementedError

    def reload(self) -> None:
        """Read the store again after an action changed something."""

    def after_removal(self) -> None:
        """The current session no longer exists (deleted)."""
        self.reload()

    def _with_current(self, act: Callable[[SessionRecord], None]) -> None:
        record = self.current()
        if record is not None:
            act(record)

    def _done(self, message: str) -> None:
        self.notify(message, markup=False)
        self.reload()

    def _report(self, title: str, lines: list[str]) -> None:
        self.app.push_screen(NoticeScreen(title, lines))
        self.reload()

    def action_kill(self) -> None:
        self._with_current(self._kill)

    def _kill(self, record: SessionRecord) -> None:
        """The refusal ``session kill`` would make (a session that has ended) comes
        first, without a question; then the stop's question, or the kill's once a stop was
        asked and the session still runs."""
        store = self.context.store

        def checked(current: SessionRecord) -> None:
            if current.stop_requested_at is None:
                ask(self, gettext("Stop session '{id}'? Its agent is asked to end as a person "
                                  "would end it, and killed if it has not ended in time.",
                                  id=record.id),
                    lambda: self.call(lambda: services.stop(store, record.id), self._done))
                return
            ask(self, gettext("Kill session '{id}'? Its processes get SIGTERM, then SIGKILL after "
                              "the grace.", id=record.id),
                lambda: self.call(lambda: services.kill(store, record.id), self._done))

        self.call(lambda: killable(store, record.id), checked)

    def action_delete(self) -> None:
        self._with_current(self._delete)

    def _delete(self, record: SessionRecord) -> None:
        """``session delete``'s checks first: nothing to refuse, the question; a refusal
        (work that exists nowhere else, a session that runs), the refusal in the CLI's
        words and the offer of a forced delete, asked twice, the second time with what
        would be lost."""
        store = self.context.store
        self.call(lambda: services_preview_delete(store, record.id), self._delete_checked)

    def _delete_checked(self, preview: DeletePreview) -> None:
        session_id = preview.record.id
        if preview.refusal is None:
            ask(self, gettext("Delete session '{id}' from .harness/sessions/ (its worktree and "
                              "branch too)?", id=session_id),
                lambda: self._delete_now(session_id, force=False))
            return
        ask(self, gettext("Delete session '{id}' anyway, as --force does?", id=session_id),
            lambda: ask(self, gettext("Delete session '{id}' for good? This is lost:",
                                      id=session_id),
                        lambda: self._delete_now(session_id, force=True), lost_lines(preview)),
            [*error_lines(problem_of(preview.refusal)), instead_of_deleting(preview)])

    def _delete_now(self, session_id: str, *, force: bool) -> None:
        store = self.context.store

        def deleted(message: str) -> None:
            self.notify(message, markup=False)
            self.after_removal()

        self.call(lambda: services.delete(store, session_id, force=force), deleted)

    def action_merge(self) -> None:
        self._with_current(self._merge)

    def _merge(self, record: SessionRecord) -> None:
        store = self.context.store

        def checked(preview: MergePreview) -> None:
            question = gettext("Bring the changes of session '{id}' into {into} and merge them?",
                               id=record.id, into=preview.into or "HEAD")
            ask(self, question, lambda: self.call(
                lambda: services.merge(store, record.id),
                lambda lines: self._report(gettext("Merge of session {id}", id=record.id), lines)),
                merge_details(preview))

        self.call(lambda: services.preview_merge(store, record.id), checked)

    def action_prune(self) -> None:
        store = self.context.store
        ask(self,
            gettext("Remove worktrees and harness/* "
                    "branches that have no record?"), lambda: self.call(
            lambda: services.prune(store),
            lambda lines: self._report(pgettext("tui.prune_title", "Prune"), lines)))

    def action_pause(self) -> None:
        self._with_current(self._pause)

    def _pause(self, record: SessionRecord) -> None:
        """``session pause``, asked first: a running agent is stopped, the uncommitted work
        committed on the session's branch and the worktree removed. The refusals it makes
        before it changes anything (a direct-mode session, a worktree on another branch)
        come at once, without the question."""
        from gzia.sessions.pause import check_pausable

        store = self.context.store
        question = gettext("Pause session '{id}'? Its agent is stopped if it runs, its "
                           "uncommitted work is committed on its branch and its worktree is "
                           "removed.", id=record.id)
        self.call(lambda: check_pausable(store, record.id), lambda _: ask(
            self, question,
            lambda: self.call(lambda: services.pause(store, record.id), self._done)))

    def action_revive(self) -> None:
        self._with_current(self._revive)

    def _revive(self, record: SessionRecord) -> None:
        """``session revive -b``: the worktree back, the agent resumed in the background
        (the TUI keeps the terminal); the warnings it would print, shown."""
        store, tools = self.context.store, self.context.preapproved_tools

        def revived(result: tuple[str, list[str]]) -> None:
            message, warnings = result
            for warning in warnings:
                self.notify(warning, severity="warning", markup=False)
            self._done(message)

        self.call(lambda: services.revive_in_background(store, record.id, tools), revived)

    def action_send_input(self) -> None:
        self._with_current(self._send_input)

    def _send_input(self, record: SessionRecord) -> None:
        def entered(answer: tuple[str, str] | None) -> None:
            if answer is None:
                return
            how, text = answer
            send = services.submit if how == "submit" else services.send_keys
            self.call(lambda: send(record, text), self._done)

        self.app.push_screen(TextScreen(gettext("Send to session {id}", id=record.id)), entered)

    def action_rename(self) -> None:
        self._with_current(self._rename)

    def _rename(self, record: SessionRecord) -> None:
        """``session rename``'s checks and messages (an empty name takes it away)."""
        store = self.context.store

        def entered(text: str | None) -> None:
            if text is not None:
                self.call(lambda: services.rename(store, record.id, text), self._done)

        self.app.push_screen(NameScreen(gettext("Rename session {id}", id=record.id),
                                        record.name), entered)

    def action_attach(self) -> None:
        store = self.context.store
        self._with_current(lambda record: self._on_the_terminal(
            lambda: services.attach(store, record)))

    def action_resume(self) -> None:
        store, tools = self.context.store, self.context.preapproved_tools
        self._with_current(lambda record: self._on_the_terminal(
            lambda: _resumed(store, record, tools)))

    def _on_the_terminal(self, job: Callable[[], str]) -> None:
        """Give the terminal to ``job`` (attach, resume), the TUI suspended meanwhile."""
        try:
            with terminal_lent(self.app):
                message = job()
        except SuspendNotSupported:
            self.notify(gettext("This terminal cannot be handed over (no suspend here)."),
                        severity="error")
            return
        except Exception as exc:  # shown as the CLI words it
            self.show_problem(exc)
            self.reload()
            return
        self._done(message)


def killable(store: SessionStore, session_id: str) -> SessionRecord:
    """The session as stored, if ``session kill`` would signal it (else its refusal)."""
    from gzia.sessions.kill import check_killable

    record = services.load_session(store, session_id)
    check_killable(record)
    return record


def services_preview_delete(store: SessionStore, session_id: str) -> DeletePreview:
    """``session delete``'s checks, on the record as stored; nothing changes."""
    from gzia.sessions.delete import preview_delete

    return preview_delete(store, services.load_session(store, session_id))


def instead_of_deleting(preview: DeletePreview) -> str:
    """The refused delete's way out, as the TUI's keys (the refusal names commands)."""
    if preview.record.is_running:
        return gettext("To stop it first: n, then k.")
    return gettext("To keep its work: n, then m merges it.")


FILES_LISTED = 10
"""The most uncommitted files the forced delete's question names (then how many more)."""


def lost_lines(preview: DeletePreview) -> list[str]:
    """What a forced delete removes for good: the running agent, the worktree with its
    uncommitted changes, the branch with its unmerged commits."""
    lines = []
    if preview.record.is_running:
        lines.append(gettext("  • the running agent (PID {pid}): it is stopped",
                             pid=preview.record.pid))
    if preview.worktree is not None:
        lines.append(gettext("  • the worktree {path}", path=str(preview.worktree)))
    files = preview.work.files
    if files:
        lines.append(ngettext("  • {count} uncommitted change:", "  • {count} uncommitted changes:",
                              len(files)))
        lines += (f"      {name}" for name in files[:FILES_LISTED])
        if len(files) > FILES_LISTED:
            lines.append(gettext("      … and {count} more", count=len(files) - FILES_LISTED))
    if preview.branch is not None:
        lines.append(ngettext("  • the branch {branch}, with {count} commit merged nowhere",
                              "  • the branch {branch}, with {count} commits merged nowhere",
                              preview.work.commits, branch=preview.branch))
    return lines


def _resumed(store: SessionStore, record: SessionRecord, tools: tuple[str, ...]) -> str:
    services.resume(store, record, tools)
    return gettext("Session '{id}' ended; back in gz-ia.", id=record.id)


def merge_details(preview: MergePreview) -> list[str]:
    """What the merge would bring in, as ``session merge`` lists it."""
    if preview.already_up_to_date:
        return [gettext("✧ The branch is already up to date. Nothing to merge.")]
    return [gettext("Integrated files:"), *(f"  • {name}" for name in preview.files)]
