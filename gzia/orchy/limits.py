"""How long a tool call may take and how many failures in a row make a tool DEAD, unless
``gz-ia mcp --tool-timeout/--max-failures`` say otherwise: the one place of both defaults,
light enough for the command line to import for its help."""

DEFAULT_MAX_FAILURES = 5
DEFAULT_TIMEOUT = 30.0
