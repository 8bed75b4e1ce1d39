"""gz-ia: run AI coding-agent CLIs as managed sessions in isolated git worktrees."""

from gzia._version import __version__

__all__ = ["__version__"]
