"""Where a remote's repository lives, read off its URL: a pure function, every form git takes."""

from __future__ import annotations

import pytest

from gzia.sessions.review.remotes import RemoteRepository, api_root, parse_remote_url


@pytest.mark.parametrize(("url", "expected"), [
    ("https://forgejo.example/acme/widget.git",
     RemoteRepository("acme", "widget", "forgejo.example", "https://forgejo.example")),
    ("https://forgejo.example/acme/widget",
     RemoteRepository("acme", "widget", "forgejo.example", "https://forgejo.example")),
    ("https://Forgejo.Example:3000/acme/widget.git/",
     RemoteRepository("acme", "widget", "forgejo.example", "https://forgejo.example:3000")),
    ("https://ci:s3cret-t0ken@forgejo.example/git/acme/widget.git",
     RemoteRepository("acme", "widget", "forgejo.example", "https://forgejo.example/git")),
    ("http://10.0.0.5:3000/acme/widget.git",
     RemoteRepository("acme", "widget", "10.0.0.5", "http://10.0.0.5:3000")),
    ("ssh://git@forgejo.example:2222/acme/widget.git",
     RemoteRepository("acme", "widget", "forgejo.example", "https://forgejo.example")),
    ("ssh://forgejo.example/acme/widget",
     RemoteRepository("acme", "widget", "forgejo.example", "https://forgejo.example")),
    ("git@forgejo.example:acme/widget.git",
     RemoteRepository("acme", "widget", "forgejo.example", "https://forgejo.example")),
    ("forgejo.example:acme/widget",
     RemoteRepository("acme", "widget", "forgejo.example", "https://forgejo.example")),
    ("git@github.com:octo/hello-world.git",
     RemoteRepository("octo", "hello-world", "github.com", "https://github.com")),
    ("git://forgejo.example/acme/widget.git",
     RemoteRepository("acme", "widget", "forgejo.example", "https://forgejo.example")),
    ("/srv/git/acme/widget.git", RemoteRepository("acme", "widget", None, None)),
    ("file:///srv/git/acme/widget.git", RemoteRepository("acme", "widget", None, None)),
    ("../remotes/acme/widget.git", RemoteRepository("acme", "widget", None, None)),
])
def test_every_form_of_remote_url(url: str, expected: RemoteRepository) -> None:
    assert parse_remote_url(url) == expected


@pytest.mark.parametrize("url", [
    "https://forgejo.example/widget.git", "https://forgejo.example/", "git@host:widget.git",
    "widget.git", "", "https://forgejo.example:notaport/acme/widget.git", "ssh:///acme/widget",
])
def test_urls_that_name_no_repository(url: str) -> None:
    assert parse_remote_url(url) is None


def test_no_credential_is_kept() -> None:
    repository = parse_remote_url("https://user:s3cret@forgejo.example/acme/widget.git")
    assert repository is not None and "s3cret" not in repr(repository)


@pytest.mark.parametrize(("setting", "root"), [
    ("https://forgejo.example/", "https://forgejo.example"),
    ("https://forgejo.example/sub/api/v1/", "https://forgejo.example/sub"),
    ("https://forgejo.example", "https://forgejo.example"),
])
def test_a_configured_root(setting: str, root: str) -> None:
    assert api_root(setting) == root
