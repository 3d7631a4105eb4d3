"""Every kind of reply in ``UI_LANGUAGE=ja`` and ``en``, through `bot.answering.replies`, within Block Kit
limits.

A Japanese reply must carry no English UI phrase (every phrase of the catalog's source strings is
looked for), and an English one no Japanese UI phrase.
"""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path

import pytest

from bot.answering.model_rewrite import final_reply
from bot.answering.replies import card_reply, question_reply, replies_for_text, reply_for_text, shared_reply
from bot.blocks.digest import SOURCES_PER_MESSAGE
from bot.blocks.reply import Reply
from bot.blocks.visible import visible_text
from bot.cli.commands import main
from bot.cli.doctor import check_settings
from bot.conversation.assistant import build_prompts
from bot.digest.posting import post_digest
from bot.i18n import use_language
from bot.slack.client import build_client
from bot.state.store import AsyncStateStore, open_state_store
from index.model import DigestItem, PageRef
from index.wiki import Wiki
from tests.bot.block_kit import assert_valid_blocks
from tests.bot.fake_openai import MODEL, FakeOpenAI
from tests.bot.fake_slack import FakeSlack
from tests.bot.languages import assert_in_language
from tests.conftest import EXAMPLE_VAULT, make_settings
from tests.vaults import digest_vault, entity, write_vault


def reader_text(reply: Reply) -> str:
    """What a person reads: the notification text, the blocks, and the labels of buttons and selects."""
    labels = [
        element.get("text", element.get("placeholder", {})).get("text", "")
        for block in reply.blocks
        for element in [*block.get("elements", []), *([block["accessory"]] if "accessory" in block else [])]
        if element.get("type") in ("button", "static_select")
    ]
    return "\n".join([reply.text, visible_text(reply.blocks), *labels])


def check(reply: Reply, language: str, label: str) -> None:
    assert_valid_blocks(reply.blocks)
    assert reply.text and len(reply.text) <= 3000
    text = reader_text(reply)
    assert label in text, f"{label!r} not in the {language} reply:\n{text}"
    assert_in_language(text, language)


KINDS = [
    # kind, text, English label, Japanese label
    ("card", "/entity ByteDance", "Linked from", "リンク元"),
    ("card buttons", "/entity ByteDance", "Share to channel", "チャンネルに共有"),
    ("unresolved", "/entity Zhuo Jiang", "has no page yet", "のページはまだありません"),
    ("no match", "/entity Lin", "No page is called", "というページはありません"),
    ("search", "/wiki CCL ハング", "Top 5 for", "の上位"),
    ("search button", "/wiki CCL ハング", "Card", "カード"),
    ("nothing found", "/wiki qzxqzxqzx", "Nothing in the wiki matches", "に一致するものは Wiki にありません"),
    ("help", "/wiki help", "How to use sakuin", "sakuin の使い方"),
    ("entity help", "/entity", "full-text search", "全文検索"),
    ("name too long", "/entity " + "x" * 300, "characters long", "文字は長すぎます"),
    ("query too long", "/wiki " + "長い質問" * 300, "characters long", "文字は長すぎます"),
    ("question", "Minder を開発したのはどこ?", "Also in the wiki", "Wiki のほかの箇所"),
    ("question in English", "Who developed Minder?", "Also in the wiki", "Wiki のほかの箇所"),
    ("question unanswered", "qzxqzxqzx zzyzx", "could not find anything", "何も見つかりませんでした"),
]


@pytest.mark.parametrize("language", ["ja", "en"])
@pytest.mark.parametrize(("kind", "text", "english", "japanese"), KINDS, ids=[kind[0] for kind in KINDS])
def test_every_reply_kind_in_both_languages(linked_wiki, tmp_path, language, kind, text, english, japanese):
    reply = reply_for_text(text, linked_wiki, make_settings(tmp_path, ui_language=language))
    check(reply, language, japanese if language == "ja" else english)


@pytest.mark.parametrize(("language", "label"), [("ja", "どれのことですか"), ("en", "Which one do you mean")])
def test_candidates_in_both_languages(tmp_path, language, label):
    vault = write_vault(
        tmp_path / "vault",
        {
            "wiki/entities/Mercury (planet).md": entity("Mercury", body="太陽に最も近い惑星。"),
            "wiki/entities/Mercury (element).md": entity("Mercury", body="水銀。"),
        },
    )
    small = Wiki.open(vault, tmp_path / "index")
    small.update()
    check(
        reply_for_text("/entity mercury", small, make_settings(tmp_path, ui_language=language)),
        language,
        label,
    )


