"""The UI language through the real server: the Slack locale for commands, buttons and App Home,
the question's language for mentions, ``UI_LANGUAGE`` over both."""

from __future__ import annotations

import pytest

from bot.blocks.buttons import OPEN_PAGE_SELECT, SHARE
from bot.blocks.visible import visible_text
from tests.bot.block_kit import assert_valid_blocks, assert_valid_view, message_text
from tests.bot.conftest import BASE_URL, running_bot
from tests.bot.fake_slack import (
    USER_ID,
    assistant_message_event,
    assistant_thread_started_event,
    elements,
    mention_event,
    thread_message_event,
)
from tests.bot.languages import assert_in_language

JAPANESE_CARD = ("*リンク元*", "関連ページを開く", "チャンネルに共有")
ENGLISH_CARD = ("*Linked from*", "Open a related page", "Share to channel")


def slack_user(locale: str) -> dict:
    return {"ok": True, "user": {"id": USER_ID, "name": "alice", "locale": locale}}


async def entity_command(bot, text: str, name: str) -> dict:
    sent = await bot.sender.command("/entity", text, response_url=bot.slack.response_url(name))
    assert sent.status == 200 and sent.text == ""
    (post,) = await bot.slack.wait_for_responses(name)
    assert_valid_blocks(post.body["blocks"])
    return post.body


@pytest.mark.parametrize(
    ("locale", "shown", "hidden"),
    [("ja-JP", JAPANESE_CARD, ENGLISH_CARD), ("en-US", ENGLISH_CARD, JAPANESE_CARD)],
)
async def test_commands_follow_the_users_slack_locale(
    tmp_path, fake_slack, linked_wiki, locale, shown, hidden
):
    fake_slack.answer("users.info", slack_user(locale))
    async with running_bot(
        tmp_path, fake_slack, linked_wiki, wiki_base_url=BASE_URL, ui_language="auto"
    ) as bot:
        first = message_text((await entity_command(bot, "ByteDance", "first"))["blocks"])
        second = message_text((await entity_command(bot, "Minder", "second"))["blocks"])
    assert all(label in first for label in shown) and not any(label in first for label in hidden)
    assert "*リンク元*" in second or "*Linked from*" in second
    (lookup,) = fake_slack.calls_to("users.info")  # cached: one lookup for both commands
    assert lookup.args["user"] == USER_ID and lookup.args["include_locale"] in ("1", "true", "True")


async def test_without_a_locale_commands_fall_back_to_japanese(tmp_path, fake_slack, linked_wiki):
    fake_slack.answer("users.info", {"ok": False, "error": "missing_scope"})
    async with running_bot(
        tmp_path, fake_slack, linked_wiki, wiki_base_url=BASE_URL, ui_language="auto"
    ) as bot:
        text = message_text((await entity_command(bot, "ByteDance", "r"))["blocks"])
    assert all(label in text for label in JAPANESE_CARD)


async def test_the_setting_wins_over_the_locale_and_slack_is_not_asked(tmp_path, fake_slack, linked_wiki):
    fake_slack.answer("users.info", slack_user("ja-JP"))
    async with running_bot(
        tmp_path, fake_slack, linked_wiki, wiki_base_url=BASE_URL, ui_language="en"
    ) as bot:
        text = message_text((await entity_command(bot, "ByteDance", "r"))["blocks"])
    assert all(label in text for label in ENGLISH_CARD)
    assert fake_slack.calls_to("users.info") == []


async def test_buttons_answer_in_the_clicking_users_language(tmp_path, fake_slack, linked_wiki):
    fake_slack.answer("users.info", slack_user("ja-JP"))
    async with running_bot(
        tmp_path, fake_slack, linked_wiki, wiki_base_url=BASE_URL, ui_language="auto"
    ) as bot:
        body = await entity_command(bot, "ByteDance", "r")
        select = next(e for _, e in elements(body["blocks"]) if e["action_id"] == OPEN_PAGE_SELECT)
        index = next(i for i, option in enumerate(select["options"]) if option["text"]["text"] == "Minder")
        await bot.sender.click(
            body["blocks"], OPEN_PAGE_SELECT, option_index=index, response_url=fake_slack.response_url("o")
        )
        (opened,) = await fake_slack.wait_for_responses("o")
        await bot.sender.click(body["blocks"], SHARE, response_url=fake_slack.response_url("s"))
        shared, _deleted = await fake_slack.wait_for_responses("s", count=2)
    assert opened.body["blocks"][0]["text"]["text"] == "Minder"
    assert "*リンク元*" in message_text(opened.body["blocks"])
    assert f"<@{USER_ID}> さんが共有" in message_text(shared.body["blocks"])
    assert_valid_blocks(shared.body["blocks"])


