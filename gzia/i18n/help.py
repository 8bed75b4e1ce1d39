"""The ``--help`` texts in Spanish, keyed by the English text each command declares.

Commands declare their help in English (``help="..."``, the only place it is written);
``gzia.cli.help_text`` swaps each text for its entry here when the language is Spanish,
just before help is printed. Spanish follows the original gz-ia's wording where it had
the command. A test walks every built-in command and requires an entry for every text.
"""

FRAME = {
    # What click and typer draw around the texts.
    "Usage:": "Uso:",
    "Options": "Opciones",
    "Commands": "Comandos",
    "Arguments": "Argumentos",
    "Positional arguments": "Argumentos",
    "Show this message and exit.": "Muestra esta ayuda y termina.",
    "default: {default}": "por defecto: {default}",
    "required": "obligatorio",
    "env var: {var}": "variable de entorno: {var}",
}

METAVARS = {
    # The placeholders click writes in usage lines and beside options and arguments.
    "OPTIONS": "OPCIONES",
    "COMMAND": "COMANDO",
    "ARGS": "ARGUMENTOS",
    "TEXT": "TEXTO",
    "INTEGER": "ENTERO",
    "FLOAT": "DECIMAL",
    "BOOLEAN": "BOOLEANO",
    "PATH": "RUTA",
    "FILE": "ARCHIVO",
    "FILENAME": "ARCHIVO",
    "DIRECTORY": "DIRECTORIO",
    "KEY": "CLAVE",
    "VALUE": "VALOR",
}

