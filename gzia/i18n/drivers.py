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

ES = {
    "not_available": "el agente '{name}' ({binary}) no está disponible en el PATH.",
    "install_line": "Instalación: {hint}",
    "unknown_provider": "proveedor de agente desconocido: '{provider}' (válidos: {valid})",
    "unknown_permission": "nivel de permiso desconocido: '{permission}' (válidos: {valid})",
    "none_available": "no se encontró ningún agente en el PATH (buscados: {providers}).",
    "none_available_hint": "instala uno (mira 'gz-ia drivers') o usa '--provider shell'",
    "invalid_conversation_id": "id de conversación inválido para {provider}: '{conversation_id}'",
    "readonly_unsupported": (
        "el agente '{name}' no se puede restringir a solo lectura; elige supervised o autonomous"
    ),
    "bad_mcp_config": "no se puede usar la configuración MCP {path}: {detail}",
    "plugin_failed": "no se pudo cargar el driver '{provider}': {error}",
    "not_a_driver": "'{name}' no proporciona un driver (falta: {missing})",
    "id_mismatch": "el entry point '{name}' proporciona un driver cuyo id es '{driver_id}'",
    "hint_agy": "Instala Google Antigravity CLI siguiendo las instrucciones oficiales.",
    "hint_claude": "npm install -g @anthropic-ai/claude-code",
    "hint_opencode": "curl -fsSL https://opencode.ai/install | bash",
    "hint_pi": "npm install -g @mariozechner/pi-coding-agent",
    "column_id": "ID",
    "column_name": "NOMBRE",
    "column_status": "ESTADO",
    "column_version": "VERSIÓN",
    "status_available": "disponible",
    "status_missing": "no encontrado",
    "install_header": "Para instalar los agentes que faltan:",
    "listed_hint": "  {id}: {hint}",
    "not_answering": (
        "el agente '{name}' no respondió a '--version' en {seconds:g} s: su versión es "
        "desconocida"
    ),
}
