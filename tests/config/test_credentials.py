"""Credentials inside URLs: what is hidden, what stays readable."""

from __future__ import annotations

import pytest

from config.credentials import CredentialUrl, redact_text, redact_url


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