@pytest.mark.parametrize(("language", "label"), [("ja", "索引を作成中"), ("en", "still being built")])
@pytest.mark.parametrize("text", ["/entity ByteDance", "/wiki MegaScale", "Minder とは"])
def test_index_not_ready_in_both_languages(tmp_path, language, label, text):
    unbuilt = Wiki.open(EXAMPLE_VAULT, tmp_path / "never-built")
    check(reply_for_text(text, unbuilt, make_settings(tmp_path, ui_language=language)), language, label)


@pytest.mark.parametrize(
    ("language", "label"), [("ja", "もう Wiki にありません"), ("en", "no longer in the wiki")]
)
def test_a_removed_page_in_both_languages(linked_wiki, tmp_path, language, label):
    with use_language(language):  # a button's answer: the language the listener set for the user
        check(card_reply("wiki/entities/Gone.md", linked_wiki), language, label)


@pytest.mark.parametrize(("language", "label"), [("ja", "リンク元"), ("en", "Linked from")])
@pytest.mark.parametrize("value", ["text:/entity ByteDance", "page:wiki/entities/ByteDance.md"])
def test_a_shared_answer_in_both_languages(linked_wiki, tmp_path, language, label, value):
    check(shared_reply(value, linked_wiki, make_settings(tmp_path, ui_language=language)), language, label)


@pytest.mark.parametrize(
    ("caller", "text", "label"),
    [
        ("ja", "/entity ByteDance", "リンク元"),  # a command: the user's locale, set by the caller
        ("en", "/entity ByteDance", "Linked from"),
        ("en", "Minder を開発したのはどこ?", "Wiki のほかの箇所"),  # a question: its own language
        ("ja", "Who developed Minder?", "Also in the wiki"),
    ],
)
def test_auto_follows_the_caller_for_commands_and_the_text_for_questions(
    linked_wiki, tmp_path: Path, caller, text, label
):
    with use_language(caller):
        reply = reply_for_text(text, linked_wiki, make_settings(tmp_path, ui_language="auto"))
    assert label in reader_text(reply)


@pytest.mark.parametrize(
    ("setting", "text", "language", "label"),
    [
        ("ja", "/entity ByteDance", "ja", "リンク元"),
        ("en", "/entity バイトダンス", "en", "Linked from"),
        ("auto", "/entity ByteDance", "ja", "リンク元"),  # auto: a command in the terminal's (no locale)
        ("auto", "/entity バイトダンス", "ja", "リンク元"),
        ("auto", "Minder を開発したのはどこ?", "ja", "Wiki のほかの箇所"),
        ("auto", "Who developed Minder?", "en", "Also in the wiki"),
    ],
)
def test_sakuin_ask_uses_the_setting_or_the_texts_language(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    setting,
    text,
    language,
    label,
):
    monkeypatch.setenv("INDEX_DIR", str(tmp_path / "index"))
    monkeypatch.setenv("STATE_DB", str(tmp_path / "state.sqlite3"))
    monkeypatch.setenv("UI_LANGUAGE", setting)
    assert main(["ask", "--json", text]) == 0
    payload = json.loads(capsys.readouterr().out)
    check(Reply(payload["text"], tuple(payload["blocks"])), language, label)


@pytest.mark.parametrize(
    ("setting", "message"), [("auto", "というページはありません"), ("en", "no page named")]
)
def test_the_command_lines_own_messages_follow_the_setting(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], setting, message
):
    monkeypatch.setenv("INDEX_DIR", str(tmp_path / "index"))
    monkeypatch.setenv("STATE_DB", str(tmp_path / "state.sqlite3"))
    monkeypatch.setenv("UI_LANGUAGE", setting)
    assert main(["lookup", "Qzxqzxqzx"]) == 0
    assert message in capsys.readouterr().out


