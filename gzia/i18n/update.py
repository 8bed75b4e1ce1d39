"""Messages of ``gz-ia update``. Spanish follows the original gz-ia where it has the text."""

EN = {
    # human output
    "current_version": "❯ Current version: v{version}",
    "remote_version": "✧ Remote version: v{version} ({source})",
    "up_to_date": "✓ gz-ia is already at the latest version (v{version})",
    "newer_available": "⚡ A new version is available (v{version}). "
                       "Run 'gz-ia update' to install it.",
    "downloading": "↻ Downloading and installing gz-ia v{version}...",
    "updated": "✓ gz-ia updated successfully to v{version} in {path}",
    "dry_run_ok": "✓ gz-ia v{version} downloaded and verified; nothing was changed (--dry-run)",
    "rolled_back": "✓ gz-ia rolled back to v{version} in {path}",
    "source_failed": "{source} failed: {reason}; trying {next}",
    # reasons a source failed
    "reason_status": "{host} answered HTTP {status}",
    "reason_redirects": "too many redirects from {host}",
    "reason_bad_json": "{host} sent an invalid JSON document",
    "reason_json_too_large": "{host} sent more than {mib} MiB of JSON",
    "reason_proxy_auth": "the proxy refused the credentials for {host} (HTTP 407); "
                         "check the user and password in HTTPS_PROXY/HTTP_PROXY",
    "reason_proxy": "the proxy failed to reach {host}: {detail}",
    "reason_timeout": "{host} did not answer within {seconds} s",
    "reason_connect": "cannot connect to {host}: {detail}",
    "reason_proxy_connect": "cannot connect to the proxy {proxy} (for {host}): {detail}",
    "reason_broken": "the connection to {host} broke: {detail}",
    "reason_too_many_pages": "{host} returned too many pages",
    "reason_version_missing": "no complete release of version {version} for {platform}",
    "reason_no_release": "no complete gz-ia release for {platform}",
    "reason_no_tags": "no published tags in the repository",
    "reason_nexus_nothing_anonymous": "{host} found no assets at all; if anonymous access is "
                                      "off, set GZ_NEXUS_USER and GZ_NEXUS_PASSWORD",
    "reason_not_configured": "{setting} is not set",
    "reason_bad_url": "{setting} is not an http(s) URL with a host name",
    "reason_plain_http_credentials": "refusing to send {secrets} over plain http to {host}; "
                                     "use an https URL",
    "all_sources_failed": "could not check for updates (Nexus: {nexus}; Forgejo: {forgejo})",
    "no_source_configured": "no release source is configured: neither GZ_NEXUS_SEARCH_URL "
                            "nor GZ_FORGEJO_API_URL is set",
    "version_not_published": "version {version} is not published for {platform} {where}",
    "nothing_published": "no gz-ia release is published for {platform} {where}",
    "in_sources": "in {first} nor {second}",
    "in_source": "in {name}",
    "check_hint": "'gz-ia update --check' shows the newest published version",
    "configure_hint": "set GZ_NEXUS_SEARCH_URL and/or GZ_FORGEJO_API_URL (see docs/update.md)",
    "network_hint": "check the network, GZ_NEXUS_SEARCH_URL and GZ_FORGEJO_API_URL; "
                    "behind a proxy set HTTPS_PROXY or HTTP_PROXY",
    # selection
    "bad_version": "invalid version: {version}",
    "flags_with_subcommand": "the options of 'gz-ia update' do not apply to "
                             "'gz-ia update {command}'",
    "subcommand_alone_hint": "run 'gz-ia update {command}' alone",
    "bad_proxy": "unusable proxy setting (HTTPS_PROXY, HTTP_PROXY or ALL_PROXY): {detail}",
    "bad_proxy_hint": "set it to http://[user:password@]host:port",
    "bad_cert_file": "SSL_CERT_FILE {path} is not a readable PEM certificate bundle: {detail}",
    "downgrade_refused": "refusing to downgrade from v{current} to v{version}",
    "downgrade_hint": "add --allow-downgrade to install an older version",
    # integrity
    "bad_base64": "invalid base64 data",
    "bad_public_key": "not a minisign Ed25519 public key",
    "bad_signature_file": "not a minisign signature file",
    "untrusted_key": "signed by key {key_id}, which is not trusted",
    "signature_mismatch": "the signature by key {key_id} does not match",
    "bad_configured_key": "GZ_UPDATE_PUBLIC_KEYS: '{entry}' is neither a minisign public "
                          "key nor a readable .pub file",
    "no_trusted_keys": "no trusted minisign public key: refusing to install an unverified "
                       "release",
    "keys_hint": "set GZ_UPDATE_PUBLIC_KEYS to the release public key (the base64 line of "
                 "minisign.pub, or the path of that file)",
    "signature_invalid": "SHA256SUMS signature rejected: {reason}",
    "not_in_sums": "{file} is not listed in SHA256SUMS",
    "registry_hash_differs": "the registry's sha256 of {file} differs from SHA256SUMS",
    "size_mismatch": "{file}: received {size} bytes, expected {expected}",
    "hash_mismatch": "{file}: sha256 does not match SHA256SUMS",
    "too_large": "{file} is larger than expected ({limit} bytes); download stopped",
    "download_failed": "download of {file} failed: {reason}",
    "self_test_failed": "the downloaded gz-ia does not report version {version}: {output}",
    # apply
    "locked": "another update of {path} is in progress",
    "locked_hint": "wait for it to finish, then run the command again",
    "no_previous": "no previous version to roll back to ({path})",
    "previous_broken": "{path} is not a gz-ia zipapp; nothing was rolled back",
    "not_a_pyz": "gz-ia is not running from a gz-ia.pyz zipapp, so it cannot replace itself",
    "not_a_pyz_hint": "upgrade it with the tool that installed it, e.g. "
                      "'pip install --upgrade gz-ia'; 'gz-ia update --check' still works",
}

