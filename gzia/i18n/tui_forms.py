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
