"""Orchy: the MCP server that gives an agent its session's tools (``gz-ia mcp``).

``tool`` (what a tool is, its exact input schema), ``proxy`` (the circuit breaker every
call goes through), ``kernel`` (tool plugins from the ``gzia.tools`` entry points, booted
in order and shut down in reverse), ``server`` (the stdio transport on the official MCP
SDK, the only module that imports it), ``wire`` (stdin read in bounded memory),
``results`` (a tool's result bounded), ``limits`` (every option range and size bound)
and ``tools/`` (the built-in plugins, registered in pyproject.toml exactly as a
third-party plugin registers its own).
"""
