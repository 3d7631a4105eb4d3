"""Watched pages through the real server, against the fake Slack and a real bare git repository:
``/wiki watch NAME`` (and its Japanese words), one message per page and channel per coalescing
window saying what changed in the wiki's terms, nothing for whitespace or frontmatter dates, and
App Home's list of the watches in the user's channels."""

from __future__ import annotations

import time

import pytest

from tests.bot.conftest import RunningBot
from tests.bot.fake_slack import CHANNEL_ID, USER_ID, FakeSlack
from tests.bot.scenarios.test_inbox import WAIT_S, git_inbox_bot, push
from tests.conftest import eventually
from tests.vaults import SMALL_VAULT

BYTEDANCE = "wiki/entities/ByteDance.md"
WITH_DOUBAO = str(SMALL_VAULT[BYTEDANCE]).replace(
    "[[MegaScale]] / [[Minder]]", "[[MegaScale]] / [[Minder]] / [[Doubao]]"
)
NEW_SENTENCE = "2026 年に推論基盤を公開した。"
AND_A_SENTENCE = WITH_DOUBAO.replace("created: 2026-09-01", "created: 2026-09-02").replace(
    "[[Minder]] を開発した。", f"[[Minder]] を開発した。{NEW_SENTENCE}"
)
ONLY_DATES_AND_SPACES = (
    WITH_DOUBAO.replace("created: 2026-09-01", "created: 2026-09-03").replace("北京の", "北京の  ") + "\n\n"
)
WINDOW_MINUTES = 0.2


def change_messages(slack: FakeSlack) -> list[dict]:
    return [
        call.args
        for call in slack.calls_to("chat.postMessage")
        if (call.args.get("metadata") or {}).get("event_type") == "sakuin_page_change"
    ]


def told(bot: RunningBot) -> bool:
    """Every change of the watched pages has been looked at (and told, if it said anything)."""
    return all(watch.changed_at is None for watch in bot.store.page_watches())


async def command(bot: RunningBot, text: str, name: str) -> str:
    """``/wiki text`` in the channel; the private answer's blocks, as text."""
    sent = await bot.sender.command("/wiki", text, response_url=bot.slack.response_url(name))
    assert sent.status == 200
    (response,) = await bot.slack.wait_for_responses(name, timeout=WAIT_S)
    assert response.body["response_type"] == "ephemeral"
    return str(response.body["blocks"])


@pytest.mark.parametrize(
    ("ui_language", "words", "said", "expected"),
    [
        (
            "en",
            ("watch", "watching", "unwatch"),
            "This channel now watches",
            ("related product: added *Doubao*", f"Summary: “{NEW_SENTENCE}”"),
        ),
        (
            "ja",
            ("ウォッチ", "ウォッチ一覧", "ウォッチ解除"),
            "このチャンネルで",
            ("関連プロダクト: *Doubao* を追加", f"概要: 「{NEW_SENTENCE}」"),
        ),
    ],
)
async def test_a_watched_page_edited_twice_in_the_window_gets_one_message(
    tmp_path, fake_slack, ui_language: str, words: tuple[str, str, str], said: str, expected: tuple[str, str]
) -> None:
    async with git_inbox_bot(
        tmp_path, fake_slack, ui_language=ui_language, watch_coalesce_minutes=WINDOW_MINUTES
    ) as running:
        bot = running.bot
        watch, watching, unwatch = words
        answer = await command(bot, f"{watch} バイトダンス", "watch")  # an alias, as /entity finds it
        assert said in answer and "ByteDance" in answer
        assert "ByteDance" in await command(bot, watching, "watching")

        started = time.monotonic()
        await push(running, {BYTEDANCE: WITH_DOUBAO}, "add Doubao")
        await push(running, {BYTEDANCE: AND_A_SENTENCE}, "a sentence, and a date")
        assert time.monotonic() - started < WINDOW_MINUTES * 60, "the two edits did not fit in the window"
        assert change_messages(fake_slack) == []  # coalesced: nothing before the window ends
        await eventually(lambda: change_messages(fake_slack), timeout=WAIT_S, what="the change message")
        await eventually(lambda: told(bot), timeout=WAIT_S, what="the change to be told")
        (message,) = change_messages(fake_slack)
        assert message["channel"] == CHANNEL_ID
        shown = str(message["blocks"])
        assert all(line in shown for line in expected) and "ByteDance" in shown
        assert "MegaScale" not in shown and "Zhuo Jiang" not in shown  # only what changed

        answer = await command(bot, f"{unwatch} ByteDance", "unwatch")
        assert "ByteDance" in answer and bot.store.page_watches() == ()


