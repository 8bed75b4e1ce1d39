"""Messages about running agents: chat, exec, resume, session kill/resume.

The Spanish lines of the original gz-ia are kept verbatim (``chat``'s launch line, the
task question, ``session kill`` and ``session resume``, the event log's action texts).
"""

EN = {
    # gz-ia's own events in a session's event log (written in the writer's language)
    "event_started": "{mode} session started",
    "event_resumed": "{mode} session resumed",
    "event_finished_ok": "session finished",
    "event_finished_failed": "session finished",
    "event_killed": "session killed (kill PID {pid})",
    "empty_command": "no command to run",
    "missing_command": "missing command: gz-ia exec -- CMD [ARGS...]",
    "bad_argument": "invalid command argument: {argument}",
    "program_not_found": "executable '{program}' not found in PATH",
    "program_gone": "executable '{program}' no longer exists",
    "program_not_executable": "'{program}' cannot be executed (permission denied)",
    "program_cannot_start": "'{program}' cannot be started: {detail}",
    "cwd_not_found": "working directory '{path}' does not exist",
    "task_question": "[?] Describe the task for the agent: ",
    "chat_launch": "❯❯ Starting chat with {name} (Permission: {permission} | Workspace: {workspace})...",
    "exec_launch": "❯❯ Running {command} in session {id} (Workspace: {workspace})...",
    "resume_launch": "↻ Resuming session [{id}] in [{dir}]...",
    "workspace_isolated": "Isolated worktree (.harness/worktrees/{id})",
    "workspace_isolated_from": "Isolated worktree ({path}) from {base}",
    "workspace_direct": "Direct directory (no Git)",
    "finished_ok": "✓ Session '{id}' finished successfully.",
    "next_steps": "  Review: gz-ia session diff {id}   Merge: gz-ia session merge {id}",
    "agent_failed": "the agent of session '{id}' exited with code {code}",
    "agent_interrupted": "session '{id}' was interrupted (SIGINT)",
    "agent_terminated": "session '{id}' was terminated ({signal})",
    "show_hint": "details: gz-ia session show {id}",
    "already_running": "session '{id}' is already running (PID {pid})",
    "not_running": "session '{id}' is not running (current status: {status})",
    "still_starting": "session '{id}' is still starting; try again in a moment",
    "still_finishing": "the agent of session '{id}' has ended and the gz-ia running it is "
                       "still writing how; try again in a moment",
    "kill_done": "✓ Session '{id}' (PID {pid}) stopped.",
    "kill_lost": "✧ Session '{id}' was no longer running (PID {pid} had vanished): marked lost.",
    "kill_process_only": "only PID {pid} was signalled, not a process group: {why}; "
                         "processes it started may still be running",
    "kill_why_pgid_mismatch": "the record names process group {recorded_pgid}, but the "
                              "process is in group {pgid}",
    "kill_why_not_group_leader": "it shares process group {pgid} with other processes "
                                 "and does not lead it",
    "kill_why_unsafe_group": "it is in process group {pgid}, which gz-ia never signals",
    "kill_why_caller_group": "it is in the process group of gz-ia or of its caller ({pgid})",
    "kill_not_permitted": "cannot stop session '{id}': no permission to signal PID {pid}",
    "kill_refused_pid": "session '{id}' names PID {pid}, which gz-ia will not signal; "
                        "the record was left as it is",
    "background_started": "● Session '{id}' is running in the background (PID {pid}).",
    "background_next": "  Output: gz-ia session output {id} -f   Attach: gz-ia session attach {id}"
                       "   Stop: gz-ia session kill {id}",
    "background_no_answer": "the holder of session '{id}' did not report within {seconds} s",
    "background_failed": "session '{id}' could not start in the background: {detail}",
    "runtime_dir_unusable": "cannot use the runtime directory {path}: {detail}",
    "runtime_dir_unsafe": "the runtime directory {path} is not private to this user "
                          "(it must be your own directory with mode 0700)",
    "holder_gone": "the holder of session '{id}' is gone; its agent (PID {pid}) may still "
                   "run",
    "holder_gone_hint": "stop it with: gz-ia session kill {id}",
    "holder_unreachable": "cannot reach the holder of session '{id}': {detail}",
    "holder_refused": "the holder of session '{id}' refused: {detail}",
    "not_background": "session '{id}' was not started with -b: there is no holder to talk to",
    "holder_socket_gone": "the holder of session '{id}' runs (PID {pid}) but its control "
                          "socket {socket} is gone (deleted, or its directory was): it can "
                          "no longer take input or be attached to",
    "holder_socket_untrusted": "the control socket {socket} of session '{id}' is not a "
                               "socket of this user in a private directory: gz-ia does not "
                               "talk to it",
    "no_output": "session '{id}' has no output log (only -b and terminal runs keep one)",
    "input_sent": "✓ {count} bytes sent to session '{id}'.",
    "input_too_large": "input for session '{id}' is larger than {limit} bytes, the most one send-keys, paste or submit takes",
    "input_too_large_hint": "send it in parts, or write it to a file in the session's worktree and name the file",
    "input_sent_one": "✓ 1 byte sent to session '{id}'.",
    "bad_key": "unknown key: {key}",
    "poll_line": "{id}  {status}  exit {exit_code}  {bytes} bytes  idle {idle}  holder {holder}",
    "timeout": "session '{id}' was stopped: it ran longer than its --timeout",
    "no_output_timeout": "session '{id}' was stopped: no output for longer than its "
                         "--no-output-timeout",
    "attach_finished": "session '{id}' has finished ({status}): there is nothing to attach to",
    "attach_finished_hint": "its output: gz-ia session output {id}",
    "attach_start": "[attached to session {id}: {key} detaches]",
    "attach_detached": "[detached from session {id}: it keeps running]",
    "attach_ended": "[session {id} ended: {status}]",
    "bad_detach_key": "the detach key must be one key that sends one byte, not '{key}'",
    "kill_refused_ancestor": "session '{id}' names PID {pid}, a process gz-ia runs under "
                             "(its caller or one of its parents), which gz-ia never "
                             "signals; the record was left as it is",
    "kill_unproven": "session '{id}' has no start time to prove that PID {pid} is still its "
                     "agent, and that process ({command}) runs none of the agent's programs "
                     "({expected}): nothing was signalled",
    "kill_force_hint": "if PID {pid} is the agent: gz-ia session kill --force {id}",
    "idempotency_reused": (
        "session {id} already holds this idempotency key ({status}): nothing was started"
    ),
    "idempotency_metadata_differs": (
        "session {id} holds this idempotency key with other {fields}; it is returned as it is"
    ),
    "kill_async": (
        "session '{id}' was signalled; its owner has not yet recorded how it ended (the "
        "record still reads running): check with gz-ia session wait {id}"
    ),
    "no_output_yet": "session '{id}' has written no output yet",
}

