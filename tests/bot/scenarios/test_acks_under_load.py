"""Slack gets its acknowledgement at once while the work behind it waits: a search that has not
finished, a full answer queue, or a state file another process holds locked.

What the work waits on is held by the test (`Hold`) and let go only after the acks have
arrived, or at a generous deadline: a handler that waited on the event loop would delay every
ack until after the release, and the test would see it, on a fast machine as on a slow one. The
answer queue's size is the test's own (never the machine's core count).
"""

from __future__ import annotations

import asyncio
import os
import shutil
import sqlite3
import sys
import threading
import time
import traceback
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from bot.answering.queue import AnswerQueue
from bot.blocks.notices import busy_reply, overloaded_reply
from bot.serve.runtime import start_bot
from bot.serve.server import create_web_app, start_http
from bot.slack.manifest import EVENTS_PATH
from bot.state.store import STATE_WORKERS
from index.model import Answer, SearchResult
from index.wiki import Wiki
from tests.bot.conftest import SIGNING_SECRET, bot_settings, running_bot
from tests.bot.fake_slack import FakeSlack, Sent, SlackSender, direct_message, mention_event
from tests.conftest import EXAMPLE_VAULT, Hold, eventually

SLOW = "訓練の障害を検出するには"
"""The question whose search the test holds."""


class HeldWiki(Wiki):
    """The real wiki, except that searching for `SLOW` (or answering it) waits until the test lets go."""

    hold: Hold
    held = 0
    """How many searches are waiting for the test (read by the test to know where its requests are)."""

    def search(self, query: str, limit: int = 5) -> SearchResult:
        if SLOW in query:
            self.held += 1
            self.hold.wait()
        return super().search(query, limit)

    def answer(self, question: str, *, subject: str | None = None) -> Answer:
        if SLOW in question:
            self.hold.wait()
        return super().answer(question, subject=subject)


async def acked(send: asyncio.Future[Sent] | asyncio.Task[Sent]) -> float:
    sent = await send
    assert sent.status == 200
    return time.monotonic()


async def test_acks_and_other_answers_come_while_searches_wait(
    tmp_path: Path, fake_slack: FakeSlack, wiki_index: Path
):
    """Three searches hold three of the queue's four threads: acks come at once, and another
    user's lookup is answered on the fourth."""
    wiki = HeldWiki.open(EXAMPLE_VAULT, wiki_index)
    with Hold() as hold:
        wiki.hold = hold
        async with running_bot(tmp_path, fake_slack, wiki, answers=AnswerQueue(workers=4)) as bot:
            sender = bot.sender
            acks = [
                await acked(sender.command("/wiki", SLOW, response_url=fake_slack.response_url("slow"))),
                await acked(sender.event(mention_event(SLOW, ts="1700000100.000100"))),
                await acked(sender.event(direct_message(SLOW, ts="1700000200.000100"))),
            ]
            for n in range(3):
                url = fake_slack.response_url(f"entity{n}")
                acks.append(await acked(sender.command("/entity", "ByteDance", response_url=url)))
            answers = [(await fake_slack.wait_for_responses(f"entity{n}", timeout=30))[0] for n in range(3)]
            hold.let_go()
            (slow,) = await fake_slack.wait_for_responses("slow", timeout=30)
            posts = await fake_slack.wait_for_calls("chat.postMessage", 2, timeout=30)
    assert all(hold.held_at(at) for at in acks), "an ack waited for a search"
    assert all(hold.held_at(answer.at) for answer in answers), "another user's lookup waited for a search"
    assert all(answer.body["blocks"][0]["text"]["text"] == "ByteDance" for answer in answers)
    assert not hold.held_at(slow.at) and all(not hold.held_at(post.at) for post in posts)
    assert {post.args["channel"] for post in posts} == {"C0GENERAL", "D0ALICE"}


