"""Messages about running helper programs."""

EN = {
    "program_not_found": "program '{program}' not found",
    "relative_program_hint": (
        "a path is read from the session's worktree root, not from the directory you are in"
    ),
    "program_not_executable": "program '{program}' is not executable",
    "not_executable_hint": "make it executable: chmod +x {program}",
    "timed_out": "'{program}' did not finish within {seconds} s and was stopped",
}

ES = {
    "program_not_found": "no se encontró el programa '{program}'",
    "relative_program_hint": (
        "una ruta se busca desde la raíz del worktree de la sesión, no desde el directorio "
        "en el que estás"
    ),
    "program_not_executable": "el programa '{program}' no es ejecutable",
    "not_executable_hint": "hazlo ejecutable: chmod +x {program}",
    "timed_out": "'{program}' no terminó en {seconds} s y fue detenido",
}
