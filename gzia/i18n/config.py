"""Messages of configuration: the file, settings and ``gz-ia config``."""

EN = {
    "unknown_key": "unknown setting '{key}' (valid: {valid})",
    "unknown_key_in_file": "unknown setting '{key}' in {file}",
    "bad_type": "setting '{key}' from {origin} must be {expected}, got '{value}'",
    "bad_value": "setting '{key}' must be {expected}, got '{value}'",
    "origin_builtin": "the built-in defaults ({file})",
    "expected_int": "an integer",
    "expected_int_min": "an integer of at least {minimum}",
    "expected_float": "a number",
    "expected_float_positive": "a number greater than 0",
    "expected_str": "text",
    "expected_bool": "true or false",
    "expected_choice": "one of {choices}",
    "malformed": "configuration file {file} is not valid TOML: {detail}",
    "unreadable": "cannot read the configuration file {file}: {detail}",
    "header": "KEY                   VALUE                     SOURCE",
    "set_done": "✓ {key} = {value} (in {file})",
    "unset_done": "✓ {key} removed from {file}",
}
