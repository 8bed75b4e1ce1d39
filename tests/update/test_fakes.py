"""The shared fakes reproduce the documented registry responses (registries.md)."""

from __future__ import annotations

import json

import httpx
import pytest

from tests.fakes.forgejo import ForgejoFake
from tests.fakes.nexus import NexusFake


def test_nexus_asset_search_paginates_with_empty_page_and_token(nexus: NexusFake) -> None:
    nexus.page_size = 2
    for i in range(3):
        nexus.put("gz-ia", f"gz-ia/1.0.{i}/SHA256SUMS", b"x")
    nexus.put("gz-ia", "other/noise", b"n")
    nexus.hide = ["other/"]
    url = nexus.search_url()
    first = httpx.get(url).json()
    assert [i["path"] for i in first["items"]] == ["/gz-ia/1.0.0/SHA256SUMS",
                                                    "/gz-ia/1.0.1/SHA256SUMS"]
    assert first["continuationToken"] == "2"
    second = httpx.get(url + "&continuationToken=2").json()
    assert [i["path"] for i in second["items"]] == ["/gz-ia/1.0.2/SHA256SUMS"]
    assert second["continuationToken"] == "4"  # the hidden asset filled the page
    assert httpx.get(url + "&continuationToken=4").json() == {"items": [],
                                                              "continuationToken": None}
    assert httpx.get(url + "&continuationToken=abc").status_code == 400


def test_nexus_quirks_orient_style_legacy_checksums_duplicate_keys(nexus: NexusFake) -> None:
    nexus.style, nexus.checksums, nexus.file_size, nexus.duplicate_keys = \
        "orient", "legacy", False, True
    nexus.put("gz-ia", "gz-ia/1.0.0/SHA256SUMS", b"abc")
    text = httpx.get(nexus.search_url(assets=False)).text
    assert text.count('"blobCreated" :') == 2
    component = json.loads(text)["items"][0]
    assert component["version"] is None and component["name"] == "gz-ia/1.0.0/SHA256SUMS"
    asset = component["assets"][0]
    assert asset["path"] == "gz-ia/1.0.0/SHA256SUMS" and asset["fileSize"] is None
    assert sorted(asset["checksum"]) == ["md5", "sha1"]
    assert httpx.get(asset["downloadUrl"]).content == b"abc"


def test_nexus_basic_auth_and_raw_put(nexus: NexusFake) -> None:
    nexus.users = {"ci": "pw"}
    nexus.anonymous_read = False
    url = f"{nexus.server.url}/repository/gz-ia/gz-ia/2.0.0/SHA256SUMS"
    denied = httpx.put(url, content=b"s")
    assert denied.status_code == 401
    assert denied.headers["www-authenticate"] == 'BASIC realm="Sonatype Nexus Repository Manager"'
    assert httpx.put(url, content=b"s", auth=("ci", "pw")).status_code == 201
    assert httpx.get(nexus.search_url(), auth=("ci", "pw")).json()["items"][0]["fileSize"] == 1
    nexus.write_policy = "allow_once"
    assert httpx.put(url, content=b"t", auth=("ci", "pw")).status_code == 400


