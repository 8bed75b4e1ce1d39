"""Messages of the TUI's new-session form and update screen. Spanish follows the original
gz-ia's wizard where it had the words (``Listo para usar``, ``No instalado (no encontrado
en PATH)``, ``Comprobando actualizaciones de gz-ia...``, ``Nueva versión disponible``)."""

EN = {
    # the new-session form
    "new_title": "New session",
    "key_start": "Start",
    "agent_label": "Agent",
    "agents_checking": "Looking for agents on PATH...",
    "agent_ready": "{name} — ready to use",
    "agent_missing": "{name} — not installed (not found on PATH)",
    "agent_path": "Found at {path}",
    "permission_label": "Permission",
    "profiles_label": "Profiles",
    "prompt_label": "Prompt",
    "prompt_placeholder": "The agent's first task (optional)",
    "prompt_unused": "{name} takes no prompt",
    "where_label": "Run",
    "foreground": "in the foreground (this terminal)",
    "background": "in the background",
    "starting": "Starting the session...",
    "outcome_title": "Session {id}",
    # the update screen
    "update_title": "Update gz-ia",
    "key_check": "Check",
    "key_install": "Install",
    "key_rollback": "Roll back",
    "checking": "Checking for gz-ia updates...",
    "update_available": "⚡ New version available: v{current} -> v{version} ({source})",
    "update_confirm": "New version available (v{current} -> v{version}). "
                      "Download and install it now?",
    "rollback_confirm": "Go back to the version that ran before the last update "
                        "({path}.previous)?",
    "restart_hint": "Quit and start gz-ia again to run that version.",
}

ES = {
    "new_title": "Nueva sesión",
    "key_start": "Iniciar",
    "agent_label": "Agente",
    "agents_checking": "Buscando agentes en el PATH...",
    "agent_ready": "{name} — Listo para usar",
    "agent_missing": "{name} — No instalado (no encontrado en PATH)",
    "agent_path": "Encontrado en {path}",
    "permission_label": "Permiso",
    "profiles_label": "Perfiles",
    "prompt_label": "Tarea",
    "prompt_placeholder": "La primera tarea del agente (opcional)",
    "prompt_unused": "{name} no admite prompt",
    "where_label": "Ejecutar",
    "foreground": "en primer plano (esta terminal)",
    "background": "en segundo plano",
    "starting": "Iniciando la sesión...",
    "outcome_title": "Sesión {id}",
    "update_title": "Actualizar gz-ia",
    "key_check": "Comprobar",
    "key_install": "Instalar",
    "key_rollback": "Revertir",
    "checking": "Comprobando actualizaciones de gz-ia...",
    "update_available": "⚡ Nueva versión disponible: v{current} -> v{version} ({source})",
    "update_confirm": "Nueva versión disponible (v{current} -> v{version}). "
                      "¿Deseas descargar e instalar la actualización ahora?",
    "rollback_confirm": "¿Volver a la versión que se ejecutaba antes de la última "
                        "actualización ({path}.previous)?",
    "restart_hint": "Sal y vuelve a iniciar gz-ia para usar esa versión.",
}
