"""Answers without a mention through the real server: questions in ``ANSWER_CHANNELS`` (confident
answers only, with the note and its mute button) and the ``ASK_REACTION`` reaction."""

from __future__ import annotations

import asyncio

import pytest

from bot.blocks.channel_note import MUTE_CHANNEL, NOTE_BLOCK_ID, UNMUTE_CHANNEL
from bot.blocks.controls import FOLLOW_BLOCK_ID, STOP_FOLLOWING
from bot.blocks.visible import first_screen, visible_text
from tests.bot.conftest import running_bot
from tests.bot.fake_slack import (
    BOT_ID,
    BOT_USER_ID,
    CHANNEL_ID,
    USER_ID,
    button_payload,
    elements,
    find_element,
    mention_event,
    thread_message_event,
)
from tests.bot.languages import assert_in_language
from tests.bot.scenarios.test_http_events import QUIET_S, nothing_posted, posted
from tests.bot.scenarios.test_http_languages import slack_user

ASKING = "C0ASKING"
"""The answer channel of these tests (CHANNEL_ID is an ordinary channel)."""
BOB = "U0BOB"


def channel_message(text: str, ts: str, *, channel: str = ASKING, user: str = USER_ID, **fields) -> dict:
    """A ``message.channels`` event: a new top-level message in ``channel``."""
    return {
        "type": "message",
        "channel_type": "channel",
        "user": user,
        "text": text,
        "ts": ts,
        "channel": channel,
        "event_ts": ts,
        **fields,
    }


def reaction(ts: str, *, channel: str = CHANNEL_ID, user: str = BOB, name: str = "mag", **fields) -> dict:
    """A ``reaction_added`` event on the message ``ts``, as Slack sends it."""
    return {
        "type": "reaction_added",
        "user": user,
        "reaction": name,
        "item": {"type": "message", "channel": channel, "ts": ts},
        "item_user": USER_ID,
        "event_ts": f"{float(ts) + 50:.6f}",
        **fields,
    }


@pytest.fixture
async def bot(tmp_path, fake_slack, linked_wiki):
    async with running_bot(
        tmp_path, fake_slack, linked_wiki, answer_channels=(ASKING,), ui_language="auto"
    ) as running:
        yield running


# -- answer channels ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("question", "language", "note"),
    [
        ("Minder を開発したのはどこ?", "ja", "メンションなしで答えました"),
        ("Minder を開発したのはどこ", "ja", "メンションなしで答えました"),  # no question mark
        ("Who developed Minder?", "en", "I answered without a mention"),
        ("who developed Minder", "en", "I answered without a mention"),
    ],
)
async def test_a_question_in_an_answer_channel_is_answered_in_its_thread_with_the_note(
    bot, question, language, note
):
    sent = await bot.sender.event(channel_message(question, "1700001000.000100"))
    assert sent.status == 200
    (answer,) = await posted(bot)
    assert answer.args["channel"] == ASKING and answer.args["thread_ts"] == "1700001000.000100"
    blocks = answer.args["blocks"]
    assert "bytedance" in first_screen(blocks)
    assert answer.args["metadata"]["event_payload"]["status"] == "relation"
    (note_block,) = [block for block in blocks if block.get("block_id") == NOTE_BLOCK_ID]
    assert blocks[-1] == note_block and note in visible_text([note_block])
    assert "ANSWER_CHANNELS" in visible_text([note_block])
    _, mute = find_element(blocks, MUTE_CHANNEL)
    assert mute["value"] == ASKING
    assert any(block["type"] == "context_actions" for block in blocks)  # 👍/👎 as on every answer
    assert not any(block.get("block_id") == FOLLOW_BLOCK_ID for block in blocks)  # not followed
    assert_in_language(visible_text(blocks), language)

    # Nobody asked sakuin into the thread: the thread's chatter is left alone.
    await bot.sender.event(
        thread_message_event("ありがとう、助かった", "1700001000.000100", "1700001001.000100", channel=ASKING)
    )
    await asyncio.sleep(QUIET_S)
    assert len(bot.slack.calls_to("chat.postMessage")) == 1


@pytest.mark.parametrize("question", ["量子コンピュータの冷却方式は?", "What is the capital of France?"])
async def test_a_question_the_wiki_cannot_answer_gets_nothing(bot, question):
    await bot.sender.event(channel_message(question, "1700001100.000100"))
    await nothing_posted(bot)
    assert bot.slack.calls_to("chat.postEphemeral") == []
    assert bot.store.unanswered() == ()  # nobody asked: no gap to report either