@pytest.mark.parametrize(
    ("question", "locale", "language", "label", "helpful"),
    [
        ("Minder を開発したのはどこ?", "en-US", "ja", "Wiki のほかの箇所", "役に立った"),
        ("Who developed Minder?", "ja-JP", "en", "Also in the wiki", "Helpful"),
    ],
)
async def test_a_mention_is_answered_in_the_questions_language(
    tmp_path, fake_slack, linked_wiki, question, locale, language, label, helpful
):
    fake_slack.answer("users.info", slack_user(locale))  # the asker's locale does not decide
    async with running_bot(
        tmp_path, fake_slack, linked_wiki, wiki_base_url=BASE_URL, ui_language="auto"
    ) as bot:
        await bot.sender.event(mention_event(question))
        (call,) = await fake_slack.wait_for_calls("chat.postMessage")
    assert_valid_blocks(call.args["blocks"])
    text = "\n".join([call.args["text"], visible_text(call.args["blocks"])])
    assert "ByteDance" in text and label in text
    assert_in_language(text, language)
    (votes,) = [e for b in call.args["blocks"] if b["type"] == "context_actions" for e in b["elements"]]
    assert votes["positive_button"]["text"]["text"] == helpful


@pytest.mark.parametrize(
    ("locale", "language", "label"), [("ja-JP", "ja", "最近のソース"), ("en-US", "en", "Recent sources")]
)
async def test_app_home_follows_the_users_locale(tmp_path, fake_slack, linked_wiki, locale, language, label):
    fake_slack.answer("users.info", slack_user(locale))
    async with running_bot(tmp_path, fake_slack, linked_wiki, ui_language="auto") as bot:
        await bot.sender.event({"type": "app_home_opened", "user": USER_ID, "tab": "home", "event_ts": "1.2"})
        (call,) = await fake_slack.wait_for_calls("views.publish")
    assert_valid_view(call.args["view"])
    text = visible_text(call.args["view"]["blocks"])
    assert label in text and ("フィードバック" if language == "ja" else "Feedback, last 7 days") in text
    assert_in_language(text, language)


async def test_a_slow_locale_lookup_never_holds_the_answer_up(tmp_path, fake_slack, linked_wiki):
    """Slack makes the lookup wait (429, Retry-After 4 s): the answer goes out in the fallback
    language meanwhile, and the lookup still fills the cache for the next command."""
    fake_slack.answer("users.info", slack_user("en-US"))
    fake_slack.fail("users.info", status=429, retry_after=4)
    async with running_bot(
        tmp_path, fake_slack, linked_wiki, wiki_base_url=BASE_URL, ui_language="auto"
    ) as bot:
        first = message_text((await entity_command(bot, "ByteDance", "first"))["blocks"])
        assert fake_slack.calls_to("users.info") == []  # answered before Slack let the lookup through
        await fake_slack.wait_for_calls("users.info")
        second = message_text((await entity_command(bot, "ByteDance", "second"))["blocks"])
    assert "*リンク元*" in first and "*Linked from*" in second


@pytest.mark.parametrize(
    ("text", "stopped"),
    [("やめて", "このスレッドでの回答をやめます"), ("stop", "I have stopped answering in this thread")],
)
async def test_stop_is_answered_in_the_language_it_was_typed_in(
    tmp_path, fake_slack, linked_wiki, text, stopped
):
    thread = "1700000100.000100"
    async with running_bot(tmp_path, fake_slack, linked_wiki, ui_language="auto") as bot:
        await bot.sender.event(mention_event("Minder を開発したのはどこ?", ts=thread))
        await fake_slack.wait_for_calls("chat.postMessage")
        await bot.sender.event(thread_message_event(text, thread, "1700000200.000100"))
        calls = await fake_slack.wait_for_calls("chat.postMessage", 2)
    assert stopped in calls[1].args["text"]


@pytest.mark.parametrize(
    ("locale", "question", "title", "status"),
    [
        ("ja-JP", "Minder を開発したのはどこ?", "研究 Wiki に聞く", "Wiki を検索しています…"),
        ("en-US", "Who developed Minder?", "Ask the research wiki", "Searching the wiki…"),
    ],
)
async def test_the_assistant_pane_speaks_the_users_language(
    tmp_path, fake_slack, linked_wiki, locale, question, title, status
):
    thread = "1700000500.000100"
    fake_slack.answer("users.info", slack_user(locale))
    async with running_bot(
        tmp_path, fake_slack, linked_wiki, ui_language="auto", assistant_enabled=True
    ) as bot:
        await bot.sender.event(assistant_thread_started_event(thread))
        (prompts,) = await fake_slack.wait_for_calls("assistant.threads.setSuggestedPrompts")
        await bot.sender.event(assistant_message_event(question, thread, "1700000501.000100"))
        (answer,) = await fake_slack.wait_for_calls("chat.postMessage")
    assert prompts.args["title"] == title
    (set_status,) = fake_slack.calls_to("assistant.threads.setStatus")
    assert set_status.args["status"] == status
    language = "ja" if locale == "ja-JP" else "en"
    assert_in_language("\n".join(p["title"] for p in prompts.args["prompts"]), language)
    assert_in_language(visible_text(answer.args["blocks"]), language)
