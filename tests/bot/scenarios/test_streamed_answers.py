"""Streamed model answers end to end: `sakuin serve` with signed requests, a fake Slack that streams
(``chat.startStream``/``appendStream``/``stopStream``), a fake model server.

In a thread the answer is one message: streamed from its first checked sentence, or, when no checked
sentence comes in time, the extractive answer posted and rewritten in place. Never twice, never an
unchecked sentence, never an error."""

from __future__ import annotations

import asyncio
import json
import logging

import pytest

from bot.blocks.controls import FOLLOW_BLOCK_ID
from bot.blocks.streamed import STOPPED_NOTE
from bot.blocks.written import written_by
from bot.i18n import _, use_language
from bot.llm.grounding import LANGUAGE_NAMES
from tests.bot.block_kit import assert_valid_blocks, message_text
from tests.bot.conftest import running_bot
from tests.bot.fake_openai import FakeOpenAI
from tests.bot.fake_slack import (
    CHANNEL_ID,
    DM_CHANNEL_ID,
    STREAM_METHODS,
    TEAM_ID,
    USER_ID,
    assistant_message_event,
    mention_event,
)
from tests.conftest import eventually

MODEL = "fake-model-1"
THREAD = "1700000100.000100"
QUIET_S = 0.5
"""How long to keep listening for a call that must not come."""

JA_QUESTION = "Minder を開発したのはどこ?"
EN_QUESTION = "Who developed Minder?"
LANGUAGES = {
    "ja": (
        JA_QUESTION,
        (
            "Minder は ByteDance が開発した [1]。",
            "NSDI 2025 で発表された [4]。",
            "運用は High-speed Network チームが担う [1]。",
        ),
        "詳しくは https://evil.example/steal を見て [1]。",
        "これは引用のない主張だ。",
    ),
    "en": (
        EN_QUESTION,
        (
            "ByteDance developed Minder [1]. ",
            "It was presented at NSDI 2025 [4]. ",
            "The High-speed Network team runs it [1].",
        ),
        "See https://evil.example/steal for the rest [1]. ",
        "This claim cites nothing. ",
    ),
}


@pytest.fixture
async def model():
    async with FakeOpenAI() as fake:
        yield fake


def llm_settings(model: FakeOpenAI, **overrides: object) -> dict[str, object]:
    return {"llm_base_url": model.base_url, "llm_model": MODEL, "llm_timeout": 10.0, **overrides}


def stream_calls(slack) -> list:
    return [call for call in slack.calls if call.method in STREAM_METHODS]


def streamed_text(slack) -> str:
    """Everything the stream showed, in the order it was sent."""
    return "".join(call.args.get("markdown_text") or "" for call in stream_calls(slack))


async def written_in_place(slack) -> None:
    """Until a ``chat.update`` carries the model's final answer."""

    def final() -> bool:
        return any("written by" in message_text(u.args["blocks"]) for u in slack.calls_to("chat.update"))

    await eventually(final, what="the model's answer in place")


def answer(slack) -> list[dict]:
    """The blocks of the one message in the channel, as it stands now."""
    messages = slack.messages(CHANNEL_ID)
    return (messages[0].get("blocks") or []) if messages else []


async def stopped(slack):
    (stop,) = await slack.wait_for_calls("chat.stopStream")
    return stop


