"""Conversations through the real server: thread follow-ups, stop, feedback votes, `sakuin feedback`."""

from __future__ import annotations

import json
import time

import pytest

from bot.blocks.controls import FOLLOW_BLOCK_ID, STOP_FOLLOWING
from bot.blocks.visible import first_screen, visible_text
from bot.cli.commands import main
from bot.state.store import open_state_store
from tests.bot.block_kit import assert_valid_blocks
from tests.bot.conftest import running_bot
from tests.bot.fake_openai import FakeOpenAI
from tests.bot.fake_slack import (
    BOT_ID,
    BOT_USER_ID,
    CHANNEL_ID,
    USER_ID,
    button_payload,
    mention_event,
    posted_ts,
    thread_message_event,
    vote_payload,
)
from tests.bot.scenarios.test_http_events import nothing_posted, posted
from tests.conftest import eventually

THREAD = "1700000100.000100"
MINDER = "wiki/entities/Minder.md"
TEAM_QUESTION = "それを本番で運用しているチームは?"


async def start_thread(bot, question: str = "Minder を開発したのはどこ?") -> dict:
    """``@sakuin question`` at the top of a channel: answered in its thread, which is then followed."""
    await bot.sender.event(mention_event(question, ts=THREAD))
    (call,) = await posted(bot)
    assert call.args["thread_ts"] == THREAD
    bot.slack.calls.clear()
    return call.args


def has_feedback(blocks: list[dict]) -> bool:
    return any(
        block["type"] == "context_actions"
        and any(element["type"] == "feedback_buttons" for element in block["elements"])
        for block in blocks
    )


def has_stop(blocks: list[dict]) -> bool:
    return any(block.get("block_id") == FOLLOW_BLOCK_ID for block in blocks)


async def test_a_follow_up_without_a_mention_is_answered_in_the_thread_about_its_subject(bot):
    first = await start_thread(bot)
    assert has_feedback(first["blocks"]) and has_stop(first["blocks"])
    assert "bytedance" in first_screen(first["blocks"])

    await bot.sender.event(thread_message_event(TEAM_QUESTION, THREAD, "1700000101.000100"))
    (call,) = await posted(bot)
    assert call.args["channel"] == CHANNEL_ID and call.args["thread_ts"] == THREAD
    screen = first_screen(call.args["blocks"])  # the answer on the first screen, about Minder
    assert "high-speed network チーム" in screen and "minder" in screen
    assert has_feedback(call.args["blocks"]) and has_stop(call.args["blocks"])


async def test_a_follow_up_that_names_a_page_is_about_that_page(bot):
    await start_thread(bot)
    await bot.sender.event(thread_message_event("MegaScale とは?", THREAD, "1700000101.000100"))
    (call,) = await posted(bot)
    assert "— megascale § 概要" in first_screen(call.args["blocks"])
    follow = bot.store.followed_thread(CHANNEL_ID, THREAD)
    assert follow is not None and follow.subject == "wiki/entities/MegaScale.md"


@pytest.mark.parametrize(
    "event",
    [
        thread_message_event("echo", THREAD, "1700000102.1", user=BOT_USER_ID, bot_id=BOT_ID),  # itself
        thread_message_event("I am a bot", THREAD, "1700000102.2", bot_id="B0OTHER", subtype="bot_message"),
        thread_message_event("edited", THREAD, "1700000102.3", subtype="message_changed"),
        thread_message_event("joined", THREAD, "1700000102.4", subtype="channel_join"),
        thread_message_event("<@U0BOB> それを本番で運用しているのは?", THREAD, "1700000102.5"),
        thread_message_event("<!here> それを本番で運用しているのは?", THREAD, "1700000102.6"),
        thread_message_event("MegaScale とは?", "1700000999.000100", "1700000102.7"),  # never answered
        thread_message_event("MegaScale とは?", THREAD, "1700000102.8", channel="C0OTHER"),
        {**thread_message_event("MegaScale とは?", THREAD, "1700000102.9"), "thread_ts": None},  # channel
        thread_message_event("", THREAD, "1700000103.0", subtype="file_share"),  # a file, no text
    ],
    ids=[
        "itself",
        "another bot",
        "edit",
        "other subtype",
        "mentions someone else",
        "mentions everyone",
        "thread never answered",
        "same ts in another channel",
        "plain channel message",
        "file without text",
    ],
)
async def test_messages_that_are_not_follow_ups_are_not_answered(bot, event):
    await start_thread(bot)
    sent = await bot.sender.event(event)
    assert sent.status == 200
    await nothing_posted(bot)


async def test_a_mention_in_a_followed_thread_is_answered_once(bot):
    await start_thread(bot)
    text = "MegaScale とは?"
    await bot.sender.event(thread_message_event(f"<@{BOT_USER_ID}> {text}", THREAD, "1700000104.000100"))
    await bot.sender.event(mention_event(text, ts="1700000104.000100", thread_ts=THREAD))
    (call,) = await posted(bot)
    assert call.args["thread_ts"] == THREAD


