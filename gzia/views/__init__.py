"""What people read, shared by the command line and the terminal UI.

A view takes domain objects (records, reports, events) and returns text lines in the
user's language; it prints nothing and knows neither click nor textual. ``gzia/cli``
prints the lines (or writes JSON instead), ``gzia/tui`` shows them on its screens.
"""
