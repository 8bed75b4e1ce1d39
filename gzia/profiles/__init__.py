"""Profiles and skills: named bundles of agent instructions, skills, MCP servers and env.

:mod:`.catalog` finds profiles and skills on disk, :mod:`.manifest` and :mod:`.projection`
put a session's profiles into its workspace (docs/profiles.md).
"""