@pytest.mark.parametrize("language", ["ja", "en"])
async def test_an_answer_in_a_thread_streams_checked_sentences_only_in_order_as_one_message(
    tmp_path, fake_slack, linked_wiki, model, language
):
    question, (first, second, third), linked, uncited = LANGUAGES[language]
    model.reply(first + linked + uncited + second + third, hold_at=len(first) + 1)
    settings = llm_settings(model, ui_language="auto")  # labels in the question's language
    async with running_bot(tmp_path, fake_slack, linked_wiki, **settings) as bot:
        await bot.sender.event(mention_event(question, ts=THREAD))
        (start,) = await fake_slack.wait_for_calls("chat.startStream")
        # The first sentence is shown while the model is still writing, and nothing else yet.
        assert start.args["markdown_text"] == first
        assert [call.method for call in stream_calls(fake_slack)] == ["chat.startStream"]
        model.release()
        stop = await stopped(fake_slack)
        await asyncio.sleep(QUIET_S)
    assert start.args["channel"] == CHANNEL_ID and start.args["thread_ts"] == THREAD
    assert start.args["recipient_team_id"] == TEAM_ID and start.args["recipient_user_id"] == USER_ID
    assert streamed_text(fake_slack).strip() == (first + second + third).strip()
    everything = json.dumps([call.args for call in fake_slack.calls], ensure_ascii=False)
    assert "evil.example" not in everything and uncited.strip() not in everything
    assert fake_slack.calls_to("chat.postMessage") == [] and fake_slack.calls_to("chat.update") == []
    (message,) = fake_slack.messages(CHANNEL_ID)  # one answer, one message
    assert not message["streaming"]
    blocks = stop.args["blocks"]
    assert_valid_blocks(blocks)
    sources = [b for b in blocks if "accessory" in b]
    assert [b["text"]["text"][:3] for b in sources] == ["[1]", "[4]"]
    with use_language(language):
        assert written_by(MODEL, 5) in message_text(blocks)
    assert any(b["type"] == "context_actions" for b in blocks)  # 👍/👎
    assert any(b.get("block_id") == FOLLOW_BLOCK_ID for b in blocks)  # the thread is followed
    assert stop.args["metadata"]["event_type"]
    assert f"Write the answer in {LANGUAGE_NAMES[language]}" in model.requests[0].system


async def test_the_assistant_pane_streams_into_its_thread(tmp_path, fake_slack, linked_wiki, model):
    question, (first, second, third), _linked, _uncited = LANGUAGES["en"]
    model.reply(first + second + third)
    async with running_bot(
        tmp_path, fake_slack, linked_wiki, assistant_enabled=True, **llm_settings(model)
    ) as bot:
        await bot.sender.event(assistant_message_event(question, THREAD, "1700000101.000100"))
        stop = await stopped(fake_slack)
    (status,) = fake_slack.calls_to("assistant.threads.setStatus")
    (start,) = fake_slack.calls_to("chat.startStream")
    assert status.at < start.at
    assert start.args["channel"] == DM_CHANNEL_ID and start.args["thread_ts"] == THREAD
    assert streamed_text(fake_slack).strip() == (first + second + third).strip()
    assert any(b["type"] == "context_actions" for b in stop.args["blocks"])
    assert not any(b.get("block_id") == FOLLOW_BLOCK_ID for b in stop.args["blocks"])
    assert fake_slack.calls_to("chat.postMessage") == []


@pytest.mark.parametrize("failure", ["500", "no-citations", "timeout"])
async def test_a_model_that_fails_before_a_first_sentence_leaves_the_extractive_answer_posted_once(
    tmp_path, fake_slack, linked_wiki, model, caplog, failure
):
    overrides = llm_settings(model, llm_timeout=1.0, llm_stream_wait=5.0)
    if failure == "500":
        model.fail(500, times=10)
    elif failure == "no-citations":
        model.reply("Minder は ByteDance が開発した。NSDI 2025 で発表された。")
    else:
        model.slow()
    with caplog.at_level(logging.INFO):
        async with running_bot(tmp_path, fake_slack, linked_wiki, **overrides) as bot:
            await bot.sender.event(mention_event(JA_QUESTION, ts=THREAD))
            (post,) = await fake_slack.wait_for_calls("chat.postMessage")
            await asyncio.sleep(QUIET_S)
    assert post.args["thread_ts"] == THREAD and post.args["blocks"][0]["type"] == "rich_text"
    assert "written by" not in message_text(post.args["blocks"])
    assert stream_calls(fake_slack) == [] and fake_slack.calls_to("chat.update") == []
    assert fake_slack.calls_to("chat.postEphemeral") == []
    assert len(fake_slack.messages(CHANNEL_ID)) == 1
    assert "the extractive answer stands" in caplog.text