@pytest.mark.parametrize("word", ["stop", "やめて", "Stop!"])
async def test_typing_stop_ends_the_following(bot, word):
    await start_thread(bot)
    await bot.sender.event(thread_message_event(word, THREAD, "1700000105.000100"))
    (confirmation,) = await posted(bot)
    assert confirmation.args["thread_ts"] == THREAD and "stopped" in confirmation.args["text"]
    bot.slack.calls.clear()
    await bot.sender.event(thread_message_event(TEAM_QUESTION, THREAD, "1700000106.000100"))
    await nothing_posted(bot)


async def test_the_stop_button_ends_the_following_and_leaves_the_answer(bot):
    await bot.sender.event(mention_event("Minder を開発したのはどこ?", ts=THREAD))
    (answer,) = await posted(bot)
    ts = posted_ts(bot.slack, answer)
    await bot.sender.interaction(button_payload(answer.args["blocks"], STOP_FOLLOWING, message_ts=ts))
    (update,) = await bot.slack.wait_for_calls("chat.update")
    assert update.args["ts"] == ts
    blocks = bot.slack.message(ts)["blocks"]
    assert not has_stop(blocks) and has_feedback(blocks)
    (_, confirmation) = await posted(bot, 2)
    assert confirmation.args["thread_ts"] == THREAD
    bot.slack.calls.clear()
    await bot.sender.event(thread_message_event(TEAM_QUESTION, THREAD, "1700000106.000100"))
    await nothing_posted(bot)


async def test_a_new_mention_follows_a_stopped_thread_again(bot):
    await start_thread(bot)
    await bot.sender.event(thread_message_event("stop", THREAD, "1700000105.000100"))
    await posted(bot)
    bot.slack.calls.clear()
    await bot.sender.event(mention_event("Minder とは", ts="1700000106.000100", thread_ts=THREAD))
    await posted(bot)
    bot.slack.calls.clear()
    await bot.sender.event(thread_message_event("誰が開発した?", THREAD, "1700000107.000100"))
    (call,) = await posted(bot)
    assert call.args["thread_ts"] == THREAD


async def test_following_ends_after_follow_up_hours_of_silence(tmp_path, fake_slack, linked_wiki):
    async with running_bot(tmp_path, fake_slack, linked_wiki, follow_up_hours=2) as bot:
        with open_state_store(bot.settings.state_db, clock=lambda: time.time() - 3 * 3600) as long_ago:
            long_ago.follow_thread(CHANNEL_ID, THREAD, MINDER, 2 * 3600)
        await bot.sender.event(thread_message_event("誰が開発した?", THREAD, "1700000107.000100"))
        await nothing_posted(bot)
        with open_state_store(bot.settings.state_db, clock=lambda: time.time() - 3600) as recently:
            recently.follow_thread(CHANNEL_ID, THREAD, MINDER, 2 * 3600)
        await bot.sender.event(thread_message_event("誰が開発した?", THREAD, "1700000108.000100"))
        (call,) = await posted(bot)
    assert "minder" in first_screen(call.args["blocks"])


async def test_commands_in_a_mention_carry_no_feedback(bot):
    await bot.sender.event(mention_event("/entity Minder", ts=THREAD))
    (call,) = await posted(bot)
    assert not has_feedback(call.args["blocks"]) and has_stop(call.args["blocks"])
    assert_valid_blocks(call.args["blocks"])


async def test_a_vote_is_recorded_once_per_user_and_answer_and_a_second_click_changes_it(bot):
    first = await start_thread(bot)
    store = bot.store
    for vote, expected in (("up", "up"), ("down", "down")):
        sent = await bot.sender.interaction(vote_payload(first["blocks"], vote, message_ts="1700000200.1"))
        assert sent.status == 200
        await eventually(lambda e=expected: [v.vote for v in store.votes()] == [e], what=f"a {expected} vote")
    (vote,) = store.votes()
    assert vote.question == "Minder を開発したのはどこ?" and vote.pages[0] == MINDER
    other = vote_payload(first["blocks"], "up", message_ts="1700000200.1", user_id="U0BOB")
    await bot.sender.interaction(other)
    await eventually(lambda: len(store.votes()) == 2, what="a second user's vote")
    assert sorted(v.vote for v in store.votes()) == ["down", "up"]


