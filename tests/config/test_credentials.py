"""Credentials inside URLs: what is hidden, what stays readable."""

from __future__ import annotations

import base64

import pytest

from config.credentials import CredentialUrl, git_command_url, git_environment, redact_text, redact_url


@pytest.mark.parametrize(
    ("url", "shown"),
    [
        (
            "https://x-access-token:ghp_abc123@github.com/team/wiki.git",
            "https://x-access-token:***@github.com/team/wiki.git",
        ),
        ("https://ghp_abc123@github.com/team/wiki.git", "https://***@github.com/team/wiki.git"),
        (
            "https://oauth2:glpat-xyz@gitlab.example.com/team/wiki.git",
            "https://oauth2:***@gitlab.example.com/team/wiki.git",
        ),
        ("https://github.com/team/wiki.git", "https://github.com/team/wiki.git"),
        ("ssh://git@github.com/team/wiki.git", "ssh://git@github.com/team/wiki.git"),
        ("git@github.com:team/wiki.git", "git@github.com:team/wiki.git"),
        ("file:///srv/git/wiki.git", "file:///srv/git/wiki.git"),
        ("postgresql://sakuin:pa%40ss@db:5432/sakuin", "postgresql://sakuin:***@db:5432/sakuin"),
        ("postgresql://sakuin@db/sakuin", "postgresql://sakuin@db/sakuin"),
    ],
)
def test_redact_url(url: str, shown: str) -> None:
    assert redact_url(url) == shown


@pytest.mark.parametrize(
    ("text", "url", "shown"),
    [
        (
            "fatal: unable to access 'https://x-access-token:tok-9876@github.com/t/w.git/': 403",
            "https://x-access-token:tok-9876@github.com/t/w.git",
            "fatal: unable to access 'https://x-access-token:***@github.com/t/w.git/': 403",
        ),
        (
            "password authentication failed: tok-9876",
            "https://u:tok-9876@h/x",
            "password authentication failed: ***",
        ),
        ("secret p@ss! and p%40ss%21", "postgresql://u:p%40ss%21@h/db", "secret *** and ***"),
        ("nothing to hide", None, "nothing to hide"),
    ],
)
def test_redact_text(text: str, url: str | None, shown: str) -> None:
    assert redact_text(text, url) == shown


def test_credential_url_is_a_plain_string_with_a_redacted_repr() -> None:
    url = CredentialUrl("https://u:tok-9876@h/x.git")
    assert url == "https://u:tok-9876@h/x.git" and isinstance(url, str)
    assert "tok-9876" not in repr(url) and "tok-9876" not in repr([url])
    assert url.redacted == "https://u:***@h/x.git"


@pytest.mark.parametrize(
    ("url", "command_url", "header_key", "basic"),
    [
        (
            "https://x-access-token:ghp_abc123@github.com/team/wiki.git",
            "https://github.com/team/wiki.git",
            "http.https://github.com/.extraHeader",
            "x-access-token:ghp_abc123",
        ),
        (
            "https://ghp_abc123@github.com/team/wiki.git",
            "https://github.com/team/wiki.git",
            "http.https://github.com/.extraHeader",
            "ghp_abc123:",
        ),
        (
            "HTTPS://oauth2:glpat%2Fxyz@gitlab.example.com:8443/team/wiki.git",
            "https://gitlab.example.com:8443/team/wiki.git",
            "http.https://gitlab.example.com:8443/.extraHeader",
            "oauth2:glpat/xyz",
        ),
        ("https://github.com/team/wiki.git", "https://github.com/team/wiki.git", None, None),
        ("ssh://git@github.com/team/wiki.git", "ssh://git@github.com/team/wiki.git", None, None),
        ("git@github.com:team/wiki.git", "git@github.com:team/wiki.git", None, None),
        ("ssh://git:pw-1234@host/wiki.git", "ssh://git:***@host/wiki.git", None, None),
        ("file:///srv/git/wiki.git", "file:///srv/git/wiki.git", None, None),
    ],
)
def test_git_gets_the_credentials_in_its_environment_only(
    monkeypatch, url: str, command_url: str, header_key: str | None, basic: str | None
) -> None:
    monkeypatch.setenv("GIT_CONFIG_COUNT", "1")
    monkeypatch.setenv("GIT_CONFIG_KEY_0", "core.askPass")
    monkeypatch.setenv("GIT_CONFIG_VALUE_0", "")
    assert git_command_url(url) == command_url
    environment = git_environment(url)
    if header_key is None:
        assert environment is None  # inherited as it is
        return
    assert environment is not None
    assert environment["GIT_CONFIG_KEY_0"] == "core.askPass"  # what was there stays
    assert environment["GIT_CONFIG_COUNT"] == "2" and environment["GIT_CONFIG_KEY_1"] == header_key
    scheme, _, value = environment["GIT_CONFIG_VALUE_1"].removeprefix("Authorization: ").partition(" ")
    assert scheme == "Basic" and base64.b64decode(value).decode() == basic
