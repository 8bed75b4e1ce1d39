"""The terminal UI (``gz-ia start``, and bare ``gz-ia`` on a terminal), built on Textual.

Only ``gz-ia start`` imports this package: Textual must not slow down other commands
(tests/core/test_architecture.py). The screens hold no logic about sessions, merges or
updates: :mod:`gzia.tui.services` calls the same code the CLI commands call.
"""
