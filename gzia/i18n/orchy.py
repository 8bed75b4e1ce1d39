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
    "bad_tool_timeout": "--tool-timeout must be a number of seconds from {low} to {high} (got {value})",
    "bad_max_failures": "--max-failures must be a whole number from {low} to {high} (got {value})",
    "result_truncated": "[result truncated: {size} bytes, more than the {limit} a tool may return]",
}

ES = {
    "arguments_not_object": "los argumentos de la herramienta deben ser un objeto JSON",
    "unknown_argument": "argumento desconocido '{name}'",
    "missing_argument": "falta el argumento obligatorio '{name}'",
    "argument_type": "el argumento '{name}' debe ser de tipo {type}",
    "argument_choice": "el argumento '{name}' debe ser uno de: {choices}",
    "argument_minimum": "el argumento '{name}' debe ser al menos {minimum}",
    "argument_empty": "el argumento '{name}' no puede estar vacío",
    "tool_timed_out": "la herramienta '{name}' no terminó en {seconds} s y fue detenida",
    "commit_not_isolated": (
        "la sesión {id} trabaja directamente en el proyecto (sin worktree): workspace_commit "
        "solo hace commits en una sesión aislada"
    ),
    "unknown_tool": "no hay ninguna herramienta llamada '{name}' (herramientas: {known})",
    "bad_tool_timeout": (
        "--tool-timeout debe ser un número de segundos entre {low} y {high} (recibido: {value})"
    ),
    "bad_max_failures": (
        "--max-failures debe ser un número entero entre {low} y {high} (recibido: {value})"
    ),
    "result_truncated": (
        "[resultado truncado: {size} bytes, más que los {limit} que puede devolver una herramienta]"
    ),
}
