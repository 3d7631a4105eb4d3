"""Settings checks that belong to config: one line naming the variable, exit 2 from the CLI."""

from __future__ import annotations

from pathlib import Path

import pytest

from config.settings import SettingsError, require_wiki_dir
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
