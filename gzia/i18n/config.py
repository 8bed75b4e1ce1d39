"""Messages of configuration: the file, settings and ``gz-ia config``."""

EN = {
    "unknown_key": "unknown setting '{key}' (valid: {valid})",
    "unknown_key_in_file": "unknown setting '{key}' in {file}",
    "bad_type": "setting '{key}' from {origin} must be {expected}, got '{value}'",
    "bad_value": "setting '{key}' must be {expected}, got '{value}'",
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

ES = {
    "unknown_key": "ajuste desconocido '{key}' (válidos: {valid})",
    "unknown_key_in_file": "ajuste desconocido '{key}' en {file}",
    "bad_type": "el ajuste '{key}' de {origin} debe ser {expected}, se recibió '{value}'",
    "bad_value": "el ajuste '{key}' debe ser {expected}, se recibió '{value}'",
    "expected_int": "un número entero",
    "expected_int_min": "un número entero no menor que {minimum}",
    "expected_float": "un número",
    "expected_float_positive": "un número mayor que 0",
    "expected_str": "texto",
    "expected_bool": "true o false",
    "expected_choice": "uno de {choices}",
    "malformed": "el archivo de configuración {file} no es TOML válido: {detail}",
    "unreadable": "no se puede leer el archivo de configuración {file}: {detail}",
    "header": "CLAVE                 VALOR                     ORIGEN",
    "set_done": "✓ {key} = {value} (en {file})",
    "unset_done": "✓ {key} eliminado de {file}",
}
