"""``gz-ia session ...``: the command group, one module per concern.

``commands`` builds the typer app (the ``gzia.commands`` entry point); ``common`` holds
what every subcommand shares (``-d/--dir``, ids, opening the store); ``listing`` is
``session list``; ``views`` renders; ``events``, ``control`` and ``process`` hold the
log, kill/resume and process subcommands.

This file stays empty on purpose: the quick path of ``gz-ia session list``
(gzia/cli/quick.py) imports ``gzia.cli.session.listing`` without click or typer, and
Python runs this file first.
"""
