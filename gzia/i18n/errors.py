"""The error-code reference: one summary per error and warning code (``gz-ia errors``).

``error_<CODE>`` summarises an error code of ``gzia.contract.ErrorCode``, ``warning_<CODE>``
a warning code of ``gzia.contract.WarningCode``; docs/reference/error-codes.md is generated
from the English ones.
"""

EN = {
    "error_UNKNOWN_FLAG": "a flag the command does not accept",
    "error_UNKNOWN_COMMAND": "a command gz-ia does not have (`hint` suggests close names)",
    "error_MISSING_REQUIRED": "a required argument, flag or subcommand is missing",
    "error_INVALID_INPUT": (
        "a value of the wrong type, range or form (including session ids, labels and "
        "settings), or a setting the command needs is missing (`update` with no release "
        "source)"
    ),
    "error_NOT_FOUND": (
        "the session, file, program or release asked for does not exist (`update --version X` "
        "that no source publishes)"
    ),
    "error_DRIVER_NOT_FOUND": (
        "the agent's executable is not on PATH (`details.install_hint`)"
    ),
    "error_CONFLICT": (
        "a merge would conflict (nothing was changed), or the session is not in the state "
        "the action needs: `session kill` of one that is not running (`details.status`; "
        "`data` is its record), `resume` of one that is, a new session whose id is taken"
    ),
    "error_IDEMPOTENCY_CONFLICT": (
        "an idempotency key still in use was given with a different execution payload "
        "(provider, command, prompt, directory or permission); nothing was started "
        "(`details.session_id`, `differs`)"
    ),
    "error_SAFETY_BLOCK": (
        "an action was refused to keep work safe: a destructive one (a `--force` form "
        "exists), or a merge into a dirty or detached base, or one a project hook refused "
        "(nothing was changed)"
    ),
    "error_LOCKED": "another gz-ia holds the lock (for example a concurrent update)",
    "error_TIMEOUT": (
        "an operation outlived its deadline (`session wait --timeout`: the sessions still run)"
    ),
    "error_NETWORK": "a registry or proxy could not be reached or answered badly",
    "error_INTEGRITY": "a download failed its signature, checksum or size check",
    "error_IO": "reading or writing a file failed",
    "error_AGENT_FAILED": "the agent exited non-zero (`data` is the session record)",
    "error_INTERNAL": (
        "a bug, a plugin that failed to load, or a command that exited by itself without "
        "saying why (`details.exit_code`; `--debug` shows the traceback)"
    ),
    "error_INTERRUPTED": "SIGINT (Ctrl+C)",
    "error_TERMINATED": "SIGTERM",
    "warning_PLUGIN_FAILED": "a plugin could not be loaded; the command still ran",
    "warning_IO": (
        "a session record or event line could not be read and was skipped "
        "(`session list`, `session logs`); or an agent's transcript is missing, incomplete "
        "or unreadable, and `session metrics` / `metrics` report the figures they could read "
        "(`details.reason`, see docs/metrics.md)"
    ),
    "warning_NETWORK": "`update` could not use the first release source and tried the next one",
    "warning_UNCOMMITTED_CHANGES": (
        "`chat` or `exec` started an isolated session while the base work tree had "
        "uncommitted changes (modified, staged or untracked files): the session starts from "
        "the base's last commit and has none of them (`details.base`, `base_commit`, `count`, `files`, the first 20)"
    ),
    "warning_GUARDRAILS_OFF": (
        "the installed git is older than 2.31 and cannot carry a session's git guardrails "
        "through the environment: the agent runs without them (`details.git_version`, "
        "`minimum`; docs/sessions.md, \"Guardrails\")"
    ),
    "warning_INVALID_INPUT": (
        "an option that does not apply was ignored: `chat -i` with the shell driver, which "
        "takes no prompt (`details.provider`, `option`)"
    ),
    "warning_SAFETY_BLOCK": (
        "`session kill` (or `session delete --force` of a running session) signalled only "
        "the agent's process, not its group: the record names a group the agent does not "
        "lead, or one gz-ia must not signal (`details.reason`; see docs/supervisor.md)"
    ),
    "warning_IDEMPOTENCY_METADATA_DIFFERS": (
        "an idempotency key matched a session with the same execution payload but other "
        "labels: that session is returned as it is (`details.session_id`, `differs`)"
    ),
    "warning_TAG_FILTER_SCAN_CAPPED": (
        "`session list` with a filter and `--limit` stopped at the limit: later matches "
        "may exist (`details.limit`)"
    ),
    "warning_DRIVER_NOT_ANSWERING": (
        "`drivers`: an agent did not answer `--version` in time (a program past its "
        "deadline is killed with its process group); its version is unknown (`details.id`, "
        "`seconds`)"
    ),
    "warning_KILL_ASYNC": (
        "`session kill` signalled the session, but its owner has not yet written how it "
        "ended: the record is still `running` and changes shortly (`details.id`)"
    ),
    "warning_NO_OUTPUT_YET": (
        "`session output` or `session poll` of a session that has written no output yet: "
        "the answer is the empty output (`details.id`)"
    ),
    "warning_PROFILE_INVALID": (
        "a profile directory's `profile.json`/`perfil.json` could not be read; the profile "
        "is left out of the list, and naming it is an `INVALID_INPUT` error (`details.path`, "
        "`detail`; docs/profiles.md)"
    ),
    "warning_PROFILE_SHADOWED": (
        "a profile of the same name earlier in the search order hides this one "
        "(`details.name`, `winner`, `shadowed`)"
    ),
    "warning_SKILL_INVALID": (
        "a `SKILL.md` has no readable YAML front matter with a `description`; the skill is "
        "left out of the catalogue (`details.path`, `detail`)"
    ),
    # gz-ia errors
    "column_code": "CODE",
    "column_exit": "EXIT",
    "column_retryable": "RETRYABLE",
    "column_summary": "SUMMARY",
    "warnings_title": "Warning codes (they never change the exit code):",
    "yes": "yes",
    "no": "no",
}