TEXTS = {
    # chat/exec --idempotency-key
    "Start at most one session for KEY: a repeat returns it.":
        "Inicia como mucho una sesión por KEY: una repetición la devuelve.",
    # session wait
    "Wait until sessions end; exit 0 only if all completed with exit 0.":
        "Espera a que terminen las sesiones; sale con 0 solo si todas terminaron con 0.",
    "The sessions to wait for (ids or prefixes).":
        "Las sesiones a esperar (ids o prefijos).",
    "Give up after S seconds (exit 1, TIMEOUT; the sessions keep running).":
        "Abandona tras S segundos (sale con 1, TIMEOUT; las sesiones siguen en ejecución).",
    "Return when the first session ends.": "Vuelve cuando termine la primera sesión.",
    # session list filters, labels
    "Only sessions in this status (repeatable).":
        "Solo las sesiones en este estado (se puede repetir).",
    "Only sessions of this provider (repeatable).":
        "Solo las sesiones de este proveedor (se puede repetir).",
    "Only sessions with label k=v (repeatable: all must match).":
        "Solo las sesiones con la etiqueta k=v (se puede repetir: deben cumplirse todas).",
    "Only sessions started since a time (RFC 3339) or a duration ago (2h, 7d).":
        "Solo las sesiones iniciadas desde una hora (RFC 3339) o hace una duración (2h, 7d).",
    "Show at most N sessions, newest first.":
        "Muestra como mucho N sesiones, las más recientes primero.",
    "Label the session: k=v (repeatable; kept on resume).":
        "Etiqueta la sesión: k=v (se puede repetir; se conserva al reanudar).",
    # errors
    "List every error and warning code: exit code, retryable, summary.":
        "Lista todos los códigos de error y de aviso: código de salida, si se puede "
        "reintentar y resumen.",
    "Print the reference as docs/reference/error-codes.md holds it.":
        "Muestra la referencia tal como la guarda docs/reference/error-codes.md.",
    # gz-ia and its global options.
    "Run AI coding agents as managed sessions in isolated git worktrees.":
        "Ejecuta agentes de IA de programación como sesiones gestionadas en worktrees de git "
        "aislados.",
    "Print the version and exit.": "Muestra la versión y termina.",
    "Write one JSON document to stdout.": "Escribe un único documento JSON en stdout.",
    "Print only errors.": "Muestra solo los errores.",
    "Show tracebacks of internal errors.": "Muestra la traza de los errores internos.",
    # chat, exec, resume
    "Start a new interactive chat with an agent (agy, claude, opencode, pi-agent) in an "
    "isolated worktree.":
        "Inicia un nuevo chat interactivo con el agente (agy, claude, opencode, pi-agent) en "
        "un worktree aislado.",
    "Agent to run.": "Agente que se ejecuta.",
    "readonly, supervised or autonomous.": "readonly, supervised o autonomous.",
    "Initial prompt.": "Prompt inicial.",
    "Project directory.": "Directorio del proyecto.",
    "Let the agent run git push (refused in sessions otherwise).":
        "Permite al agente ejecutar git push (si no, se rechaza en las sesiones).",
    "Run a command as a session in an isolated worktree: gz-ia exec -- CMD ARGS...":
        "Ejecuta un comando como sesión en un worktree aislado: gz-ia exec -- CMD ARGS...",
    "Driver that runs the command.": "Driver que ejecuta el comando.",
    "Resume a finished session in its own workspace and conversation.":
        "Reanuda una sesión terminada en su propio espacio de trabajo y conversación.",
    # -b and the watchdog (chat, exec, resume)
    "Run under a detached holder and return at once with the session record.":
        "Ejecuta bajo un proceso desacoplado y vuelve al instante con el registro de la "
        "sesión.",
    "Stop the agent (tree kill) after this many seconds; end_reason timeout.":
        "Detiene el agente (y sus procesos) tras estos segundos; end_reason timeout.",
    "Stop the agent after this many seconds without output (PTY runs); "
    "end_reason no_output_timeout.":
        "Detiene el agente tras estos segundos sin salida (ejecuciones con PTY); "
        "end_reason no_output_timeout.",
    # session process actions
    "Show a session's state, exit code, bytes of output and seconds since its last output.":
        "Muestra el estado de una sesión, su código de salida, los bytes de salida y los "
        "segundos desde su última salida.",
    "Print a session's terminal output (-f: follow while it runs).":
        "Muestra la salida de terminal de una sesión (-f: la sigue mientras se ejecuta).",
    "Send keys to a background session: tmux-style names (Enter, Escape, C-c, Up, M-x) or "
    "literal text.":
        "Envía teclas a una sesión en segundo plano: nombres al estilo de tmux (Enter, "
        "Escape, C-c, Up, M-x) o texto literal.",
    "Paste text (or stdin with -) into a background session as a bracketed paste.":
        "Pega texto (o stdin con -) en una sesión en segundo plano como pegado delimitado.",
    "Type text into a background session, then Enter.":
        "Escribe texto en una sesión en segundo plano y después Enter.",
    "Only the last N lines.": "Solo las últimas N líneas.",
    "The bytes as written, escape sequences included.":
        "Los bytes tal como se escribieron, secuencias de escape incluidas.",
    "Key names or text.": "Nombres de teclas o texto.",
    "Send every argument as text, no key names.":
        "Envía cada argumento como texto, sin nombres de teclas.",
    "The text; - or none reads stdin.": "El texto; - o ninguno lee stdin.",
    "The text (none: just Enter).": "El texto (ninguno: solo Enter).",
    "Attach this terminal to a background session; Ctrl-] detaches and leaves it running.":
        "Conecta este terminal a una sesión en segundo plano; Ctrl-] desconecta y la deja "
        "en ejecución.",
    "The key that detaches (tmux-style name).":
        "La tecla que desconecta (nombre al estilo de tmux).",
    # session
    "Manage local agent sessions (list, show, path, delete, diff, merge, prune, log, logs, "
    "wait, kill, resume, poll, output, send-keys, paste, submit, attach, metrics).":
        "Gestiona sesiones agénticas locales (list, show, path, delete, diff, merge, prune, "
        "log, logs, wait, kill, resume, poll, output, send-keys, paste, submit, attach, "
        "metrics).",
    "Project directory (default: the current directory).":
        "Directorio del proyecto (por defecto: el directorio actual).",
    "List the project's sessions, newest first.":
        "Lista las sesiones del proyecto, de la más reciente a la más antigua.",
    "Show one session's record.": "Muestra el registro de una sesión.",
    "Print the directory the session works in.":
        "Muestra el directorio en el que trabaja la sesión.",
    "Delete a session and its worktree and branch (alias: rm).":
        "Elimina una sesión con su worktree y su rama (alias: rm).",
    "Delete even unmerged or running work.":
        "Elimina también trabajo sin fusionar o en ejecución.",
    "Alias of delete.": "Alias de delete.",
    "Show what the session changed (alias: read).":
        "Muestra lo que cambió la sesión (alias: read).",
    "Show only a summary of the changes.": "Muestra solo un resumen de los cambios.",
    "Alias of diff.": "Alias de diff.",
    "Merge the session's branch into the current branch (alias: get).":
        "Fusiona la rama de la sesión en la rama actual (alias: get).",
    "Squash the session into one change.": "Reúne la sesión en un solo cambio.",
    "Stage the merge, do not commit.": "Deja la fusión en el stage, sin comitear.",
    "Alias of merge.": "Alias de merge.",
    "Remove worktrees and harness/* branches that have no record.":
        "Elimina los worktrees y las ramas harness/* que no tienen registro.",
    "Report, remove nothing.": "Informa sin eliminar nada.",
    "Also remove finished sessions that are merged or changed nothing.":
        "Elimina también las sesiones terminadas que están fusionadas o no cambiaron nada.",
    "Also remove orphaned worktrees holding uncommitted work.":
        "Elimina también worktrees huérfanos con trabajo sin comitear.",
    "Append an event to the session's event log.":
        "Añade un evento al registro de eventos de la sesión.",
    "What happened.": "Qué ocurrió.",
    "READ, PENDING or FINISH.": "READ, PENDING o FINISH.",
    "OK or FAILED.": "OK o FAILED.",
    "Agent id.": "Id del agente.",
    "Agent role.": "Rol del agente.",
    "Error text.": "Texto del error.",
    "Duration in milliseconds.": "Duración en milisegundos.",
    "Print the session's events (-f: follow while it runs).":
        "Muestra los eventos de la sesión (-f: los sigue mientras se ejecuta).",
    "Keep printing while it runs.": "Sigue mostrando mientras se ejecuta.",
    "Stop a running session (SIGTERM, grace, SIGKILL to its process group) and record it "
    "killed.":
        "Detiene una sesión en ejecución (SIGTERM, espera, SIGKILL a su grupo de procesos) y "
        "la registra como killed.",
    "Signal the recorded PID even when the record has no start time and the process runs "
    "none of the agent's programs.":
        "Envía la señal al PID registrado aunque el registro no tenga hora de inicio y el "
        "proceso no corra ninguno de los programas del agente.",
    "Alias of resume.": "Alias de resume.",
    "Session id (or unique prefix).": "Id de la sesión (o un prefijo único).",
    "The command and its arguments.": "El comando y sus argumentos.",
    # config, doctor, drivers, plugins, version
    "Show and change gz-ia settings.": "Muestra y cambia la configuración de gz-ia.",
    "List every setting with its value and source.":
        "Lista cada ajuste con su valor y su origen.",
    "Show secret values.": "Muestra los valores secretos.",
    "Setting name (see gz-ia config list).": "Nombre del ajuste (ver gz-ia config list).",
    "The value to store.": "El valor que se guarda.",
    "Print one setting's value.": "Muestra el valor de un ajuste.",
    "Store a setting in the configuration file.":
        "Guarda un ajuste en el archivo de configuración.",
    "Remove a setting from the configuration file.":
        "Quita un ajuste del archivo de configuración.",
    "Print the configuration file and gz-ia's directories.":
        "Muestra el archivo de configuración y los directorios de gz-ia.",
    "Report what gz-ia needs and what is missing.":
        "Informa de lo que gz-ia necesita y de lo que falta.",
    "List agent drivers: path, version, install hint and MCP support.":
        "Lista los drivers de agentes: ruta, versión, instalación y soporte de MCP.",
    "List plugins that loaded and those that failed.":
        "Lista los plugins que se cargaron y los que fallaron.",
    # start
    "Open the terminal UI: watch and steer the project's sessions.":
        "Abre la interfaz de terminal: observa y dirige las sesiones del proyecto.",
    "Print the version, commit and build date.":
        "Muestra la versión, el commit y la fecha de compilación.",
    # profile (alias toolkit)
    "Project this profile into the session's worktree (repeatable).":
        "Proyecta este perfil en el worktree de la sesión (se puede repetir).",
    "Manage agent profiles and the skills catalogue (list, show, path, create, skills).":
        "Gestiona perfiles agénticos y catálogo de skills (list, show, path, create, skills).",
    "The user's config directory instead of the project.":
        "El directorio de configuración del usuario en lugar del proyecto.",
    "List the profiles, with their scope.": "Lista los perfiles, con su ámbito.",
    "Show one profile.": "Muestra un perfil.",
    "Profile name.": "Nombre del perfil.",
    "Print where profiles are created, or one profile's directory.":
        "Muestra dónde se crean los perfiles, o el directorio de un perfil.",
    "Create a profile with an agents file to fill in.":
        "Crea un perfil con un archivo de instrucciones para completar.",
    "Description.": "Descripción.",
    "List the skills catalogue.": "Lista el catálogo de skills.",
    # completion
    "Print the shell completion script (bash, zsh or fish).":
        "Muestra el script de autocompletado para la shell (bash, zsh o fish).",
    "bash, zsh or fish.": "bash, zsh o fish.",
    # update
    "Update gz-ia from Nexus (or Forgejo), verified and atomic.":
        "Actualiza gz-ia desde Nexus (o Forgejo), de forma verificada y atómica.",
    "Only report; change nothing.": "Solo informa; no cambia nada.",
    "Install this version.": "Instala esta versión.",
    "Consider prereleases.": "Tiene en cuenta las versiones preliminares.",
    "Reinstall even if current.": "Reinstala aunque ya esté al día.",
    "Allow an older --version.": "Permite una --version anterior.",
    "Download and verify, but do not install.": "Descarga y verifica, pero no instala.",
    "Go back to the version that ran before the last update.":
        "Vuelve a la versión que se usaba antes de la última actualización.",
    # gz-ia mcp
    "Serve a session's tools to its agent over MCP (stdio).":
        "Sirve las herramientas de una sesión a su agente por MCP (stdio).",
    "Offer worktree_get (merge a session) to the agent.":
        "Ofrece worktree_get (integrar una sesión) al agente.",
    "Seconds a tool call may take (0.001 to 86400).":
        "Segundos que puede durar una llamada a una herramienta (de 0.001 a 86400).",
    "Do not hand the session's MCP server (gz-ia mcp) to the agent.":
        "No entrega al agente el servidor MCP de la sesión (gz-ia mcp).",
    "Consecutive failures that make a tool DEAD (1 to 1000).":
        "Fallos consecutivos que dejan una herramienta en DEAD (de 1 a 1000).",
    # metrics
    "Token usage, requests, tool calls and cost of the project's sessions.":
        "Uso de tokens, peticiones, llamadas a herramientas y coste de las sesiones del "
        "proyecto.",
    "Show a session's duration, changes, and the token usage, tool calls and cost its agent "
    "recorded.":
        "Muestra la duración y los cambios de una sesión, y el uso de tokens, las llamadas a "
        "herramientas y el coste que registró su agente.",
    "Only sessions started at or after DATE (YYYY-MM-DD, UTC, or an RFC 3339 time).":
        "Solo las sesiones iniciadas en DATE o después (AAAA-MM-DD, UTC, o una hora RFC 3339).",
    "Only sessions of this agent (claude, opencode, ...).":
        "Solo las sesiones de este agente (claude, opencode, ...).",
    "Only sessions in this status (running, completed, failed, killed, lost).":
        "Solo las sesiones en este estado (running, completed, failed, killed, lost).",
    "Also add the figures up by provider, day or model.":
        "Suma además las cifras por proveedor, día o modelo.",
}

ES = {**FRAME, **TEXTS}
EN = {english: english for english in ES}
"""English is the text itself (the catalogue tests compare both sides)."""
