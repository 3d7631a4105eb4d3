"""A not-found answer is the asker's to refine: it offers no "Share to channel" (through the real
server, as Slack sends the commands); an answer that found something still does."""

from __future__ import annotations

import pytest

from bot.blocks.buttons import SHARE
from tests.bot.block_kit import message_text
from tests.bot.scenarios.test_http_commands import action_ids, command


@pytest.mark.parametrize(
    ("slash", "text", "said", "shared"),
    [
        ("/entity", "Qqzzyx Wwvvu", "No page is called", False),
        ("/wiki", "qqzzyx wwvvu", "Nothing in the wiki matches", False),
        ("/entity", "Lin", "No page is called *Lin*", False),  # nearest names, but no page by it
        ("/entity", "Zhuo Jiang", "has no page yet", True),  # the pages that mention it are worth showing
        ("/entity", "ByteDance", "ByteDance", True),
        ("/wiki", "CCL ハング 診断", "CCL-D", True),
    ],
)
async def test_share_to_channel_only_on_answers_that_found_something(bot, slash, text, said, shared):
    body = await command(bot, text, command=slash)
    assert said in message_text(body["blocks"])
    assert (SHARE in action_ids(body["blocks"])) is shared
