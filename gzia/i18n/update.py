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
