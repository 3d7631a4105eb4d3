"""One rule for the terminal's language: ``UI_LANGUAGE``, and under ``auto`` the system locale as
Slack takes a user's (English for ``en_*``, else Japanese); a question is answered in its own
language; the reasons a file was left out or skipped are in that language too."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bot.cli.commands import main
from bot.cli.reasons import KNOWN, reason_text
from bot.i18n import use_language
from index.reading import vault
from tests.conftest import EXAMPLE_VAULT
from tests.vaults import SMALL_VAULT, write_vault


@pytest.fixture
def terminal(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> pytest.MonkeyPatch:
    monkeypatch.setenv("WIKI_DIR", str(EXAMPLE_VAULT))
    monkeypatch.setenv("INDEX_DIR", str(tmp_path / "index"))
    return monkeypatch


@pytest.mark.parametrize(
    ("setting", "locale", "said"),
    [
        ("auto", {"LANG": "en_US.UTF-8"}, "no page named"),
        ("auto", {"LANG": "ja_JP.UTF-8"}, "というページはありません"),
        ("auto", {"LANG": "C.UTF-8"}, "というページはありません"),
        ("auto", {}, "というページはありません"),
        ("auto", {"LANG": "ja_JP.UTF-8", "LC_ALL": "en_GB.UTF-8"}, "no page named"),  # LC_ALL wins
        ("auto", {"LANG": "en_US.UTF-8", "LC_MESSAGES": "ja_JP.UTF-8"}, "というページはありません"),
        ("en", {"LANG": "ja_JP.UTF-8"}, "no page named"),
        ("ja", {"LANG": "en_US.UTF-8"}, "というページはありません"),
    ],
)
def test_the_terminal_speaks_the_setting_or_the_system_locale(
    terminal: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], setting, locale, said
) -> None:
    terminal.setenv("UI_LANGUAGE", setting)
    for name, value in locale.items():
        terminal.setenv(name, value)
    assert main(["lookup", "Qzxqzxqzx"]) == 0
    assert said in capsys.readouterr().out


@pytest.mark.parametrize(
    ("text", "label"),
    [
        ("/entity ByteDance", "Linked from"),  # a command: the terminal's language, as in Slack
        ("/entity バイトダンス", "Linked from"),
        ("Minder を開発したのはどこ?", "Wiki のほかの箇所"),  # a question: its own
        ("Who developed Minder?", "Also in the wiki"),
    ],
)
def test_ask_answers_commands_in_the_terminals_language_and_questions_in_theirs(
    terminal: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], text, label
) -> None:
    terminal.setenv("UI_LANGUAGE", "auto")
    terminal.setenv("LANG", "en_US.UTF-8")
    assert main(["ask", "--json", text]) == 0
    assert label in json.dumps(json.loads(capsys.readouterr().out), ensure_ascii=False)


def test_every_reason_the_vault_gives_is_translated() -> None:
    reasons = {vault.OUTSIDE_WIKI, vault.CATALOG, vault.GUIDE, vault.META, vault.RAW, vault.UNDERSCORE}
    reasons |= {vault.UNREADABLE, vault.TEXT_ATTACHMENT}
    assert reasons <= set(KNOWN)
    with use_language("ja"):
        assert reason_text(vault.OUTSIDE_WIKI) == "wiki/ の外（人のメモの層）"
        joined = "frontmatter has no closing '---'; read as body; invalid UTF-8 at byte 3"
        assert reason_text(joined) == (
            "フロントマターに閉じる '---' がないため本文として読みました; invalid UTF-8 at byte 3"
        )


@pytest.mark.parametrize(
    ("locale", "said", "not_said"),
    [
        ("ja_JP.UTF-8", ("wiki/ の外（人のメモの層）: 1", "空のファイル"), "human note layer"),
        ("en_US.UTF-8", ("outside wiki/ (human note layer): 1", "skipped: empty file"), "人のメモ"),
    ],
)
def test_index_says_why_in_the_terminals_language(
    tmp_path: Path, terminal: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], locale, said, not_said
) -> None:
    files = {**SMALL_VAULT, "papers/reading.md": "# 読書メモ\n", "wiki/entities/Empty.md": ""}
    terminal.setenv("WIKI_DIR", str(write_vault(tmp_path / "vault", files)))
    terminal.setenv("LANG", locale)
    assert main(["index"]) == 0
    out = capsys.readouterr().out
    assert all(words in out for words in said) and not_said not in out
