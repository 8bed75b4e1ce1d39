"""Shared test servers: real HTTP(S) servers on 127.0.0.1 reproducing Nexus and Forgejo.

Use the fixtures from a conftest: ``from tests.fakes.fixtures import *  # noqa: F403``.

Fixtures (``tests/fakes/fixtures.py``):

* ``nexus`` / ``nexus_tls`` → :class:`tests.fakes.nexus.NexusFake` (HTTP / HTTPS). State:
  ``repos[repo][path] = bytes``; helpers ``put(repo, path, data)``, ``publish(files,
  version)`` (stores ``gz-ia/<version>/<file>`` in repo ``gz-ia``), ``search_url(repo,
  assets=True, **filters)``; knobs ``style``, ``checksums``, ``file_size``,
  ``duplicate_keys``, ``page_size``, ``hide``, ``users``, ``anonymous_read``,
  ``write_policy``, ``download_base`` (see that module's docstring). Raw
  ``PUT /repository/<repo>/<path>`` stores a file (201; 400 on redeploy when
  ``write_policy="allow_once"``; 401 + ``WWW-Authenticate: BASIC realm=...`` when ``users``
  is set and the credentials are wrong).
* ``forgejo`` / ``forgejo_tls`` → :class:`tests.fakes.forgejo.ForgejoFake`. State:
  ``repos[(owner, name)]`` (:class:`RepoState`: ``tags``, ``releases``, ``private``),
  ``tokens[token] = {"login": ..., "write": bool}``; helpers ``publish(tag, files,
  draft=, prerelease=)``, ``tags_url(owner, name)``, ``repo(owner, name)``. Create release
  ``POST .../releases``, upload ``POST .../releases/{id}/assets?name=`` (multipart field
  ``attachment``), edit ``PATCH .../releases/{id}``, all with ``Authorization: token …``.
* ``origin`` → :class:`tests.fakes.fixtures.StaticFake` (``files[path] = bytes``): a
  second origin, e.g. the target of a cross-host redirect.
* ``fake.server`` of each is a :class:`tests.fakes.http.FakeServer`: ``url``, ``requests``
  (every :class:`Request` with lower-case headers), ``requests_to(prefix)``,
  ``go_down()``/``come_up()`` (same port), and ``inject(kind, path_prefix, method=,
  times=, **params)`` with kinds ``status`` (``status=503``), ``slow`` (``delay=``),
  ``trickle`` (``chunk=``, ``delay=``),
  ``bad_json``, ``truncate`` (``keep=``), ``corrupt`` (``offset=``), ``redirect``
  (``location=``, ``append_target=``, ``code=``), ``drop``; ``clear_faults()``.
* ``tls_ca`` (a trustme CA, session) and ``tls_ca_file`` (its PEM path, for
  ``SSL_CERT_FILE``).
* ``http_proxy`` (session) → :class:`tests.fakes.proxy.ProxyProcess`: the ``proxy.py``
  package with ``--basic-auth``; ``url`` (with credentials), ``url_with(user, pw)``,
  ``mark()`` / ``log_since(mark)`` over its access log.
* ``minisign_key`` (session) → :class:`tests.fakes.signing.MinisignKey` made by the real
  ``minisign`` tool: ``sign(path, legacy=, trusted_comment=)``, ``pub``, ``public_line``.
* ``dead_url``: an ``http://127.0.0.1:<port>`` where nothing listens.

Helpers: ``tests.fakes.releases.make_release(workdir, version, pyz_bytes, key)`` (the
DESIGN §8 file set) and ``make_standin_pyz(path, version)`` (a tiny zipapp whose
``--version`` prints ``gz-ia <version>``).
"""
