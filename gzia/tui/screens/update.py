"""Placeholder for the update screen, until its screen replaces this module."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.widgets import Footer, Static

from gzia.i18n import t
from gzia.tui.screens.base import GzScreen


class UpdateScreen(GzScreen):
    def compose(self) -> ComposeResult:
        yield Static(t("tui.placeholder_update"))
        yield Footer()
