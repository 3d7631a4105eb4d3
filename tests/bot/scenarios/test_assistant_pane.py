"""The assistant pane (the legacy split view: ``AGENT_EXPERIENCE=assistant``, or ``ASSISTANT_ENABLED``
as before) through the real server and bolt's Assistant middleware."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest

from bot.blocks.controls import FOLLOW_BLOCK_ID
from bot.blocks.visible import first_screen
from bot.conversation.assistant import STATUS
from tests.bot.conftest import RunningBot, running_bot
from tests.bot.fake_slack import (
    DM_CHANNEL_ID,
    USER_ID,
    assistant_message_event,
    assistant_thread_started_event,
)
from tests.bot.scenarios.test_http_events import QUIET_S, posted

THREAD = "1700000500.000100"
MESSAGES_TAB = {"type": "app_home_opened", "user": USER_ID, "channel": DM_CHANNEL_ID, "tab": "messages"}


@pytest.fixture(params=[{"assistant_enabled": True}, {"agent_experience": "assistant"}], ids=["old", "new"])
async def pane(request, tmp_path, fake_slack, linked_wiki) -> AsyncIterator[RunningBot]:
    async with running_bot(tmp_path, fake_slack, linked_wiki, **request.param) as running:
        yield running


async def test_a_new_thread_gets_prompts_from_the_wiki(pane):
    sent = await pane.sender.event(assistant_thread_started_event(THREAD))
    assert sent.status == 200
    (call,) = await pane.slack.wait_for_calls("assistant.threads.setSuggestedPrompts")
    assert call.args["channel_id"] == DM_CHANNEL_ID and call.args["thread_ts"] == THREAD
    prompts = call.args["prompts"]
    assert 1 < len(prompts) <= 4 and all(p["title"] and p["message"] for p in prompts)
    messages = [prompt["message"] for prompt in prompts]
    assert any(message.startswith("/entity ") for message in messages)  # an /entity example
    assert any("ByteDance" in message for message in messages)  # the most linked entity
    assert call.args["title"]


async def test_a_message_gets_a_status_then_the_answer_a_mention_gets(pane):
    question = assistant_message_event("Minder を開発したのはどこ?", THREAD, "1700000501.000100")
    await pane.sender.event(question)
    (answer,) = await posted(pane)
    (status,) = pane.slack.calls_to("assistant.threads.setStatus")
    assert status.args == {**status.args, "channel_id": DM_CHANNEL_ID, "thread_ts": THREAD, "status": STATUS}
    assert status.at < answer.at
    assert len(pane.slack.calls_to("assistant.threads.setTitle")) == 1
    assert answer.args["channel"] == DM_CHANNEL_ID and answer.args["thread_ts"] == THREAD
    blocks = answer.args["blocks"]
    assert "bytedance" in first_screen(blocks)
    assert any(block["type"] == "context_actions" for block in blocks)
    assert not any(block.get("block_id") == FOLLOW_BLOCK_ID for block in blocks)  # always answered here

    pane.slack.calls.clear()
    await pane.sender.event(
        assistant_message_event("それを本番で運用しているチームは?", THREAD, "1700000502.000100")
    )
    (follow_up,) = await posted(pane)
    assert "high-speed network チーム" in first_screen(follow_up.args["blocks"])
    assert pane.slack.calls_to("assistant.threads.setTitle") == []  # the thread keeps its first title


async def test_an_entity_prompt_is_answered_like_the_command(pane):
    await pane.sender.event(assistant_message_event("/entity ByteDance", THREAD, "1700000503.000100"))
    (answer,) = await posted(pane)
    assert answer.args["blocks"][0]["text"]["text"] == "ByteDance"


async def test_context_changes_are_acknowledged_quietly(pane):
    event = {
        "type": "assistant_thread_context_changed",
        "assistant_thread": {
            "user_id": USER_ID,
            "context": {"channel_id": "C0ELSEWHERE", "team_id": "T0FAKE", "enterprise_id": None},
            "channel_id": DM_CHANNEL_ID,
            "thread_ts": THREAD,
        },
        "event_ts": "1700000504.000100",
    }
    sent = await pane.sender.event(event)
    assert sent.status == 200
    await asyncio.sleep(QUIET_S)
    assert [call.method for call in pane.slack.calls if call.method != "auth.test"] == []


async def test_the_messages_tab_shows_the_prompts(pane):
    await pane.sender.event({**MESSAGES_TAB, "event_ts": "1700000506.000100"})
    (call,) = await pane.slack.wait_for_calls("assistant.threads.setSuggestedPrompts")
    assert call.args["channel_id"] == DM_CHANNEL_ID and "thread_ts" not in call.args
    assert pane.slack.calls_to("views.publish") == []


async def test_without_the_setting_there_is_no_pane(bot):
    await bot.sender.event({**MESSAGES_TAB, "event_ts": "1700000506.000100"})
    await bot.sender.event(assistant_message_event("MegaScale とは", THREAD, "1700000505.000100"))
    (answer,) = await posted(bot)  # still a DM in a thread: answered there
    assert answer.args["thread_ts"] == THREAD
    assert not [call for call in bot.slack.calls if call.method.startswith("assistant.")]