async def test_with_no_window_each_change_is_told_not_dates_or_spaces_and_a_removal_ends_the_watch(
    tmp_path, fake_slack
) -> None:
    async with git_inbox_bot(tmp_path, fake_slack, watch_coalesce_minutes=0) as running:
        bot = running.bot
        assert "ByteDance" in await command(bot, "watch bytedance", "watch")
        await push(running, {BYTEDANCE: WITH_DOUBAO}, "add Doubao")
        await eventually(lambda: len(change_messages(fake_slack)) == 1, timeout=WAIT_S, what="the first")
        await eventually(lambda: told(bot), timeout=WAIT_S, what="the first change told")

        # A change that only touches whitespace and dates says nothing.
        looked = bot.loop.watchers.looked
        await push(running, {BYTEDANCE: ONLY_DATES_AND_SPACES}, "dates and spaces")
        await eventually(
            lambda: bot.loop.watchers.looked > looked and told(bot), timeout=WAIT_S, what="the look"
        )
        assert len(change_messages(fake_slack)) == 1

        running.remote.remove(BYTEDANCE, "remove ByteDance")
        running.sync.request_fetch()
        await eventually(lambda: len(change_messages(fake_slack)) == 2, timeout=WAIT_S, what="the removal")
        removed = change_messages(fake_slack)[1]
        assert "ByteDance was removed from the wiki" in removed["text"]
        await eventually(lambda: bot.store.page_watches() == (), timeout=WAIT_S, what="the watch to end")


async def test_watch_names_a_page_or_says_why_not(bot) -> None:
    assert "No page is called *Nowhere Corp*" in await command(bot, "watch Nowhere Corp", "missing")
    assert "Which page?" in await command(bot, "watch", "nameless")
    assert "This channel watches no page." in await command(bot, "watching", "none")
    assert "does not watch that page" in await command(bot, "unwatch ByteDance", "not watched")
    assert "now watches" in await command(bot, "watch Minder", "watch")
    assert "already watches" in await command(bot, "watch minder", "again")
    watches = [(w.channel, w.path) for w in bot.store.page_watches()]
    assert watches == [(CHANNEL_ID, "wiki/entities/Minder.md")]


async def test_app_home_lists_the_watches_of_the_users_channels(bot) -> None:
    assert "ByteDance" in await command(bot, "watch ByteDance", "watch")
    bot.store.watch_page("C0ELSEWHERE", "wiki/entities/Minder.md", "Minder", "{}")
    bot.slack.answer(
        "users.conversations", {"ok": True, "channels": [{"id": CHANNEL_ID}], "response_metadata": {}}
    )
    home = {"type": "app_home_opened", "user": USER_ID, "channel": "D0HOME", "tab": "home", "event_ts": "1.0"}
    await bot.sender.event(home)
    (call,) = await bot.slack.wait_for_calls("views.publish")
    blocks = call.args["view"]["blocks"]
    at = next(n for n, block in enumerate(blocks) if block.get("text", {}).get("text") == "Watched pages")
    assert blocks[at + 1]["text"]["text"] == f"<#{CHANNEL_ID}>: ByteDance"  # not the other channel's Minder
