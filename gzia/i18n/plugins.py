"""Messages of the plugin loader and ``gz-ia plugins``."""

EN = {
    "failed_warning": "plugin '{name}' from {distribution} failed to load: {error}",
    "name_conflict": "'{name}' in {group} is already provided by {owner}; {claimant} cannot claim it",
    "not_a_command": "plugin '{name}' is not a command group (it is a {kind})",
    "command_unavailable": "command '{name}' could not be loaded: its plugin {distribution} failed",
    "header": "GROUP           NAME          ORIGIN      DISTRIBUTION",
    "failed_header": "Failed:",
    "dirs": "Plugins directories: {dirs}",
}

ES = {
    "failed_warning": "el plugin '{name}' de {distribution} no se pudo cargar: {error}",
    "name_conflict": "'{name}' en {group} ya lo provee {owner}; {claimant} no puede reclamarlo",
    "not_a_command": "el plugin '{name}' no es un grupo de comandos (es {kind})",
    "command_unavailable": "no se pudo cargar el comando '{name}': falló su plugin {distribution}",
    "header": "GRUPO           NOMBRE        ORIGEN      DISTRIBUCIÓN",
    "failed_header": "Con fallos:",
    "dirs": "Directorios de plugins: {dirs}",
}
