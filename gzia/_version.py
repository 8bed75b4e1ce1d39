"""Version of gz-ia. build/shiv.sh rewrites this file in its build copy to embed the release.

``python -m gzia`` imports it before it checks the Python (gzia/preflight.py): plain
assignments only."""

__version__ = "0.1.0"
COMMIT = "none"
DATE = "unknown"