async def test_a_full_queue_says_busy_then_answers_each_request_once(
    tmp_path: Path, fake_slack: FakeSlack, wiki_index: Path
):
    """One thread, room for one waiting job: the third and fourth requests find the queue full.
    The command's ack says so, the mention gets a busy notice in its thread; after the search is
    let go every request is answered, once."""
    wiki = HeldWiki.open(EXAMPLE_VAULT, wiki_index)
    answers = AnswerQueue(workers=1, capacity=1)
    with Hold() as hold:
        wiki.hold = hold
        async with running_bot(tmp_path, fake_slack, wiki, answers=answers) as bot:
            sender = bot.sender
            await sender.command("/wiki", SLOW, response_url=fake_slack.response_url("slow"))
            await eventually(lambda: wiki.held == 1, timeout=30, what="the held search")
            queued = await sender.event(mention_event("Minder とは", ts="1700000100.000100"))
            await eventually(lambda: answers.full, timeout=30, what="the mention waiting in the queue")
            busy_command = await sender.command(
                "/entity", "ByteDance", response_url=fake_slack.response_url("busy")
            )
            busy_mention = await sender.event(mention_event("MegaScale とは", ts="1700000300.000100"))
            (notice,) = await fake_slack.wait_for_calls("chat.postEphemeral", 1, timeout=30)
            busy_at = time.monotonic()
            hold.let_go()
            await fake_slack.wait_for_responses("slow", timeout=30)
            (card,) = await fake_slack.wait_for_responses("busy", timeout=30)
            posts = await fake_slack.wait_for_calls("chat.postMessage", 2, timeout=30)
    assert queued.status == busy_command.status == busy_mention.status == 200
    assert hold.held_at(busy_at), "the busy notices waited for the search"
    assert queued.text == ""
    assert busy_command.json()["text"] == busy_reply().text
    assert (notice.args["text"], notice.args["thread_ts"]) == (busy_reply().text, "1700000300.000100")
    assert card.body["blocks"][0]["text"]["text"] == "ByteDance"
    assert sorted(post.args["thread_ts"] for post in posts) == ["1700000100.000100", "1700000300.000100"]
    assert len(fake_slack.calls_to("chat.postEphemeral")) == 1 and len(fake_slack.responses) == 2
    assert answers.busy_count == 2


async def test_a_queue_that_stays_full_apologises_once_and_never_answers_late(
    tmp_path: Path, fake_slack: FakeSlack, wiki_index: Path
):
    """No room within the queue's patience: one apology each (no stack trace, no late answer)."""
    wiki = HeldWiki.open(EXAMPLE_VAULT, wiki_index)
    answers = AnswerQueue(workers=1, capacity=0, give_up_s=0.05)
    with Hold() as hold:
        wiki.hold = hold
        async with running_bot(tmp_path, fake_slack, wiki, answers=answers) as bot:
            sender = bot.sender
            await sender.command("/wiki", SLOW, response_url=fake_slack.response_url("slow"))
            await eventually(lambda: wiki.held == 1, timeout=30, what="the held search")
            await sender.command("/entity", "ByteDance", response_url=fake_slack.response_url("late"))
            await sender.event(mention_event("MegaScale とは", ts="1700000300.000100"))
            (apology,) = await fake_slack.wait_for_responses("late", timeout=30)
            notices = await fake_slack.wait_for_calls("chat.postEphemeral", 2, timeout=30)
            hold.let_go()
            await fake_slack.wait_for_responses("slow", timeout=30)
            await eventually(lambda: answers.full is False, timeout=30, what="the queue to empty")
    assert apology.body["text"] == overloaded_reply().text
    assert [notice.args["text"] for notice in notices] == [busy_reply().text, overloaded_reply().text]
    assert fake_slack.responses_to("late") == [apology]
    assert not fake_slack.calls_to("chat.postMessage")


def hold_write_lock(path: Path, hold: Hold, locked: threading.Event) -> None:
    """Another process's write transaction on the state file, open until the test lets go."""
    db = sqlite3.connect(path, isolation_level=None)
    db.execute("BEGIN IMMEDIATE")
    locked.set()
    hold.wait()
    db.execute("ROLLBACK")
    db.close()


@asynccontextmanager
async def locked(path: Path) -> AsyncIterator[Hold]:
    with Hold() as hold:
        locked = threading.Event()
        holder = threading.Thread(target=hold_write_lock, args=(path, hold, locked), daemon=True)
        holder.start()
        await asyncio.to_thread(locked.wait)
        try:
            yield hold
        finally:
            hold.let_go()
            await asyncio.to_thread(holder.join)


