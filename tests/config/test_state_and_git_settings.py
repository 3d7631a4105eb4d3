"""STATE_DB (a SQLite path or a postgresql:// URL) and the folder of a vault cloned from git."""

from __future__ import annotations

from pathlib import Path

import pytest

from config.credentials import CredentialUrl
from config.settings import BUNDLED_VAULT, GIT_VAULT, Settings, SettingsError, load_settings


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (".sakuin/state.sqlite3", Path(".sakuin/state.sqlite3")),
        ("/var/lib/sakuin/state.db", Path("/var/lib/sakuin/state.db")),
        ("postgresql://sakuin:pw@db:5432/sakuin", CredentialUrl("postgresql://sakuin:pw@db:5432/sakuin")),
        (
            "postgres://sakuin@db/sakuin?sslmode=require",
            CredentialUrl("postgres://sakuin@db/sakuin?sslmode=require"),
        ),
        (
            "postgresql:///sakuin?host=/run/postgresql",
            CredentialUrl("postgresql:///sakuin?host=/run/postgresql"),
        ),
    ],
)
def test_state_db_is_a_path_or_a_postgresql_url(monkeypatch, value: str, expected: object) -> None:
    monkeypatch.setenv("STATE_DB", value)
    state_db = load_settings(_env_file=None).state_db
    assert state_db == expected and type(state_db) is type(expected)


def test_state_db_default_is_the_sqlite_file() -> None:
    assert Settings(_env_file=None).state_db == Path(".sakuin/state.sqlite3")


@pytest.mark.parametrize("value", ["mysql://db/sakuin", "postgresql://", "redis://cache"])
def test_state_db_refuses_other_urls(monkeypatch, value: str) -> None:
    monkeypatch.setenv("STATE_DB", value)
    with pytest.raises(
        SettingsError, match="invalid setting STATE_DB: expected a file path or a postgresql://"
    ):
        load_settings(_env_file=None)


def test_a_postgresql_password_never_shows_in_the_settings_repr(monkeypatch) -> None:
    monkeypatch.setenv("STATE_DB", "postgresql://sakuin:hunter2-secret@db/sakuin")
    monkeypatch.setenv("WIKI_GIT_URL", "https://x-access-token:ghp_secret@github.com/t/w.git")
    text = repr(load_settings(_env_file=None))
    assert "hunter2" not in text and "ghp_secret" not in text


@pytest.mark.parametrize(
    ("environment", "wiki_dir"),
    [
        ({}, BUNDLED_VAULT),
        ({"WIKI_GIT_URL": "file:///srv/wiki.git"}, GIT_VAULT),
        ({"WIKI_GIT_URL": "file:///srv/wiki.git", "WIKI_DIR": "/srv/vault"}, Path("/srv/vault")),
        ({"WIKI_GIT_URL": " ", "WIKI_DIR": "/srv/vault"}, Path("/srv/vault")),
        ({"WIKI_GIT_URL": ""}, BUNDLED_VAULT),
    ],
)
def test_a_vault_from_git_gets_its_own_folder(
    monkeypatch, environment: dict[str, str], wiki_dir: Path
) -> None:
    for name, value in environment.items():
        monkeypatch.setenv(name, value)
    assert load_settings(_env_file=None).wiki_dir == wiki_dir
