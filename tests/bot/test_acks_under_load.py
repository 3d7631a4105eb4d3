"""Slack gets its acknowledgement within 3 seconds while a search that takes several seconds is running.

The slow search is real: the vault holds one huge, repetitive page (a pasted log, say), and a
phrase from it makes whoosh walk hundreds of thousands of positions (about 5 s on a 2-core
machine). Nothing of ours is mocked. If a handler ran the search on the event loop instead of in
a thread, every ack sent meanwhile would wait for it.
"""

from __future__ import annotations

import asyncio
import time

from index.wiki import Wiki
from tests.bot.conftest import running_bot
from tests.bot.fake_slack import FakeSlack
from tests.vaults import SMALL_VAULT, write_vault

REPEATS = 60_000
SENTENCE = "訓練の障害を検出する。"
ACK_LIMIT_S = 3.0


def slow_vault(root):
    huge = f"---\ntype: concept\ntitle: 反復ログ\n---\n# 反復ログ\n\n## 定義\n\n{SENTENCE * REPEATS}\n"
    return write_vault(root, {**SMALL_VAULT, "wiki/concepts/反復ログ.md": huge})


async def test_acks_stay_under_3_seconds_while_a_slow_search_runs(tmp_path, fake_slack: FakeSlack):
    wiki = Wiki.open(slow_vault(tmp_path / "vault"), tmp_path / "index")
    wiki.update()
    async with running_bot(tmp_path, fake_slack, wiki) as bot:
        started = time.monotonic()
        slow = await bot.sender.command("/wiki", SENTENCE * 10, response_url=fake_slack.response_url("slow"))
        assert slow.status == 200 and slow.seconds < ACK_LIMIT_S

        acks = []
        for n in range(5):
            await asyncio.sleep(0.4)
            sent = await bot.sender.command(
                "/entity", "ByteDance", response_url=fake_slack.response_url(f"e{n}")
            )
            assert sent.status == 200
            acks.append((sent.seconds, time.monotonic()))
        entity_answers = [(await fake_slack.wait_for_responses(f"e{n}"))[0] for n in range(5)]

        (slow_answer,) = await fake_slack.wait_for_responses("slow", timeout=60)
        slow_seconds = slow_answer.at - started
        print(
            f"\nslow search answered after {slow_seconds:.2f} s; acks meanwhile: "
            + ", ".join(f"{seconds * 1000:.0f} ms" for seconds, _ in acks)
        )

    assert slow_seconds > ACK_LIMIT_S, "the search was not slow on this machine: raise REPEATS"
    assert max(seconds for seconds, _ in acks) < ACK_LIMIT_S
    assert all(acked_at < slow_answer.at for _, acked_at in acks), "acks must come while the search runs"
    # other users' lookups are not only acknowledged but answered while the slow search is still going
    assert all(answer.at < slow_answer.at for answer in entity_answers)
    assert all(answer.body["blocks"][0]["text"]["text"] == "ByteDance" for answer in entity_answers)
    assert "反復ログ" in str(slow_answer.body["blocks"])
