"""``gz-ia session ...``: the command group, one module per subcommand (or two, with an alias).

``commands`` is the group (the ``gzia.commands`` entry point) and names each subcommand's
module, imported only when that subcommand runs; ``common`` holds what every subcommand
shares (``-d/--dir``, ids, opening the store).
"""
