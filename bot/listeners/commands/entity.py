"""``/entity NAME``: acknowledged at once, answered privately through ``response_url``."""

from __future__ import annotations

import asyncio

from slack_bolt.context.ack.async_ack import AsyncAck
from slack_bolt.context.respond.async_respond import AsyncRespond

from bot.delivery import respond_privately
from bot.mrkdwn import unescape
from bot.replies import reply_for_text
from config.settings import Settings
from index.wiki import Wiki


async def handle_entity_command(
    ack: AsyncAck, command: dict, respond: AsyncRespond, wiki: Wiki, settings: Settings
) -> None:
    await ack()
    text = f"{settings.entity_command} {unescape(command.get('text') or '')}"
    reply = await asyncio.to_thread(reply_for_text, text, wiki, settings)
    await respond_privately(respond, reply)
