"""``/wiki QUERY``, ``/wiki help`` and ``/wiki digest [YYYY-MM-DD]``: acknowledged at once, answered
privately through ``response_url`` (a digest preview in several messages)."""

from __future__ import annotations

import asyncio

from slack_bolt.context.ack.async_ack import AsyncAck
from slack_bolt.context.respond.async_respond import AsyncRespond

from bot.delivery import respond_privately
from bot.mrkdwn import unescape
from bot.replies import replies_for_text
from config.settings import Settings
from index.wiki import Wiki


async def handle_wiki_command(
    ack: AsyncAck, command: dict, respond: AsyncRespond, wiki: Wiki, settings: Settings
) -> None:
    await ack()
    text = f"{settings.wiki_command} {unescape(command.get('text') or '').strip()}"
    for reply in await asyncio.to_thread(replies_for_text, text, wiki, settings):
        await respond_privately(respond, reply)
