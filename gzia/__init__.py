"""gz-ia: run AI coding-agent CLIs as managed sessions in isolated git worktrees.

``python -m gzia`` imports this file before it checks the Python: it keeps to the syntax
gzia/preflight.py describes.
"""

from gzia._version import __version__

__all__ = ["__version__"]
