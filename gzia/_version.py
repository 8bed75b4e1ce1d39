"""Version of gz-ia. build/shiv.sh rewrites this file in its build copy to embed the release."""

__version__ = "0.1.0"
COMMIT = "none"
DATE = "unknown"
