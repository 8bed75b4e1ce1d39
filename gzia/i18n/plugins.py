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
