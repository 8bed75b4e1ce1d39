"""What each agent reads, and so where a profile's parts go in a session's worktree.

Checked against the agents' own packages (docs/profiles.md names the versions).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class AgentLayout:
    instructions: str
    """The instructions file the agent reads at the worktree's top."""
    skills_dir: str
    """Where the agent finds skills (``<dir>/<name>/SKILL.md``), relative to the worktree."""
    mcp_file: str | None = None
    """A worktree file the agent reads MCP servers from; ``None``: they reach it through
    gz-ia's MCP configuration (``--mcp-config`` / ``OPENCODE_CONFIG_CONTENT``), or not at all."""
    more_instructions: str | None = None
    """A second file the agent reads instructions from, beside ``instructions``: the
    profiles' instructions go there when the project has its own ``instructions`` file
    (which a projection never touches)."""
    instructions_config: str | None = None
    """An environment variable holding the agent's inline JSON configuration, whose
    ``instructions`` list may name a file outside the worktree: the profiles'
    instructions go there when the project has its own file and no ``more_instructions``.
    With neither, such a projection is refused."""


LAYOUTS: dict[str, AgentLayout] = {
    "claude": AgentLayout("CLAUDE.md", ".claude/skills",
                          more_instructions=".claude/rules/gz-ia-profiles.md"),
    "opencode": AgentLayout("AGENTS.md", ".opencode/skills",
                            instructions_config="OPENCODE_CONFIG_CONTENT"),
    "pi-agent": AgentLayout("AGENTS.md", ".pi/skills", ".pi/mcp.json",
                            more_instructions=".pi/APPEND_SYSTEM.md"),
    "agy": AgentLayout("AGENTS.md", ".agents/skills", ".agents/mcp_config.json"),
}
GENERIC = AgentLayout("AGENTS.md", ".agents/skills")
"""The shell and third-party drivers: the common AGENTS.md and ``.agents/skills``."""


def layout_for(driver_id: str) -> AgentLayout:
    return LAYOUTS.get(driver_id, GENERIC)