ES = {
    "event_started": "Sesión de {mode} iniciada",
    "event_resumed": "Sesión de {mode} reanudada",
    "event_finished_ok": "Sesión finalizada exitosamente",
    "event_finished_failed": "Sesión finalizada con fallas",
    "event_killed": "Sesión finalizada manualmente (kill PID {pid})",
    "empty_command": "no hay comando que ejecutar",
    "missing_command": "falta el comando: gz-ia exec -- CMD [ARGS...]",
    "bad_argument": "argumento de comando inválido: {argument}",
    "program_not_found": "ejecutable '{program}' no encontrado en el PATH",
    "program_gone": "el ejecutable '{program}' ya no existe",
    "program_not_executable": "'{program}' no se puede ejecutar (permiso denegado)",
    "program_cannot_start": "'{program}' no se puede iniciar: {detail}",
    "cwd_not_found": "el directorio de trabajo '{path}' no existe",
    "task_question": "[?] Describa la tarea para el agente: ",
    "chat_launch": "❯❯ Iniciando chat con {name} (Permiso: {permission} | Workspace: {workspace})...",
    "exec_launch": "❯❯ Ejecutando {command} en la sesión {id} (Workspace: {workspace})...",
    "resume_launch": "↻ Reanudando sesión [{id}] en [{dir}]...",
    "workspace_isolated": "Worktree aislado (.harness/worktrees/{id})",
    "workspace_isolated_from": "Worktree aislado ({path}) a partir de {base}",
    "workspace_direct": "Directorio directo (sin Git)",
    "finished_ok": "✓ Sesión '{id}' finalizada exitosamente.",
    "next_steps": "  Revisar: gz-ia session diff {id}   Integrar: gz-ia session merge {id}",
    "agent_failed": "el agente de la sesión '{id}' terminó con código {code}",
    "agent_interrupted": "la sesión '{id}' fue interrumpida (SIGINT)",
    "agent_terminated": "la sesión '{id}' fue terminada ({signal})",
    "show_hint": "detalle: gz-ia session show {id}",
    "already_running": "la sesión '{id}' ya se encuentra en ejecución (PID {pid})",
    "not_running": "la sesión '{id}' no está activa (estado actual: {status})",
    "still_starting": "la sesión '{id}' aún se está iniciando; reintenta en un momento",
    "still_finishing": "el agente de la sesión '{id}' terminó y el gz-ia que lo ejecuta aún "
                       "está registrando cómo; reintenta en un momento",
    "kill_done": "✓ Sesión '{id}' (PID {pid}) finalizada con éxito.",
    "kill_lost": "✧ La sesión '{id}' ya no estaba en ejecución (el PID {pid} había "
                 "desaparecido): marcada como perdida (lost).",
    "kill_process_only": "solo se envió la señal al PID {pid}, no a un grupo de procesos: "
                         "{why}; los procesos que inició pueden seguir en ejecución",
    "kill_why_pgid_mismatch": "el registro indica el grupo de procesos {recorded_pgid}, "
                              "pero el proceso está en el grupo {pgid}",
    "kill_why_not_group_leader": "comparte el grupo de procesos {pgid} con otros procesos "
                                 "y no es su líder",
    "kill_why_unsafe_group": "está en el grupo de procesos {pgid}, al que gz-ia nunca "
                             "envía señales",
    "kill_why_caller_group": "está en el grupo de procesos de gz-ia o de quien lo invocó "
                             "({pgid})",
    "kill_not_permitted": "no se puede detener la sesión '{id}': sin permiso para enviar "
                          "señales al PID {pid}",
    "kill_refused_pid": "la sesión '{id}' indica el PID {pid}, al que gz-ia no enviará "
                        "señales; el registro queda como estaba",
    "background_started": "● La sesión '{id}' se ejecuta en segundo plano (PID {pid}).",
    "background_next": "  Salida: gz-ia session output {id} -f   Conectarse: gz-ia session attach "
                       "{id}   Detener: gz-ia session kill {id}",
    "background_no_answer": "el proceso que sostiene la sesión '{id}' no respondió en {seconds} s",
    "background_failed": "la sesión '{id}' no pudo iniciarse en segundo plano: {detail}",
    "runtime_dir_unusable": "no se puede usar el directorio de ejecución {path}: {detail}",
    "runtime_dir_unsafe": "el directorio de ejecución {path} no es privado de este usuario "
                          "(debe ser un directorio suyo con modo 0700)",
    "holder_gone": "el proceso que sostiene la sesión '{id}' ya no existe; su agente "
                   "(PID {pid}) puede seguir en ejecución",
    "holder_gone_hint": "detenlo con: gz-ia session kill {id}",
    "holder_unreachable": "no se puede contactar con el proceso de la sesión '{id}': {detail}",
    "holder_refused": "el proceso de la sesión '{id}' lo rechazó: {detail}",
    "not_background": "la sesión '{id}' no se inició con -b: no hay proceso con el que hablar",
    "holder_socket_gone": "el proceso que sostiene la sesión '{id}' sigue en ejecución (PID "
                          "{pid}), pero su socket de control {socket} ya no existe (se borró, "
                          "o se borró su directorio): ya no puede recibir entrada ni "
                          "conexiones de attach",
    "holder_socket_untrusted": "el socket de control {socket} de la sesión '{id}' no es un "
                               "socket de este usuario en un directorio privado: gz-ia no "
                               "habla con él",
    "no_output": "la sesión '{id}' no tiene registro de salida (solo lo guardan las "
                 "ejecuciones con -b o con terminal)",
    "input_sent": "✓ {count} bytes enviados a la sesión '{id}'.",
    "input_too_large": "la entrada para la sesión '{id}' ocupa más de {limit} bytes, lo máximo que admite un send-keys, paste o submit",
    "input_too_large_hint": "envíala en partes, o escríbela en un archivo del worktree de la sesión y nombra el archivo",
    "input_sent_one": "✓ 1 byte enviado a la sesión '{id}'.",
    "bad_key": "tecla desconocida: {key}",
    "poll_line": "{id}  {status}  salida {exit_code}  {bytes} bytes  inactiva {idle}  "
                 "proceso {holder}",
    "timeout": "la sesión '{id}' se detuvo: superó su tiempo máximo (--timeout)",
    "no_output_timeout": "la sesión '{id}' se detuvo: pasó más tiempo sin salida que su "
                         "--no-output-timeout",
    "attach_finished": "la sesión '{id}' ya terminó ({status}): no hay nada a lo que conectarse",
    "attach_finished_hint": "su salida: gz-ia session output {id}",
    "attach_start": "[conectado a la sesión {id}: {key} desconecta]",
    "attach_detached": "[desconectado de la sesión {id}: sigue en ejecución]",
    "attach_ended": "[la sesión {id} terminó: {status}]",
    "bad_detach_key": "la tecla para desconectar debe ser una tecla que envíe un byte, no '{key}'",
    "kill_refused_ancestor": "la sesión '{id}' indica el PID {pid}, un proceso bajo el que "
                             "corre gz-ia (quien lo invocó o uno de sus padres), al que gz-ia "
                             "nunca envía señales; el registro queda como estaba",
    "kill_unproven": "la sesión '{id}' no tiene hora de inicio que pruebe que el PID {pid} "
                     "sigue siendo su agente, y ese proceso ({command}) no ejecuta ninguno de "
                     "los programas del agente ({expected}): no se envió ninguna señal",
    "kill_force_hint": "si el PID {pid} es el agente: gz-ia session kill --force {id}",
    "idempotency_reused": (
        "la sesión {id} ya tiene esta clave de idempotencia ({status}): no se inició nada"
    ),
    "idempotency_metadata_differs": (
        "la sesión {id} tiene esta clave de idempotencia con otras {fields}; se devuelve tal cual"
    ),
    "kill_async": (
        "la sesión '{id}' recibió la señal; su dueño aún no ha registrado cómo terminó (el "
        "registro sigue en running): compruébalo con gz-ia session wait {id}"
    ),
    "no_output_yet": "la sesión '{id}' aún no ha escrito ninguna salida",
}