async def test_no_sentence_within_the_wait_posts_the_extractive_answer_then_rewrites_it(
    tmp_path, fake_slack, linked_wiki, model
):
    question, (first, second, third), _linked, _uncited = LANGUAGES["ja"]
    model.reply(first + second + third)
    model.first_delay = 1.5
    async with running_bot(
        tmp_path, fake_slack, linked_wiki, **llm_settings(model, llm_stream_wait=0.3)
    ) as bot:
        await bot.sender.event(mention_event(question, ts=THREAD))
        (post,) = await fake_slack.wait_for_calls("chat.postMessage")
        assert post.args["blocks"][0]["type"] == "rich_text"  # the extractive answer, at the wait's end
        await written_in_place(fake_slack)
        await asyncio.sleep(QUIET_S)
    assert stream_calls(fake_slack) == []
    (message,) = fake_slack.messages(CHANNEL_ID)
    assert "NSDI 2025 で発表された" in message_text(message["blocks"])
    assert any(b["type"] == "context_actions" for b in message["blocks"])


async def test_a_whole_answer_within_the_wait_is_posted_as_one_message(
    tmp_path, fake_slack, linked_wiki, model
):
    model.reply("Minder は ByteDance が開発した [1]。")  # one sentence: settled only when the answer ends
    async with running_bot(tmp_path, fake_slack, linked_wiki, **llm_settings(model)) as bot:
        await bot.sender.event(mention_event(JA_QUESTION, ts=THREAD))
        (post,) = await fake_slack.wait_for_calls("chat.postMessage")
        await asyncio.sleep(QUIET_S)
    blocks = post.args["blocks"]
    assert_valid_blocks(blocks)
    assert "Minder は ByteDance が開発した" in message_text(blocks) and "written by" in message_text(blocks)
    assert any(b["type"] == "context_actions" for b in blocks)
    assert post.args["metadata"]["event_type"]
    assert stream_calls(fake_slack) == [] and fake_slack.calls_to("chat.update") == []


@pytest.mark.parametrize("language", ["ja", "en"])
async def test_a_model_cut_mid_stream_keeps_what_was_shown_above_the_extractive_answer(
    tmp_path, fake_slack, linked_wiki, model, caplog, language
):
    question, sentences, _linked, _uncited = LANGUAGES[language]
    model.reply("".join(sentences * 2))
    model.cut()
    with caplog.at_level(logging.INFO):
        settings = llm_settings(model, ui_language="auto")
        async with running_bot(tmp_path, fake_slack, linked_wiki, **settings) as bot:
            await bot.sender.event(mention_event(question, ts=THREAD))
            stop = await stopped(fake_slack)
            await asyncio.sleep(QUIET_S)
    shown = streamed_text(fake_slack)
    assert shown.startswith(sentences[0]) and "".join(sentences * 2) != shown
    blocks = stop.args["blocks"]
    assert_valid_blocks(blocks)
    with use_language(language):
        note = _(STOPPED_NOTE).format(model=f"`{MODEL}`")
    assert note in message_text(blocks)
    assert any(b["type"] == "rich_text" for b in blocks)  # the extractive answer, below
    assert any(b["type"] == "context_actions" for b in blocks)
    assert fake_slack.calls_to("chat.postMessage") == [] and fake_slack.calls_to("chat.update") == []
    assert fake_slack.calls_to("chat.postEphemeral") == []
    assert len(fake_slack.messages(CHANNEL_ID)) == 1
    assert "APIConnectionError" in caplog.text


