"""The built-in tool plugins (each registered under ``gzia.tools`` in pyproject.toml)."""