@pytest.mark.parametrize(
    ("setting", "language", "label", "prompt"),
    [
        ("ja", "ja", "Wiki の 5 箇所から作成", "Write the answer in Japanese"),
        ("en", "en", "written by `fake-model-1` from 5 wiki passages", "Write the answer in English"),
        ("auto", "ja", "Wiki の 5 箇所から作成", "Write the answer in Japanese"),
    ],
)
async def test_a_model_answer_in_the_ui_language(linked_wiki, tmp_path, setting, language, label, prompt):
    question = "Minder を開発したのはどこ?"
    async with FakeOpenAI() as model:
        model.reply("Minder は ByteDance が開発した [1]。")
        settings = make_settings(
            tmp_path, ui_language=setting, llm_base_url=model.base_url, llm_model=MODEL, llm_timeout=10.0
        )
        reply = await final_reply(reply_for_text(question, linked_wiki, settings), settings)
    check(reply, language, label)
    assert prompt in model.requests[0].system


DIGEST_DAY = date(2026, 10, 14)


@pytest.mark.parametrize("language", ["ja", "en"])
@pytest.mark.parametrize(
    ("text", "english", "japanese"),
    [
        ("/wiki digest 2026-10-14", "New sources · 2026-10-14", "新しいソース · 2026-10-14"),
        ("/wiki digest 2026-10-15", "No sources were added that day", "この日に追加されたソースはありません"),
        ("/wiki digest yesterday", "is not a date", "は日付ではありません"),
    ],
)
def test_the_digest_preview_in_both_languages(linked_wiki, tmp_path, language, text, english, japanese):
    for reply in replies_for_text(text, linked_wiki, make_settings(tmp_path, ui_language=language)):
        check(reply, language, japanese if language == "ja" else english)


@pytest.mark.parametrize(
    ("setting", "language", "label"), [("auto", "ja", "新しいソース"), ("en", "en", "New sources")]
)
async def test_the_posted_digest_speaks_the_channels_language(tmp_path, setting, language, label):
    write_vault(tmp_path / "vault", digest_vault(DIGEST_DAY, count=2 * SOURCES_PER_MESSAGE + 1))
    async with FakeSlack() as slack:
        settings = make_settings(
            tmp_path,
            wiki_dir=tmp_path / "vault",
            slack_bot_token="xoxb-test",
            slack_api_url=slack.api_url,
            digest_channel=("C0DIGEST",),
            ui_language=setting,
        )
        wiki = Wiki.open(settings.wiki_dir, settings.index_dir)
        wiki.update()
        with open_state_store(settings.state_db) as store:
            outcome = await post_digest(
                settings, wiki, build_client(settings), AsyncStateStore(store), DIGEST_DAY
            )
        messages = slack.messages("C0DIGEST")
    assert outcome.settled and len(messages) == 3
    for message in messages:
        check(Reply(message["text"], tuple(message["blocks"])), language, label)


@pytest.mark.parametrize(
    ("language", "detail"),
    [
        ("ja", "どちらもないとボットは何も受け取れません"),
        ("en", "with neither the bot cannot receive anything"),
    ],
)
def test_doctor_says_what_to_do_in_both_languages(tmp_path, language, detail):
    settings = make_settings(tmp_path, slack_signing_secret=None, slack_app_token=None)
    with use_language(language):
        check_result = check_settings(settings)
    assert check_result.name == "settings" and not check_result.ok  # names are identifiers
    assert detail in check_result.detail
    assert_in_language(check_result.detail, language)


@pytest.mark.parametrize(
    ("question", "language", "label"),
    [
        ("Minder を開発したのはどこ?", "ja", "Wiki のほかの箇所"),
        ("Who developed Minder?", "en", "Also in the wiki"),
    ],
)
def test_question_reply_alone_answers_in_the_questions_language(
    linked_wiki, tmp_path, question, language, label
):
    """The conversation path calls `question_reply` directly (a follow-up with its thread's subject)."""
    settings = make_settings(tmp_path, ui_language="auto")
    check(question_reply(question, linked_wiki, settings, subject="wiki/entities/Minder.md"), language, label)


@pytest.mark.parametrize(("language", "title"), [("ja", "新着: "), ("en", "New: ")])
def test_assistant_prompts_in_both_languages(language, title):
    recent = (DigestItem("wiki/sources/a.md", "Paper A", None, None, "", ()),)
    with use_language(language):
        prompts = build_prompts(recent, (PageRef("ByteDance", "wiki/entities/ByteDance.md"),), "/entity")
    assert prompts[0]["title"].startswith(title)
    assert_in_language("\n".join(p["title"] + "\n" + p["message"] for p in prompts), language)