@pytest.mark.parametrize(
    "event",
    [
        channel_message("Minder のリリースノートを更新しました。", "1700001200.000100"),  # not a question
        channel_message("Minder を開発したのはどこ?", "1700001201.000100", user=BOT_USER_ID),
        channel_message(
            "Minder を開発したのはどこ?", "1700001202.000100", bot_id=BOT_ID, subtype="bot_message"
        ),
        channel_message("Minder を開発したのはどこ?", "1700001203.000100", bot_id="B0OTHER"),
        channel_message(f"<@{BOB}> Minder を開発したのはどこ?", "1700001204.000100"),
        channel_message("<!here> Minder を開発したのはどこ?", "1700001205.000100"),
        channel_message("Minder を開発したのはどこ?", "1700001206.000100", channel=CHANNEL_ID),
        {
            "type": "message",
            "subtype": "message_changed",
            "channel": ASKING,
            "channel_type": "channel",
            "hidden": True,
            "ts": "1700001207.000200",
            "event_ts": "1700001207.000200",
            "message": {
                "type": "message",
                "user": USER_ID,
                "text": "Who developed Minder?",
                "ts": "1700001207.000100",
            },
            "previous_message": {
                "type": "message",
                "user": USER_ID,
                "text": "Who?",
                "ts": "1700001207.000100",
            },
        },
        thread_message_event(
            "Minder のページ、更新しておきます", "1700001208.000100", "1700001208.000200", channel=ASKING
        ),
    ],
    ids=[
        "statement",
        "sakuin",
        "bot",
        "other bot",
        "mentions someone",
        "broadcast",
        "other channel",
        "edit",
        "thread chatter",
    ],
)
async def test_what_is_never_answered_without_a_mention(bot, event):
    sent = await bot.sender.event(event)
    assert sent.status == 200
    await nothing_posted(bot)


async def test_a_mention_in_an_answer_channel_is_answered_once_as_a_mention(bot):
    question = "Minder を開発したのはどこ?"
    ts = "1700001300.000100"
    await bot.sender.event(mention_event(question, ts=ts, channel=ASKING))
    await bot.sender.event(channel_message(f"<@{BOT_USER_ID}> {question}", ts))  # Slack sends both
    (answer,) = await posted(bot)
    assert not any(block.get("block_id") == NOTE_BLOCK_ID for block in answer.args["blocks"])


async def test_a_question_in_a_thread_is_answered_there(bot):
    await bot.sender.event(
        thread_message_event(
            "Who developed Minder?", "1700001400.000100", "1700001401.000100", channel=ASKING
        )
    )
    (answer,) = await posted(bot)
    assert answer.args["thread_ts"] == "1700001400.000100"
    assert any(block.get("block_id") == NOTE_BLOCK_ID for block in answer.args["blocks"])


async def test_a_question_in_a_thread_sakuin_follows_is_a_follow_up(bot):
    await bot.sender.event(mention_event("Minder とは", ts="1700001500.000100", channel=ASKING))
    await posted(bot)
    bot.slack.calls.clear()
    await bot.sender.event(
        thread_message_event(
            "それを本番で運用しているチームは?", "1700001500.000100", "1700001501.000100", channel=ASKING
        )
    )
    (answer,) = await posted(bot)
    blocks = answer.args["blocks"]
    assert "high-speed network" in first_screen(blocks)  # about the thread's subject
    assert any(block.get("block_id") == FOLLOW_BLOCK_ID for block in blocks)
    assert not any(block.get("block_id") == NOTE_BLOCK_ID for block in blocks)


async def test_the_mute_button_mutes_the_channel_for_whoever_clicks_it(bot):
    bot.slack.answer("users.info", slack_user("en-US"))
    await bot.sender.event(channel_message("Who developed Minder?", "1700001600.000100"))
    (answer,) = await posted(bot)
    payload = button_payload(
        answer.args["blocks"], MUTE_CHANNEL, message_ts="1700001600.000900", channel_id=ASKING
    )
    payload["response_url"] = bot.slack.response_url("mute")
    assert (await bot.sender.interaction(payload)).status == 200
    (told,) = await bot.slack.wait_for_responses("mute")
    assert told.body["response_type"] == "ephemeral" and told.body["replace_original"] is False
    assert "Muted" in visible_text(told.body["blocks"])
    assert [e["action_id"] for _, e in elements(told.body["blocks"])] == [UNMUTE_CHANNEL]
    assert bot.store.channel_muted(ASKING, USER_ID)

    bot.slack.calls.clear()
    await bot.sender.event(channel_message("Who developed Minder?", "1700001601.000100"))
    await nothing_posted(bot)
    await bot.sender.event(channel_message("Who developed Minder?", "1700001602.000100", user=BOB))
    (for_bob,) = await posted(bot)  # others still get answers
    assert for_bob.args["thread_ts"] == "1700001602.000100"
    await bot.sender.event(mention_event("Who developed Minder?", ts="1700001603.000100", channel=ASKING))
    assert len(await posted(bot, 2)) == 2  # a mention is still answered

    await bot.sender.click(
        told.body["blocks"], UNMUTE_CHANNEL, response_url=bot.slack.response_url("unmute"), channel_id=ASKING
    )
    (undone,) = await bot.slack.wait_for_responses("unmute")
    assert undone.body["replace_original"] is True and "Unmuted" in visible_text(undone.body["blocks"])
    bot.slack.calls.clear()
    await bot.sender.event(channel_message("Who developed Minder?", "1700001604.000100"))
    (again,) = await posted(bot)
    assert again.args["thread_ts"] == "1700001604.000100"


