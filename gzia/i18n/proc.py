"""Messages about running helper programs."""

EN = {
    "program_not_found": "program '{program}' not found",
    "timed_out": "'{program}' did not finish within {seconds} s and was stopped",
}

ES = {
    "program_not_found": "no se encontró el programa '{program}'",
    "timed_out": "'{program}' no terminó en {seconds} s y fue detenido",
}
