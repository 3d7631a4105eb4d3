"""The agent messaging experience (``AGENT_EXPERIENCE=agent``) through the real server, with the
events Slack sends for it: ``app_home_opened`` on the Messages tab, ``message.im`` in the DM."""

from __future__ import annotations

import asyncio

import pytest

from bot.blocks.visible import first_screen, visible_text
from tests.bot.conftest import running_bot
from tests.bot.fake_slack import DM_CHANNEL_ID, USER_ID, direct_message, mention_event
from tests.bot.languages import assert_in_language
from tests.bot.scenarios.test_http_events import QUIET_S, posted
from tests.bot.scenarios.test_http_languages import slack_user

MESSAGES_TAB = {"type": "app_home_opened", "user": USER_ID, "channel": DM_CHANNEL_ID, "tab": "messages"}
HOME_TAB = {"type": "app_home_opened", "user": USER_ID, "channel": DM_CHANNEL_ID, "tab": "home"}

LANGUAGES = [
    pytest.param(
        "ja-JP",
        "Minder を開発したのはどこ?",
        "それを本番で運用しているチームは?",
        ("研究 Wiki に聞く", "Wiki を検索しています…", "質問の中の名前を引いています…"),
        id="ja",
    ),
    pytest.param(
        "en-US",
        "Who developed Minder?",
        "Which team runs it in production?",
        ("Ask the research wiki", "Searching the wiki…", "Looking up the names in your question…"),
        id="en",
    ),
]


@pytest.mark.parametrize(("locale", "question", "follow_up", "labels"), LANGUAGES)
async def test_the_messages_tab_offers_prompts_from_the_wiki(
    tmp_path, fake_slack, linked_wiki, locale, question, follow_up, labels
):
    fake_slack.answer("users.info", slack_user(locale))
    async with running_bot(
        tmp_path, fake_slack, linked_wiki, agent_experience="agent", ui_language="auto"
    ) as bot:
        sent = await bot.sender.event({**MESSAGES_TAB, "event_ts": "1700000600.000100"})
        assert sent.status == 200
        (call,) = await fake_slack.wait_for_calls("assistant.threads.setSuggestedPrompts")
    assert call.args["channel_id"] == DM_CHANNEL_ID and "thread_ts" not in call.args  # no thread needed
    assert call.args["title"] == labels[0]
    prompts = call.args["prompts"]
    assert 1 < len(prompts) <= 4 and all(p["title"] and p["message"] for p in prompts)
    messages = [prompt["message"] for prompt in prompts]
    assert any(message.startswith("/entity ") for message in messages)  # a lookup example
    assert any("ByteDance" in message for message in messages)  # the most linked entity
    assert_in_language("\n".join(p["title"] for p in prompts), "ja" if locale == "ja-JP" else "en")
    assert fake_slack.calls_to("views.publish") == []  # the Home tab is not the Messages tab


@pytest.mark.parametrize(("locale", "question", "follow_up", "labels"), LANGUAGES)
async def test_a_question_shows_the_loading_status_then_the_answer_a_mention_gets(
    tmp_path, fake_slack, linked_wiki, locale, question, follow_up, labels
):
    language = "ja" if locale == "ja-JP" else "en"
    fake_slack.answer("users.info", slack_user(locale))
    async with running_bot(
        tmp_path, fake_slack, linked_wiki, agent_experience="agent", ui_language="auto"
    ) as bot:
        await bot.sender.event(mention_event(question, ts="1700000700.000100"))
        (mentioned,) = await posted(bot)
        bot.slack.calls.clear()

        await bot.sender.event(direct_message(question, ts="1700000701.000100"))
        (answer,) = await posted(bot)
        (status,) = fake_slack.calls_to("assistant.threads.setStatus")
        assert status.args["channel_id"] == DM_CHANNEL_ID and status.args["thread_ts"] == "1700000701.000100"
        assert status.args["status"] == labels[1]
        loading = status.args["loading_messages"]
        assert labels[2] in loading and 1 < len(loading) <= 10
        assert_in_language("\n".join(loading), language)
        assert status.at < answer.at
        # In the question's thread, and the answer a mention gets (only the controls differ).
        assert answer.args["channel"] == DM_CHANNEL_ID and answer.args["thread_ts"] == "1700000701.000100"
        assert answer.args["blocks"][0] == mentioned.args["blocks"][0]
        assert answer.args["metadata"] == mentioned.args["metadata"]
        assert any(block["type"] == "context_actions" for block in answer.args["blocks"])  # 👍/👎
        assert_in_language(visible_text(answer.args["blocks"]), language)

        bot.slack.calls.clear()
        await bot.sender.event(
            direct_message(follow_up, ts="1700000702.000100", thread_ts="1700000701.000100")
        )
        (answered,) = await posted(bot)
    (status,) = fake_slack.calls_to("assistant.threads.setStatus")
    assert status.args["thread_ts"] == "1700000701.000100"
    assert answered.args["thread_ts"] == "1700000701.000100"
    assert "high-speed network" in first_screen(answered.args["blocks"])  # asked about Minder


async def test_the_answer_comes_even_when_slack_refuses_the_status(tmp_path, fake_slack, linked_wiki, caplog):
    fake_slack.answer("assistant.threads.setStatus", {"ok": False, "error": "missing_scope"})
    async with running_bot(tmp_path, fake_slack, linked_wiki, agent_experience="agent") as bot:
        await bot.sender.event(direct_message("MegaScale とは", ts="1700000710.000100"))
        (answer,) = await posted(bot)
    assert "megascale" in first_screen(answer.args["blocks"]).casefold()
    assert "no loading status in D0ALICE (answering anyway)" in caplog.text


async def test_the_home_tab_is_still_the_home_tab(tmp_path, fake_slack, linked_wiki):
    async with running_bot(tmp_path, fake_slack, linked_wiki, agent_experience="agent") as bot:
        await bot.sender.event({**HOME_TAB, "event_ts": "1700000720.000100"})
        (publish,) = await fake_slack.wait_for_calls("views.publish")
    assert publish.args["user_id"] == USER_ID and publish.args["view"]["type"] == "home"
    assert fake_slack.calls_to("assistant.threads.setSuggestedPrompts") == []


@pytest.mark.parametrize("setting", [{}, {"agent_experience": "off"}], ids=["default", "off"])
async def test_without_the_agent_experience_a_dm_is_answered_as_before(
    tmp_path, fake_slack, linked_wiki, setting
):
    async with running_bot(tmp_path, fake_slack, linked_wiki, **setting) as bot:
        await bot.sender.event({**MESSAGES_TAB, "event_ts": "1700000730.000100"})
        await bot.sender.event(direct_message("MegaScale とは", ts="1700000731.000100"))
        (answer,) = await posted(bot)
        await asyncio.sleep(QUIET_S)
    assert answer.args.get("thread_ts") is None  # in the DM itself
    assert not [call for call in fake_slack.calls if call.method.startswith("assistant.")]
