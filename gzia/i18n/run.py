"""Messages about running agents: chat, exec, resume, session kill/resume."""

EN = {
    "empty_command": "no command to run",
    "bad_argument": "invalid command argument: {argument}",
    "program_not_found": "executable '{program}' not found in PATH",
    "program_not_executable": "'{program}' cannot be executed (permission denied)",
    "cwd_not_found": "working directory '{path}' does not exist",
}

ES = {
    "empty_command": "no hay comando que ejecutar",
    "bad_argument": "argumento de comando inválido: {argument}",
    "program_not_found": "ejecutable '{program}' no encontrado en el PATH",
    "program_not_executable": "'{program}' no se puede ejecutar (permiso denegado)",
    "cwd_not_found": "el directorio de trabajo '{path}' no existe",
}
