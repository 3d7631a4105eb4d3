"""The digest's git signal: a vault in git dates its pages by the commit that added them (a renamed
file keeps its first add; a shallow clone's boundary dates nothing), read by the edge from real git."""

from __future__ import annotations

import json
import os
import subprocess
from datetime import UTC, date, datetime
from pathlib import Path

import pytest

from bot.cli.digest import digest_command
from bot.digest.days import day_digest
from bot.digest.git_dates import git_additions
from config.settings import Settings
from index.wiki import Wiki
from tests.bot.git_remote import IDENTITY
from tests.conftest import make_settings
from tests.vaults import write_vault


def git(cwd: Path, *args: str, when: str | None = None) -> None:
    env = {**os.environ, **({"GIT_AUTHOR_DATE": when, "GIT_COMMITTER_DATE": when} if when else {})}
    subprocess.run(["git", *IDENTITY, *args], cwd=cwd, env=env, check=True, capture_output=True)


def note(title: str) -> str:
    return f"---\ntype: entity\ntitle: {title}\n---\n\n# {title}\n\n{title} について。\n"


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """A vault in git: A and Old added on 1 March (Tokyo); on 2 March, B added on a branch merged
    into main, Old renamed; C never committed."""
    vault = tmp_path / "vault"
    vault.mkdir()
    git(vault, "init", "--quiet", "--initial-branch=main")
    write_vault(vault, {"wiki/entities/A.md": note("A"), "wiki/entities/Old.md": note("Old")})
    git(vault, "add", "--all")
    git(vault, "commit", "--quiet", "-m", "first", when="2026-03-01T10:00:00+09:00")
    git(vault, "checkout", "--quiet", "-b", "topic")
    write_vault(vault, {"wiki/entities/B.md": note("B")})
    git(vault, "add", "--all")
    git(vault, "commit", "--quiet", "-m", "B", when="2026-03-01T23:00:00+09:00")
    git(vault, "checkout", "--quiet", "main")
    git(vault, "merge", "--quiet", "--no-ff", "-m", "merge B", "topic", when="2026-03-02T09:00:00+09:00")
    git(vault, "mv", "wiki/entities/Old.md", "wiki/entities/Renamed.md")
    git(vault, "commit", "--quiet", "-m", "rename", when="2026-03-02T11:00:00+09:00")
    write_vault(vault, {"wiki/entities/C.md": note("C")})
    return vault


def digest_pages(settings: Settings, day: date) -> dict[str, str]:
    wiki = Wiki.open(settings.wiki_dir, settings.index_dir)
    wiki.update()
    return {page.path: page.new_by for page in day_digest(settings, wiki, day).pages}


def today(settings: Settings) -> date:
    return datetime.now(UTC).astimezone(settings.zone).date()


def test_git_dates_pages_by_the_commit_that_added_them(tmp_path: Path, repo: Path) -> None:
    settings = make_settings(tmp_path, wiki_dir=repo)
    assert digest_pages(settings, date(2026, 3, 1)) == {
        "wiki/entities/A.md": "git",
        "wiki/entities/Renamed.md": "git",
    }
    assert digest_pages(settings, date(2026, 3, 2)) == {"wiki/entities/B.md": "git"}
    # Indexed today: only the file git does not know is new today.
    assert digest_pages(settings, today(settings)) == {"wiki/entities/C.md": "first_seen"}


async def test_the_json_says_git_decided(tmp_path: Path, repo: Path, capsys) -> None:
    settings = make_settings(tmp_path, wiki_dir=repo)
    assert await digest_command(settings, date(2026, 3, 2), dry_run=True, as_json=True) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["pages"] == [{"path": "wiki/entities/B.md", "title": "B", "type": "entity", "new_by": "git"}]


def test_a_shallow_clone_dates_nothing_by_its_boundary(tmp_path: Path, repo: Path) -> None:
    shallow = tmp_path / "shallow"
    subprocess.run(
        ["git", "clone", "--quiet", "--depth", "1", repo.resolve().as_uri(), str(shallow)],
        check=True,
        capture_output=True,
    )
    settings = make_settings(tmp_path, wiki_dir=shallow)
    assert digest_pages(settings, date(2026, 3, 2)) == {}  # the boundary's additions are unknown
    assert digest_pages(settings, today(settings)) == {}  # but its files were all there before today
    additions = git_additions(shallow, None)
    assert additions is not None and additions.added == {}
    assert additions.known_since == "2026-03-02T11:00:00+09:00"


def test_a_vault_outside_git_has_no_git_signal(tmp_path: Path) -> None:
    vault = write_vault(tmp_path / "vault", {"wiki/entities/A.md": note("A")})
    assert git_additions(vault, None) is None
    assert git_additions(tmp_path / "missing", None) is None
