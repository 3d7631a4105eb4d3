"""Settings checks that belong to config: one line naming the variable, exit 2 from the CLI."""

from __future__ import annotations

from pathlib import Path

import pytest
from pydantic import SecretStr

from config.settings import SettingsError, load_settings, require_wiki_dir
from tests.conftest import make_settings


@pytest.mark.parametrize(
    ("wiki_dir", "git_url", "accepted"),
    [
        ("folder", None, True),
        ("missing", None, False),
        ("file", None, False),
        ("folder", "file:///srv/vault.git", True),
        ("missing", "file:///srv/vault.git", True),
        ("file", "file:///srv/vault.git", False),
    ],
)
def test_wiki_dir_must_be_a_folder_unless_it_is_still_to_be_cloned(
    tmp_path: Path, wiki_dir: str, git_url: str | None, accepted: bool
) -> None:
    (tmp_path / "folder").mkdir()
    (tmp_path / "file").write_text("not a vault")
    settings = make_settings(tmp_path, wiki_dir=tmp_path / wiki_dir, wiki_git_url=git_url)
    if accepted:
        require_wiki_dir(settings)
    else:
        with pytest.raises(SettingsError, match=r"^invalid setting WIKI_DIR: .* is not a folder$"):
            require_wiki_dir(settings)


SECRETS = (
    "SLACK_BOT_TOKEN",
    "SLACK_SIGNING_SECRET",
    "SLACK_APP_TOKEN",
    "LLM_API_KEY",
    "WIKI_GIT_WEBHOOK_SECRET",
)


@pytest.mark.parametrize("name", SECRETS)
@pytest.mark.parametrize("value", ["", " ", "\t\n"])
def test_a_blank_secret_is_unset(monkeypatch, name: str, value: str) -> None:
    monkeypatch.setenv(name, value)
    assert getattr(load_settings(_env_file=None), name.lower()) is None


@pytest.mark.parametrize("name", SECRETS)
def test_a_secret_given_blank_in_code_is_unset_too(tmp_path: Path, name: str) -> None:
    assert getattr(make_settings(tmp_path, **{name.lower(): SecretStr("")}), name.lower()) is None


@pytest.mark.parametrize("name", SECRETS)
def test_a_secret_keeps_its_value(monkeypatch, name: str) -> None:
    monkeypatch.setenv(name, "s3cret")
    assert getattr(load_settings(_env_file=None), name.lower()) == SecretStr("s3cret")