def test_forgejo_tags_pagination_and_release_flow(forgejo: ForgejoFake) -> None:
    forgejo.tokens["tok"] = {"login": "ci", "write": True}
    for i in range(3):
        forgejo.publish(f"v1.0.{i}", {"SHA256SUMS": b"s"})
    url = forgejo.tags_url()
    page = httpx.get(url, params={"page": 1, "limit": 2})
    assert page.headers["x-total-count"] == "3" and "link" not in page.headers
    assert [t["name"] for t in page.json()] == ["v1.0.2", "v1.0.1"]
    assert len(httpx.get(url, params={"limit": 1}).json()) == 3  # no page: every tag
    api = url.rsplit("/tags", 1)[0]
    auth = {"Authorization": "token tok"}
    created = httpx.post(f"{api}/releases", json={"tag_name": "v2.0.0", "draft": True},
                         headers=auth)
    assert created.status_code == 201 and created.json()["archive_download_count"] is None
    rid = created.json()["id"]
    up = httpx.post(f"{api}/releases/{rid}/assets", params={"name": "SHA256SUMS"},
                    files={"attachment": ("SHA256SUMS", b"sums")}, headers=auth)
    assert up.status_code == 201 and "/attachments/" in up.json()["browser_download_url"]
    assert httpx.get(f"{api}/releases/tags/v2.0.0").json()["draft"] is True
    listed = httpx.get(f"{api}/releases", params={"limit": 2, "page": 1})
    assert "v2.0.0" not in [r["tag_name"] for r in listed.json()]  # anonymous: no drafts
    assert listed.headers["link"].endswith('rel="last"')
    assert httpx.patch(f"{api}/releases/{rid}", json={"draft": False},
                       headers=auth).json()["draft"] is False
    release = httpx.get(f"{api}/releases/tags/v2.0.0").json()
    assert httpx.get(release["assets"][0]["browser_download_url"]).content == b"sums"
    bad = httpx.get(url, headers={"Authorization": "token nope"})
    assert bad.status_code == 401
    assert bad.json()["message"] == "user does not exist [uid: 0, name: ]"
    assert httpx.post(f"{api}/releases", json={"tag_name": "v2.0.0"},
                      headers=auth).status_code == 409


@pytest.mark.parametrize("kind", ["status", "bad_json", "truncate", "redirect", "drop"])
def test_faults(nexus: NexusFake, kind: str) -> None:
    nexus.put("gz-ia", "gz-ia/1.0.0/f", b"0123456789")
    path = "/repository/gz-ia/gz-ia/1.0.0/f"
    nexus.server.inject(kind, "/repository/", keep=4, location="http://127.0.0.1:9/x")
    url = nexus.server.url + path
    if kind in {"truncate", "drop"}:
        with pytest.raises(httpx.RemoteProtocolError):
            httpx.get(url)
    else:
        response = httpx.get(url)
        expected = {"status": 503, "bad_json": 200, "redirect": 302}[kind]
        assert response.status_code == expected


def test_tls_and_proxy_with_basic_auth(nexus_tls: NexusFake, tls_ca_file, http_proxy) -> None:
    import ssl

    nexus_tls.put("gz-ia", "gz-ia/1.0.0/f", b"x")
    context = ssl.create_default_context(cafile=str(tls_ca_file))
    mark = http_proxy.mark()
    with httpx.Client(verify=context, proxy=http_proxy.url) as client:
        assert client.get(nexus_tls.search_url()).status_code == 200
    assert f"CONNECT 127.0.0.1:{nexus_tls.server.port}" in http_proxy.log_since(mark)
    with httpx.Client(verify=context, proxy=http_proxy.url_with("proxyuser", "wrong")) as client,\
            pytest.raises(httpx.ProxyError):
        client.get(nexus_tls.search_url())


def test_a_client_resetting_a_kept_alive_connection_writes_nothing_to_stderr(
        nexus: NexusFake) -> None:
    """gz-ia's client resets kept-alive connections when it closes; the server notices in its
    own thread, maybe while a test runs the next command in this process with ``sys.stderr``
    redirected into that command's output: nothing may land there."""
    import contextlib
    import io
    import socket
    import struct
    import time

    assert nexus.server is not None
    captured = io.StringIO()
    with contextlib.redirect_stderr(captured):
        with socket.create_connection(("127.0.0.1", nexus.server.port), timeout=10) as client:
            client.sendall(b"GET /nothing HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            assert client.recv(65536).startswith(b"HTTP/1.1 404")
            client.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        deadline = time.monotonic() + 30
        while nexus.server.hangups < 1 and time.monotonic() < deadline:
            time.sleep(0.01)
    assert (nexus.server.hangups, captured.getvalue()) == (1, "")
