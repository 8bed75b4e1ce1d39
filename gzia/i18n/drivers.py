"""Messages about agent drivers: availability, install hints, providers, permissions."""

EN = {
    "not_available": "agent '{name}' ({binary}) is not available on PATH.",
    "install_line": "Install: {hint}",
    "unknown_provider": "unknown agent provider: '{provider}' (valid: {valid})",
    "unknown_permission": "unknown permission level: '{permission}' (valid: {valid})",
    "none_available": "no agent found on PATH (looked for: {providers}).",
    "none_available_hint": "install one (see 'gz-ia drivers'), or use '--provider shell'",
    "invalid_conversation_id": "invalid conversation id for {provider}: '{conversation_id}'",
    "readonly_unsupported": (
        "agent '{name}' cannot be restricted to read-only; choose supervised or autonomous"
    ),
    "bad_mcp_config": "cannot use the MCP configuration {path}: {detail}",
    "plugin_failed": "driver '{provider}' could not be loaded: {error}",
    "not_a_driver": "'{name}' does not provide a driver (missing: {missing})",
    "id_mismatch": "entry point '{name}' provides a driver whose id is '{driver_id}'",
    "hint_agy": "Install the Google Antigravity CLI following the official instructions.",
    "hint_claude": "npm install -g @anthropic-ai/claude-code",
    "hint_opencode": "curl -fsSL https://opencode.ai/install | bash",
    "hint_pi": "npm install -g @mariozechner/pi-coding-agent",
    "column_id": "ID",
    "column_name": "NAME",
    "column_status": "STATUS",
    "column_version": "VERSION",
    "status_available": "available",
    "status_missing": "missing",
    "install_header": "To install the missing agents:",
    "listed_hint": "  {id}: {hint}",
    "not_answering": (
        "agent '{name}' did not answer '--version' within {seconds:g} s: its version is unknown"
    ),
}
