"""Messages of the CLI core: usage errors, signals, internal failures."""

EN = {
    "unknown_flag": "unknown flag: {flag}",
    "unknown_command": "unknown command: {command}",
    "did_you_mean": "did you mean: {choices}?",
    "missing_argument": "missing argument: {name}",
    "missing_command": "missing command for '{command}'",
    "missing_option": "missing required flag: {name}",
    "invalid_value": "invalid value for {name}: {detail}",
    "usage_error": "{detail}",
    "help_hint": "run '{command} --help' for usage",
    "interrupted": "interrupted",
    "terminated": "terminated",
    "io_error": "I/O error: {detail}",
    "internal_error": "internal error: {detail}",
    "debug_hint": "run again with --debug (or GZ_DEBUG=1) to see the traceback",
    "warning_prefix": "Warning",
    "error_prefix": "Error",
}

ES = {
    # The original prints cobra's English usage errors; the seed keeps them verbatim.
    "unknown_flag": "unknown flag: {flag}",
    "unknown_command": "comando desconocido: {command}",
    "did_you_mean": "¿quiso decir: {choices}?",
    "missing_argument": "falta el argumento: {name}",
    "missing_command": "falta el subcomando de '{command}'",
    "missing_option": "falta la bandera obligatoria: {name}",
    "invalid_value": "valor inválido para {name}: {detail}",
    "usage_error": "{detail}",
    "help_hint": "ejecute '{command} --help' para ver el uso",
    "interrupted": "interrumpido",
    "terminated": "terminado",
    "io_error": "error de E/S: {detail}",
    "internal_error": "error interno: {detail}",
    "debug_hint": "vuelva a ejecutar con --debug (o GZ_DEBUG=1) para ver la traza",
    "warning_prefix": "Aviso",
    "error_prefix": "Error",
}