async def test_the_mute_reply_speaks_the_users_language(bot):
    bot.slack.answer("users.info", slack_user("ja-JP"))
    await bot.sender.event(channel_message("Minder を開発したのはどこ?", "1700001700.000100"))
    (answer,) = await posted(bot)
    payload = button_payload(
        answer.args["blocks"], MUTE_CHANNEL, message_ts="1700001700.000900", channel_id=ASKING
    )
    payload["response_url"] = bot.slack.response_url("mute")
    await bot.sender.interaction(payload)
    (told,) = await bot.slack.wait_for_responses("mute")
    assert "ミュートしました" in visible_text(told.body["blocks"])
    assert_in_language(visible_text(told.body["blocks"]), "ja")


# -- the ask reaction --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Minder を開発したのはどこ?", "ByteDance"),
        ("Minder", "Minder"),
        ("Who developed Minder?", "ByteDance"),
    ],
)
async def test_a_reaction_answers_the_message_in_its_thread(bot, text, expected):
    bot.slack.user_message(text, "1700002000.000100")
    sent = await bot.sender.event(reaction("1700002000.000100"))
    assert sent.status == 200
    (answer,) = await posted(bot)
    assert answer.args["channel"] == CHANNEL_ID and answer.args["thread_ts"] == "1700002000.000100"
    assert expected.casefold() in first_screen(answer.args["blocks"])
    find_element(answer.args["blocks"], STOP_FOLLOWING)  # as a mention: the thread is followed
    assert not any(block.get("block_id") == NOTE_BLOCK_ID for block in answer.args["blocks"])
    (read,) = bot.slack.calls_to("conversations.history")
    assert (
        read.args["channel"] == CHANNEL_ID
        and read.args["latest"] == read.args["oldest"] == "1700002000.000100"
    )
    assert str(read.args["inclusive"]).lower() in ("1", "true") and str(read.args["limit"]) == "1"


async def test_a_reaction_on_a_thread_reply_answers_in_that_thread(bot):
    bot.slack.user_message("この件、調べてみます", "1700002100.000100")
    bot.slack.user_message(
        "Minder を開発したのはどこ?", "1700002100.000300", thread_ts="1700002100.000100", user=BOB
    )
    await bot.sender.event(reaction("1700002100.000300", user=USER_ID))
    (answer,) = await posted(bot)
    assert answer.args["thread_ts"] == "1700002100.000100"
    assert "bytedance" in first_screen(answer.args["blocks"])
    (replies,) = bot.slack.calls_to("conversations.replies")
    assert replies.args["ts"] == "1700002100.000300"


async def test_a_message_is_answered_once_however_many_react(bot):
    bot.slack.user_message("Who developed Minder?", "1700002200.000100")
    await bot.sender.event(reaction("1700002200.000100", user=BOB))
    await bot.sender.event(reaction("1700002200.000100", user=USER_ID))
    await bot.sender.event(reaction("1700002200.000100", user="U0CAROL", name="mag::skin-tone-2"))
    assert len(await posted(bot)) == 1


@pytest.mark.parametrize(
    ("message", "event"),
    [
        (None, reaction("1700002300.000100", name="eyes")),  # another reaction
        ({"text": "Who developed Minder?", "bot_id": "B0OTHER"}, reaction("1700002300.000100")),
        ({"text": f"<@{BOB}> Who developed Minder?"}, reaction("1700002300.000100")),
        (None, reaction("1700002300.000100", item_user=BOT_USER_ID)),  # sakuin's own answer
        (None, reaction("1700002300.000100")),  # the message is gone
        (None, {**reaction("1700002300.000100"), "item": {"type": "file", "file": "F0FILE"}}),
    ],
    ids=["other reaction", "bot", "mentions someone", "own answer", "gone", "file"],
)
async def test_what_a_reaction_never_answers(bot, message, event):
    if message is not None:
        fields = dict(message)
        bot.slack.user_message(fields.pop("text"), "1700002300.000100", **fields)
    assert (await bot.sender.event(event)).status == 200
    await nothing_posted(bot)


async def test_without_the_ask_reaction_nothing_answers_it(tmp_path, fake_slack, linked_wiki):
    async with running_bot(tmp_path, fake_slack, linked_wiki, ask_reaction="") as bot:
        bot.slack.user_message("Who developed Minder?", "1700002400.000100")
        await bot.sender.event(reaction("1700002400.000100"))
        await nothing_posted(bot)
    assert fake_slack.calls_to("conversations.history") == []


async def test_a_reaction_outside_the_allowed_channels_is_not_answered(tmp_path, fake_slack, linked_wiki):
    async with running_bot(tmp_path, fake_slack, linked_wiki, allowed_channels=("C0ELSEWHERE",)) as bot:
        bot.slack.user_message("Who developed Minder?", "1700002500.000100")
        await bot.sender.event(reaction("1700002500.000100"))
        await nothing_posted(bot)