ES = {
    "error_UNKNOWN_FLAG": "una opción que el comando no acepta",
    "error_UNKNOWN_COMMAND": "un comando que gz-ia no tiene (`hint` sugiere nombres parecidos)",
    "error_MISSING_REQUIRED": "falta un argumento, una opción o un subcomando obligatorio",
    "error_INVALID_INPUT": (
        "un valor de tipo, rango o forma incorrectos (también ids de sesión, etiquetas y "
        "ajustes), o falta un ajuste que el comando necesita (`update` sin fuente de "
        "versiones)"
    ),
    "error_NOT_FOUND": (
        "la sesión, el archivo, el programa o la versión pedida no existe "
        "(`update --version X` que ninguna fuente publica)"
    ),
    "error_DRIVER_NOT_FOUND": (
        "el ejecutable del agente no está en el PATH (`details.install_hint`)"
    ),
    "error_CONFLICT": (
        "una fusión tendría conflictos (no se cambió nada), o la sesión no está en el estado "
        "que la acción necesita: `session kill` de una que no está en ejecución "
        "(`details.status`; `data` es su registro), `resume` de una que sí lo está, una "
        "sesión nueva cuyo id ya existe"
    ),
    "error_IDEMPOTENCY_CONFLICT": (
        "una clave de idempotencia todavía en uso se dio con otra carga de ejecución "
        "(proveedor, comando, prompt, directorio o permiso); no se inició nada "
        "(`details.session_id`, `differs`)"
    ),
    "error_SAFETY_BLOCK": (
        "se rechazó una acción para proteger el trabajo: una destructiva (existe una forma "
        "con `--force`), una fusión sobre una base sucia o desacoplada, o una que rechazó "
        "un hook del proyecto (no se cambió nada)"
    ),
    "error_LOCKED": "otro gz-ia tiene el bloqueo (por ejemplo, una actualización en curso)",
    "error_TIMEOUT": (
        "una operación superó su plazo (`session wait --timeout`: las sesiones siguen en "
        "ejecución)"
    ),
    "error_NETWORK": "no se pudo contactar con un registro o proxy, o respondió mal",
    "error_INTEGRITY": "una descarga no superó la comprobación de firma, suma o tamaño",
    "error_IO": "falló la lectura o escritura de un archivo",
    "error_AGENT_FAILED": "el agente terminó con un código distinto de cero (`data` es el registro de la sesión)",
    "error_INTERNAL": (
        "un fallo del programa, un plugin que no se pudo cargar o un comando que terminó por "
        "sí mismo sin decir por qué (`details.exit_code`; `--debug` muestra la traza)"
    ),
    "error_INTERRUPTED": "SIGINT (Ctrl+C)",
    "error_TERMINATED": "SIGTERM",
    "warning_PLUGIN_FAILED": "no se pudo cargar un plugin; el comando se ejecutó igualmente",
    "warning_IO": (
        "no se pudo leer un registro de sesión o una línea de eventos y se omitió "
        "(`session list`, `session logs`); o la transcripción de un agente falta, está "
        "incompleta o no se puede leer, y `session metrics` / `metrics` dan las cifras que "
        "pudieron leer (`details.reason`, ver docs/metrics.md)"
    ),
    "warning_NETWORK": (
        "`update` no pudo usar la primera fuente de versiones y probó la siguiente"
    ),
    "warning_UNCOMMITTED_CHANGES": (
        "`chat` o `exec` inició una sesión aislada con cambios sin confirmar en el árbol "
        "base (archivos modificados, preparados o sin seguimiento): la sesión parte del "
        "último commit de la base y no tiene ninguno de ellos "
        "(`details.base`, `base_commit`, `count`, `files`, los 20 primeros)"
    ),
    "warning_GUARDRAILS_OFF": (
        "el git instalado es anterior a 2.31 y no puede llevar las protecciones de git de "
        "la sesión por el entorno: el agente se ejecuta sin ellas (`details.git_version`, "
        "`minimum`; docs/sessions.md, \"Guardrails\")"
    ),
    "warning_INVALID_INPUT": (
        "se ignoró una opción que no aplica: `chat -i` con el driver shell, que no recibe "
        "prompt (`details.provider`, `option`)"
    ),
    "warning_SAFETY_BLOCK": (
        "`session kill` (o `session delete --force` de una sesión en ejecución) solo envió "
        "la señal al proceso del agente, no a su grupo: el registro nombra un grupo que el "
        "agente no encabeza, o uno al que gz-ia no debe enviar señales (`details.reason`; "
        "ver docs/supervisor.md)"
    ),
    "warning_IDEMPOTENCY_METADATA_DIFFERS": (
        "una clave de idempotencia coincidió con una sesión de la misma carga de ejecución "
        "pero con otras etiquetas: se devuelve esa sesión tal cual (`details.session_id`, "
        "`differs`)"
    ),
    "warning_TAG_FILTER_SCAN_CAPPED": (
        "`session list` con un filtro y `--limit` se detuvo en el límite: puede haber más "
        "coincidencias (`details.limit`)"
    ),
    "warning_DRIVER_NOT_ANSWERING": (
        "`drivers`: un agente no respondió a `--version` a tiempo (un programa que pasa "
        "el plazo se mata con su grupo de procesos); su versión es desconocida "
        "(`details.id`, `seconds`)"
    ),
    "warning_KILL_ASYNC": (
        "`session kill` envió la señal a la sesión, pero su dueño aún no ha escrito cómo "
        "terminó: el registro sigue `running` y cambiará en breve (`details.id`)"
    ),
    "warning_NO_OUTPUT_YET": (
        "`session output` o `session poll` de una sesión que aún no ha escrito salida: la "
        "respuesta es la salida vacía (`details.id`)"
    ),
    "warning_PROFILE_INVALID": (
        "no se pudo leer el `profile.json`/`perfil.json` de un directorio de perfil; el "
        "perfil queda fuera de la lista, y nombrarlo es un error `INVALID_INPUT` "
        "(`details.path`, `detail`; docs/profiles.md)"
    ),
    "warning_PROFILE_SHADOWED": (
        "un perfil del mismo nombre anterior en el orden de búsqueda oculta este "
        "(`details.name`, `winner`, `shadowed`)"
    ),
    "warning_SKILL_INVALID": (
        "un `SKILL.md` no tiene una cabecera YAML legible con `description`; la skill queda "
        "fuera del catálogo (`details.path`, `detail`)"
    ),
    "column_code": "CÓDIGO",
    "column_exit": "SALIDA",
    "column_retryable": "REINTENTABLE",
    "column_summary": "RESUMEN",
    "warnings_title": "Códigos de aviso (nunca cambian el código de salida):",
    "yes": "sí",
    "no": "no",
}
