"""Messages of Orchy, the MCP server (``gz-ia mcp``)."""

EN = {
    "arguments_not_object": "the tool's arguments must be a JSON object",
    "unknown_argument": "unknown argument '{name}'",
    "missing_argument": "missing required argument '{name}'",
    "argument_type": "argument '{name}' must be of type {type}",
    "argument_choice": "argument '{name}' must be one of: {choices}",
    "argument_minimum": "argument '{name}' must be at least {minimum}",
    "argument_empty": "argument '{name}' must not be empty",
    "tool_timed_out": "tool '{name}' did not finish within {seconds} s and was stopped",
    "commit_not_isolated": (
        "session {id} works directly in the project (no worktree): workspace_commit "
        "commits only in an isolated session"
    ),
    "unknown_tool": "no tool named '{name}' (tools: {known})",
}