ES = {
    "current_version": "❯ Versión actual: v{version}",
    "remote_version": "✧ Versión remota: v{version} ({source})",
    "up_to_date": "✓ gz-ia ya se encuentra en la versión más reciente (v{version})",
    "newer_available": "⚡ Hay una nueva versión disponible (v{version}). "
                       "Ejecuta 'gz-ia update' para instalarla.",
    "downloading": "↻ Descargando e instalando gz-ia v{version}...",
    "updated": "✓ gz-ia actualizado exitosamente a v{version} en {path}",
    "dry_run_ok": "✓ gz-ia v{version} descargado y verificado; no se cambió nada (--dry-run)",
    "rolled_back": "✓ gz-ia restaurado a v{version} en {path}",
    "source_failed": "{source} falló: {reason}; probando {next}",
    "reason_status": "{host} retornó estado HTTP {status}",
    "reason_redirects": "demasiadas redirecciones desde {host}",
    "reason_bad_json": "{host} envió un documento JSON inválido",
    "reason_json_too_large": "{host} envió más de {mib} MiB de JSON",
    "reason_proxy_auth": "el proxy rechazó las credenciales para {host} (HTTP 407); "
                         "revisa el usuario y la contraseña en HTTPS_PROXY/HTTP_PROXY",
    "reason_proxy": "el proxy no pudo llegar a {host}: {detail}",
    "reason_timeout": "{host} no respondió en {seconds} s",
    "reason_connect": "no se pudo conectar con {host}: {detail}",
    "reason_proxy_connect": "no se pudo conectar con el proxy {proxy} (para {host}): {detail}",
    "reason_broken": "se cortó la conexión con {host}: {detail}",
    "reason_too_many_pages": "{host} devolvió demasiadas páginas",
    "reason_version_missing": "no hay una publicación completa de la versión {version} "
                              "para {platform}",
    "reason_no_release": "no se encontraron versiones de gz-ia para {platform}",
    "reason_no_tags": "no se encontraron tags publicados en el repositorio",
    "reason_nexus_nothing_anonymous": "{host} no encontró ningún archivo; si el acceso "
                                      "anónimo está desactivado, define GZ_NEXUS_USER y "
                                      "GZ_NEXUS_PASSWORD",
    "reason_not_configured": "{setting} no está definida",
    "reason_bad_url": "{setting} no es una URL http(s) con un nombre de host",
    "reason_plain_http_credentials": "no se envían {secrets} por http sin cifrar a {host}; "
                                     "usa una URL https",
    "all_sources_failed": "error al verificar actualizaciones (Nexus: {nexus}; Forgejo: {forgejo})",
    "no_source_configured": "no hay ninguna fuente de versiones configurada: no está definida "
                            "GZ_NEXUS_SEARCH_URL ni GZ_FORGEJO_API_URL",
    "version_not_published": "la versión {version} no está publicada para {platform} {where}",
    "nothing_published": "no hay ninguna versión de gz-ia publicada para {platform} {where}",
    "in_sources": "ni en {first} ni en {second}",
    "in_source": "en {name}",
    "check_hint": "'gz-ia update --check' muestra la versión publicada más reciente",
    "configure_hint": "define GZ_NEXUS_SEARCH_URL y/o GZ_FORGEJO_API_URL (ver docs/update.md)",
    "network_hint": "verifica la conexión y las variables GZ_NEXUS_SEARCH_URL o "
                    "GZ_FORGEJO_API_URL; si utilizas un proxy corporativo, configura "
                    "HTTP_PROXY o HTTPS_PROXY",
    "bad_version": "versión inválida: {version}",
    "flags_with_subcommand": "las opciones de 'gz-ia update' no se aplican a "
                             "'gz-ia update {command}'",
    "subcommand_alone_hint": "ejecuta 'gz-ia update {command}' solo",
    "bad_proxy": "proxy inutilizable (HTTPS_PROXY, HTTP_PROXY o ALL_PROXY): {detail}",
    "bad_proxy_hint": "defínelo como http://[usuario:contraseña@]host:puerto",
    "bad_cert_file": "SSL_CERT_FILE {path} no es un archivo de certificados PEM legible: "
                     "{detail}",
    "downgrade_refused": "no se instala una versión anterior (v{current} → v{version})",
    "downgrade_hint": "agrega --allow-downgrade para instalar una versión anterior",
    "bad_base64": "datos base64 inválidos",
    "bad_public_key": "no es una clave pública minisign Ed25519",
    "bad_signature_file": "no es un archivo de firma minisign",
    "untrusted_key": "firmado con la clave {key_id}, que no es de confianza",
    "signature_mismatch": "la firma de la clave {key_id} no coincide",
    "bad_configured_key": "GZ_UPDATE_PUBLIC_KEYS: '{entry}' no es una clave pública minisign "
                          "ni un archivo .pub legible",
    "no_trusted_keys": "no hay ninguna clave pública minisign de confianza: no se instala "
                       "una versión sin verificar",
    "keys_hint": "define GZ_UPDATE_PUBLIC_KEYS con la clave pública de las versiones (la línea "
                 "base64 de minisign.pub, o la ruta de ese archivo)",
    "signature_invalid": "firma de SHA256SUMS rechazada: {reason}",
    "not_in_sums": "{file} no figura en SHA256SUMS",
    "registry_hash_differs": "el sha256 de {file} según el registro no coincide con SHA256SUMS",
    "size_mismatch": "{file}: se recibieron {size} bytes, se esperaban {expected}",
    "hash_mismatch": "{file}: el sha256 no coincide con SHA256SUMS",
    "too_large": "{file} es más grande de lo esperado ({limit} bytes); descarga detenida",
    "download_failed": "error descargando {file}: {reason}",
    "self_test_failed": "el gz-ia descargado no informa la versión {version}: {output}",
    "locked": "ya hay otra actualización de {path} en curso",
    "locked_hint": "espera a que termine y vuelve a ejecutar el comando",
    "no_previous": "no hay una versión anterior a la que volver ({path})",
    "previous_broken": "{path} no es un zipapp de gz-ia; no se restauró nada",
    "not_a_pyz": "gz-ia no se está ejecutando desde un zipapp gz-ia.pyz, no puede "
                 "reemplazarse a sí mismo",
    "not_a_pyz_hint": "actualízalo con la herramienta que lo instaló, p. ej. "
                      "'pip install --upgrade gz-ia'; 'gz-ia update --check' sigue funcionando",
}