async def test_slack_refusing_the_stream_gets_the_extractive_answer_rewritten_in_place(
    tmp_path, fake_slack, linked_wiki, model, caplog
):
    _question, sentences, _linked, _uncited = LANGUAGES["ja"]
    model.reply("".join(sentences))
    fake_slack.answer("chat.startStream", {"ok": False, "error": "feature_not_enabled"})
    with caplog.at_level(logging.WARNING):
        async with running_bot(tmp_path, fake_slack, linked_wiki, **llm_settings(model)) as bot:
            await bot.sender.event(mention_event(JA_QUESTION, ts=THREAD))
            await eventually(lambda: "written by" in message_text(answer(fake_slack)), what="the answer")
            await asyncio.sleep(QUIET_S)
    # Posted whole if the model was done by then, else the extractive answer rewritten in place.
    assert len(fake_slack.calls_to("chat.postMessage")) == 1
    assert [call.method for call in stream_calls(fake_slack)] == ["chat.startStream"]
    assert len(fake_slack.messages(CHANNEL_ID)) == 1
    assert "could not start streaming" in caplog.text


async def test_an_append_whose_answer_is_lost_is_not_sent_again_and_the_message_ends_whole(
    tmp_path, fake_slack, linked_wiki, model, caplog
):
    _question, sentences, _linked, _uncited = LANGUAGES["ja"]
    model.reply("".join(sentences))
    fake_slack.lose("chat.appendStream")  # Slack appends, the connection drops before its answer
    with caplog.at_level(logging.WARNING):
        async with running_bot(tmp_path, fake_slack, linked_wiki, **llm_settings(model)) as bot:
            await bot.sender.event(mention_event(JA_QUESTION, ts=THREAD))
            await stopped(fake_slack)
            (update,) = await fake_slack.wait_for_calls("chat.update")
            await asyncio.sleep(QUIET_S)
    assert len(fake_slack.calls_to("chat.appendStream")) == 1  # never retried: it would show twice
    (message,) = fake_slack.messages(CHANNEL_ID)
    assert message["ts"] == update.args["ts"]
    text = message_text(message["blocks"])
    assert all(text.count(sentence.rstrip("。").split(" [")[0]) == 1 for sentence in sentences)
    assert "written by" in text and any(b["type"] == "context_actions" for b in message["blocks"])
    assert "could not append" in caplog.text


@pytest.mark.parametrize("where", ["in the channel", "LLM_STREAM=off"])
async def test_outside_a_thread_or_with_streaming_off_the_answer_is_rewritten_in_place(
    tmp_path, fake_slack, linked_wiki, model, where
):
    _question, sentences, _linked, _uncited = LANGUAGES["ja"]
    model.reply("".join(sentences))
    overrides = {"reply_in_thread": False} if where == "in the channel" else {"llm_stream": "off"}
    async with running_bot(tmp_path, fake_slack, linked_wiki, **llm_settings(model, **overrides)) as bot:
        await bot.sender.event(mention_event(JA_QUESTION, ts=THREAD))
        await written_in_place(fake_slack)
    (post,) = fake_slack.calls_to("chat.postMessage")
    assert post.args.get("thread_ts") == (None if where == "in the channel" else THREAD)
    assert stream_calls(fake_slack) == []


async def test_a_streamed_answer_never_pings_the_channel(tmp_path, fake_slack, linked_wiki, model):
    model.reply("<!channel> Minder は ByteDance が開発した [1]。<!here> NSDI 2025 で発表された [4]。")
    async with running_bot(tmp_path, fake_slack, linked_wiki, **llm_settings(model)) as bot:
        await bot.sender.event(mention_event(JA_QUESTION, ts=THREAD))
        await stopped(fake_slack)
    raw = json.dumps([call.args for call in stream_calls(fake_slack)], ensure_ascii=False)
    assert "<!channel>" not in raw and "<!here>" not in raw
    assert streamed_text(fake_slack).startswith("&lt;!channel&gt; Minder は ByteDance が開発した [1]。")
