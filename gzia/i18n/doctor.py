"""Messages of ``gz-ia doctor``."""

EN = {
    "python": "Python {version}",
    "python_fix": "install Python 3.11 or newer",
    "git": "git {version}",
    "git_missing": "git not found on PATH",
    "git_old": "git {version} is older than 2.38 (merge conflicts cannot be checked first)",
    "git_fix": "install git 2.38 or newer",
    "config_ok": "configuration {file}",
    "config_fix": "fix or remove {file}",
    "plugins_ok": "{count} plugins loaded",
    "plugins_ok_one": "1 plugin loaded",
    "plugins_failed": "{count} plugins failed: {names}",
    "plugins_failed_one": "1 plugin failed: {names}",
    "plugins_fix": "run 'gz-ia plugins' to see why",
    "agents_ok": "agents available: {names}",
    "agents_none": "no agent CLI found on PATH (only the shell driver)",
    "agents_fix": "install an agent, e.g. {hint}",
    "update_ok": "update sources: {sources}",
    "update_none": "no update source configured",
    "update_fix": "set GZ_NEXUS_SEARCH_URL or GZ_FORGEJO_API_URL (gz-ia config set ...)",
    "legacy_base_unsupported": "GZ_NEXUS_BASE_URL cannot be used: it is not "
                               "<nexus>/repository/<repository>/gz-ia, so no search URL "
                               "follows from it",
    "legacy_base_fix": "set GZ_NEXUS_SEARCH_URL (<nexus>/service/rest/v1/search/assets"
                       "?repository=<repository>) and unset GZ_NEXUS_BASE_URL",
    "mcp_ok": "MCP server can start (mcp SDK {version})",
    "mcp_broken": "MCP server cannot start: {error}",
    "mcp_fix": "reinstall gz-ia: its pyz for this platform and Python carries the MCP SDK",
    "ready": "✓ gz-ia is ready",
    "not_ready": "✕ gz-ia is not ready: fix the items marked ✕",
}
