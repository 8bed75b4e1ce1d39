"""``gz-ia session ...``: the command group, one module per concern.

``commands`` builds the typer app (the ``gzia.commands`` entry point); ``common`` holds
what every subcommand shares (``-d/--dir``, ids, opening the store); ``listing`` is
``session list``; ``views`` renders; ``events``, ``control`` and ``process`` hold the
log, kill/resume and process subcommands.
"""
