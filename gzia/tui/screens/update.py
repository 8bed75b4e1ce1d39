"""The update screen: check, then current -> new version and its source, confirm, progress,
result; and rollback. The calls are ``gz-ia update``'s own (:mod:`gzia.tui.updating`), each in
a worker thread, so the screen stays responsive while a registry is slow.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

from textual.app import ComposeResult
from textual.binding import BindingType
from textual.containers import VerticalScroll
from textual.widgets import Footer, ProgressBar, Static

from gzia.contract import Problem
from gzia.i18n import N_, gettext
from gzia.tui import updating
from gzia.tui.keys import key
from gzia.tui.screens.base import GzScreen
from gzia.tui.screens.forms import ask, problem_text
from gzia.views.problems import warning_line
from gzia.views.update_check import (
    after_check,
    after_update,
    channel_lines,
    check_verdict,
    update_verdict,
)


class UpdateScreen(GzScreen):
    """Checks on arrival; ``u`` installs what the check found, ``r`` rolls back."""

    BINDINGS: ClassVar[list[BindingType]] = [
        key("c", "check", N_("Check")),
        key("u", "install", N_("Install")),
        key("r", "rollback", N_("Roll back")),
    ]
    DEFAULT_CSS = """
    UpdateScreen #update-body { padding: 0 1; }
    UpdateScreen .title { text-style: bold; margin-bottom: 1; }
    UpdateScreen #progress { display: none; margin: 1 0; }
    UpdateScreen #progress.-shown { display: block; }
    UpdateScreen #result { margin-top: 1; }
    """

    def __init__(self) -> None:
        super().__init__()
        self.found: dict[str, Any] | None = None
        """The last check's answer (``gz-ia update --check --json``'s data)."""
        self.advice: dict[str, Any] = {}
        """What ``update --check`` advises after that answer (:func:`updating.advice`)."""
        self.busy = False
        self.warnings: list[str] = []
        """The running call's warnings, as the CLI prints them: sources that failed, manifests
        refused or missing, the running version yanked."""

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="update-body"):
            yield Static(gettext("Update gz-ia"), classes="title")
            yield Static(gettext("❯ Current version: v{version}",
                                 version=updating.running_version()),
                         id="current", markup=False)
            yield Static("", id="remote", markup=False)
            yield Static("", id="channel", markup=False)
            yield Static("", id="verdict", markup=False)
            yield Static("", id="warnings", markup=False)
            yield ProgressBar(id="progress", show_eta=False)
            yield Static("", id="result", markup=False)
        yield Footer()

    def on_mount(self) -> None:
        self.action_check()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in ("check", "install", "rollback") and self.busy:
            return None  # shown, greyed out, while a call runs
        if action == "install":
            return True if self.found is not None and _installable(self.found,
                                                                   self.advice) else None
        return True

    def action_check(self) -> None:
        self.found = None
        self._show(remote="", channel="", verdict="")
        self._start(lambda: updating.check(self._warn_from_thread), self._checked,
                    gettext("Checking for gz-ia updates..."))

    def action_install(self) -> None:
        found = self.found
        if found is None or not _installable(found, self.advice):
            return
        ask(self, _question(found, self.advice),
            lambda: self._start(self._install, self._installed, ""))

    def action_rollback(self) -> None:
        path = updating.installed_path()
        if path is None:  # the service says why, as the CLI does
            self._start(updating.rollback, self._rolled_back, "")
            return
        ask(self, gettext("Go back to the version that ran before the last update ({path})?",
                          path=str(updating.previous_of(path))),
            lambda: self._start(updating.rollback, self._rolled_back, ""))

    def _install(self) -> dict[str, Any]:
        return updating.install(self._warn_from_thread, self._progress_from_thread,
                                self._installing_from_thread)

    def _start(self, job: Callable[[], dict[str, Any]],
               done: Callable[[dict[str, Any]], None], status: str) -> None:
        """Run ``job`` in a worker thread; the keys wait, greyed out, until it ends."""
        self.busy = True
        self.warnings.clear()
        self._show(warnings="", result=status)
        self.refresh_bindings()
        self.call(job, lambda result: self._ended(done, result), group="update",
                  failed=self._failed)

    def _ended(self, done: Callable[[dict[str, Any]], None], result: dict[str, Any]) -> None:
        self._idle()
        done(result)

    def _failed(self, exc: BaseException) -> None:
        self._idle()
        self._show(result=problem_text(exc))

    def _idle(self) -> None:
        self.busy = False
        self.query_one("#progress").remove_class("-shown")
        self.refresh_bindings()

    def _checked(self, found: dict[str, Any]) -> None:
        self.found, self.advice = found, updating.advice(found)
        self._add_warnings(after_check(found, self.advice))
        self._show(remote=gettext("✧ Remote version: v{version} ({source})",
                                  version=found["latest"],
                                  source=found["source"]),
                   channel="\n".join(channel_lines(found)), verdict=_verdict(found, self.advice),
                   result="")

    def _installed(self, result: dict[str, Any]) -> None:
        self.found = None
        self._add_warnings(after_update(result))
        self._show(result=_installed(result))

    def _rolled_back(self, result: dict[str, Any]) -> None:
        self._show(result="\n".join([
            gettext("✓ gz-ia rolled back to v{version} in {path}", version=result["version"],
                    path=result["path"]),
            gettext("Quit and start gz-ia again to run that version.")]))

    def _show(self, **texts: str) -> None:
        for name, text in texts.items():
            shown = self.query_one(f"#{name}", Static)
            shown.update(text)
            shown.display = bool(text)

    def _warn_from_thread(self, problem: Problem) -> None:
        self.app.call_from_thread(self._add_warnings, [problem])

    def _add_warnings(self, problems: list[Problem]) -> None:
        self.warnings += [warning_line(problem) for problem in problems]
        self._show(warnings="\n".join(self.warnings))

    def _installing_from_thread(self, version: str) -> None:
        self.app.call_from_thread(self._installing, version)

    def _installing(self, version: str) -> None:
        self._show(result=gettext("↻ Downloading and installing gz-ia v{version}...",
                                  version=version))
        bar = self.query_one("#progress", ProgressBar)
        bar.update(total=None, progress=0)
        bar.add_class("-shown")

    def _progress_from_thread(self, done: int, total: int | None) -> None:
        self.app.call_from_thread(self.query_one("#progress", ProgressBar).update,
                                  total=total, progress=done)


def _installable(found: dict[str, Any], advice: dict[str, Any]) -> bool:
    """What ``gz-ia update`` would install: a newer version, or the channel's version when
    the channel yanked the running one (even an older one: the one downgrade it makes), as
    ``update --check`` says (:func:`gzia.update.advice.leaving_yank`)."""
    return bool(found["newer"]) or advice["leaving"] is not None


def _question(found: dict[str, Any], advice: dict[str, Any]) -> str:
    if found["newer"]:
        return gettext("New version available (v{current} -> v{version}). Download and install "
                       "it now?",
                       current=found["current"], version=found["latest"])
    return gettext("Leave the yanked v{current} for v{version}, the version of channel "
                   "{channel}? Download and install it now?",
                   current=found["current"], version=advice["leaving"],
                   channel=found["channel"])


def _verdict(found: dict[str, Any], advice: dict[str, Any]) -> str:
    if found["newer"]:
        return gettext("⚡ New version available: v{current} -> v{version} ({source})",
                       current=found["current"],
                       version=found["latest"], source=found["source"].capitalize())
    return check_verdict(found, advice)  # off a yanked version, or none: the CLI's words


def _installed(result: dict[str, Any]) -> str:
    if result["updated"]:
        return "\n".join([gettext("✓ gz-ia updated successfully to v{version} in {path}",
                                  version=result["version"], path=result["path"]),
                          gettext("Quit and start gz-ia again to run that version.")])
    return update_verdict(result, updating.advice(result))