async def test_acks_come_while_another_process_holds_the_state_file(
    tmp_path: Path, fake_slack: FakeSlack, wiki_index: Path
):
    """The real runtime (`start_bot`: the app, the index keeper and the digest schedule, due at
    once) while the state file is locked: the schedule's claim of the day's run, and each event's
    claim, wait for the lock; the acks must not."""
    index_dir = shutil.copytree(wiki_index, tmp_path / "index")
    settings = bot_settings(
        tmp_path, fake_slack, index_dir=index_dir, digest_channel=("C0DIGEST",), digest_time="00:00"
    )
    async with start_bot(settings) as bot:
        runner = await start_http(create_web_app(settings, bot.wiki, bot.app), 0, "127.0.0.1")
        url = f"http://127.0.0.1:{runner.addresses[0][1]}{EVENTS_PATH}"
        try:
            async with SlackSender(url, SIGNING_SECRET) as sender, locked(settings.state_db) as hold:
                reply_to = fake_slack.response_url()
                acks = [
                    await acked(sender.command("/entity", "ByteDance", response_url=reply_to)),
                    await acked(sender.event(mention_event("MegaScale とは"))),
                    await acked(sender.event(direct_message("Minder とは"))),
                    await acked(sender.command("/wiki", "Minder", response_url=reply_to)),
                ]
                hold.let_go()
            posts = await fake_slack.wait_for_calls("chat.postMessage", 2, timeout=30)
            await eventually(lambda: digest_done(settings.state_db), timeout=30, what="the digest run")
        finally:
            await runner.cleanup()
    assert all(hold.held_at(at) for at in acks), "an ack waited for the state file"
    assert all(not hold.held_at(post.at) for post in posts), "an event was answered before its claim"
    assert len(fake_slack.calls_to("chat.postMessage")) == 2


def digest_done(path: Path) -> bool:
    with sqlite3.connect(path) as db:
        return db.execute("SELECT count(*) FROM digest_runs WHERE status = 'done'").fetchone()[0] == 1


def claims_waiting() -> int:
    """Threads inside an event claim right now (blocked on the state file's lock)."""
    return sum(
        any(
            frame.f_code.co_name == "claim_event" and frame.f_code.co_filename.endswith("events.py")
            for frame, _ in traceback.walk_stack(top)
        )
        for top in sys._current_frames().values()
    )


async def test_lookups_and_healthz_answer_while_events_wait_on_the_state_file(
    tmp_path: Path, fake_slack: FakeSlack, wiki: Wiki
):
    """Event claims waiting for a locked state file (30 s of busy timeout each) must not take the
    threads lookups and ``/healthz`` run on: more of them than asyncio's default pool holds."""
    default_pool = min(32, (os.cpu_count() or 1) + 4)  # ThreadPoolExecutor's default size
    waiting = max(8, default_pool + 2)
    async with running_bot(tmp_path, fake_slack, wiki) as bot, locked(bot.settings.state_db) as hold:
        for n in range(waiting):
            await acked(bot.sender.event(direct_message(f"Minder とは {n}", ts=f"1700000300.{n:06d}")))
        await eventually(
            lambda: claims_waiting() >= min(waiting, STATE_WORKERS), what="the claims to wait on the lock"
        )
        sent = await bot.sender.command("/entity", "ByteDance", response_url=fake_slack.response_url("card"))
        assert sent.status == 200
        (card,) = await fake_slack.wait_for_responses("card", timeout=30)
        status, health = await bot.get("/healthz")
        healthy_at = time.monotonic()
        assert hold.held_at(card.at), "a lookup waited for the events' claims"
        assert hold.held_at(healthy_at), "/healthz waited for the events' claims"
        assert claims_waiting() > 0 and fake_slack.calls_to("chat.postMessage") == []
        hold.let_go()
        posts = await fake_slack.wait_for_calls("chat.postMessage", waiting, timeout=60)
    assert card.body["blocks"][0]["text"]["text"] == "ByteDance"
    assert status == 200 and health["status"] == "ready"
    assert {post.args["channel"] for post in posts} == {"D0ALICE"} and len(posts) == waiting