async def test_the_done_when_scenario_shows_a_down_vote_in_sakuin_feedback(bot, capsys, monkeypatch):
    await start_thread(bot)
    await bot.sender.event(thread_message_event(TEAM_QUESTION, THREAD, "1700000101.000100"))
    (answer,) = await posted(bot)
    await bot.sender.interaction(vote_payload(answer.args["blocks"], "down", message_ts="1700000300.1"))
    store = bot.store
    await eventually(lambda: len(store.votes()) == 1, what="the vote")

    bot.slack.calls.clear()
    await bot.sender.event(mention_event("qwxz vvbn", ts="1700000400.000100"))
    await posted(bot)
    await eventually(lambda: len(store.unanswered()) == 1, what="the unanswered question")

    monkeypatch.setenv("STATE_DB", str(bot.settings.state_db))
    capsys.readouterr()
    assert main(["feedback", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert set(report) == {"feedback", "unanswered"}
    (vote,) = report["feedback"]
    assert set(vote) == {"question", "vote", "pages", "at"}
    assert vote["question"] == TEAM_QUESTION and vote["vote"] == "down"
    assert vote["pages"][0] == MINDER and vote["at"].endswith("+09:00")
    (unanswered,) = report["unanswered"]
    assert unanswered["question"] == "qwxz vvbn" and set(unanswered) == {"question", "at"}

    assert main(["feedback", "--since", "2999-01-01", "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == {"feedback": [], "unanswered": []}
    assert main(["feedback"]) == 0
    text = capsys.readouterr().out
    assert "👎" in text and TEAM_QUESTION in text and "qwxz vvbn" in text


async def test_home_tab_shows_last_weeks_share_of_up_votes_and_unanswered_questions(bot):
    store = bot.store
    store.record_vote(CHANNEL_ID, "1.1", USER_ID, "Minder とは", [MINDER], "up")
    store.record_vote(CHANNEL_ID, "1.2", USER_ID, "MegaScale とは", [], "up")
    store.record_vote(CHANNEL_ID, "1.3", USER_ID, "CCL-D とは", [], "down")
    store.note_unanswered("<!channel> 量子計算の本番運用は?")
    await bot.sender.event(
        {"type": "app_home_opened", "user": USER_ID, "channel": "D0HOME", "tab": "home", "event_ts": "1.0"}
    )
    (call,) = await bot.slack.wait_for_calls("views.publish")
    text = visible_text(call.args["view"]["blocks"])
    assert "👍 2 of 3 votes (67%)" in text
    assert "<!channel> 量子計算の本番運用は?" in text  # shown as text, escaped in the payload
    assert "<!channel>" not in json.dumps(call.args["view"], ensure_ascii=False)


async def test_a_model_answer_keeps_its_controls_and_a_follow_up_asks_the_model_about_the_subject(
    tmp_path, fake_slack, linked_wiki
):
    async with FakeOpenAI() as model:
        model.reply("High-speed Network チームと Applied Machine Learning チームが運用している [1]。")
        llm = {"llm_base_url": model.base_url, "llm_model": "fake-model-1", "llm_timeout": 10.0}
        async with running_bot(tmp_path, fake_slack, linked_wiki, **llm) as bot:
            await bot.sender.event(mention_event("Minder を開発したのはどこ?", ts=THREAD))
            await eventually(lambda: len(written(fake_slack)) == 1, what="the model's answer to the mention")
            await bot.sender.event(thread_message_event(TEAM_QUESTION, THREAD, "1700000101.000100"))
            await eventually(lambda: len(written(fake_slack)) == 2, what="the answer to the follow-up")
            (_, follow_up) = await model.wait_for_requests(2)
    assert "Minder" in follow_up.user and TEAM_QUESTION in follow_up.user
    assert len(fake_slack.messages(CHANNEL_ID)) == 2  # one message per answer
    for message in written(fake_slack):
        assert has_feedback(message["blocks"]) and has_stop(message["blocks"])
        assert_valid_blocks(message["blocks"])


def written(slack) -> list[dict]:
    """The messages in the channel that hold a model's final answer (in a thread: posted whole, or
    streamed; elsewhere updated in place)."""
    messages = slack.messages(CHANNEL_ID)
    return [m for m in messages if "written by" in visible_text(m.get("blocks") or [])]


async def test_replicas_on_postgresql_share_followed_threads_and_votes(
    tmp_path, fake_slack, linked_wiki, postgres_url
):
    """A thread answered by one replica is followed by another; a vote on either counts once."""
    async with (
        running_bot(tmp_path / "one", fake_slack, linked_wiki, state_db=postgres_url) as one,
        running_bot(tmp_path / "two", fake_slack, linked_wiki, state_db=postgres_url) as two,
    ):
        await one.sender.event(mention_event("Minder を開発したのはどこ?", ts=THREAD))
        await posted(one)
        fake_slack.calls.clear()
        # Each sender numbers its events from 1: a distinct id, or replica two takes it for a retry.
        follow_up_event = thread_message_event(TEAM_QUESTION, THREAD, "1700000101.000100")
        await two.sender.event(follow_up_event, event_id="EvFOLLOWUP")
        (follow_up,) = await posted(two)
        assert follow_up.args["thread_ts"] == THREAD
        assert "high-speed network チーム" in visible_text(follow_up.args["blocks"]).casefold()
        for bot, vote in ((one, "up"), (two, "down")):
            await bot.sender.interaction(vote_payload(follow_up.args["blocks"], vote, message_ts="1.1"))
            await eventually(lambda v=vote: [x.vote for x in one.store.votes()] == [v], what=vote)
