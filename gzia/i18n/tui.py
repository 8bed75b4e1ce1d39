"""Messages of the terminal UI (``gz-ia start``): key labels, column titles, screens.

Spanish follows the original gz-ia's menu where it had the words (``Sesiones activas e
historial``, ``¿Eliminar la sesión '<id>' ...?``).
"""

EN = {
    "not_a_terminal": "gz-ia start needs a terminal on stdin and stdout",
    "not_a_terminal_hint": "run it in a terminal; scripts use 'gz-ia session list --json'",
    "key_quit": "Quit",
    "key_palette": "Commands",
    "key_new": "New",
    "key_update": "Update",
    "key_back": "Back",
    "palette_placeholder": "Search for a command…",
    "sessions_title": "Sessions",
    "key_filter": "Filter",
    "key_status": "Status",
    "key_reload": "Reload",
    "filter_placeholder": "Filter: id, provider, branch, label, prompt",
    "col_id": "ID",
    "col_status": "STATUS",
    "col_provider": "PROVIDER",
    "col_age": "AGE",
    "col_duration": "DURATION",
    "col_labels": "LABELS",
    "col_branch": "BRANCH",
    "col_ahead_behind": "+/-BASE",
}

ES = {
    "not_a_terminal": "gz-ia start necesita una terminal en stdin y stdout",
    "not_a_terminal_hint": "ejecútalo en una terminal; los scripts usan "
                           "'gz-ia session list --json'",
    "key_quit": "Salir",
    "key_palette": "Comandos",
    "key_new": "Nueva",
    "key_update": "Actualizar",
    "key_back": "Volver",
    "palette_placeholder": "Busca un comando…",
    "sessions_title": "Sesiones activas e historial",
    "key_filter": "Filtrar",
    "key_status": "Estado",
    "key_reload": "Recargar",
    "filter_placeholder": "Filtro: id, proveedor, rama, etiqueta, prompt",
    "col_id": "ID",
    "col_status": "ESTADO",
    "col_provider": "PROVEEDOR",
    "col_age": "EDAD",
    "col_duration": "DURACIÓN",
    "col_labels": "ETIQUETAS",
    "col_branch": "RAMA",
    "col_ahead_behind": "+/-BASE",
}
