"""``ASK_REACTION`` (🔍 by default) added to a message: answer that message in its thread, for
everyone, as a mention would (`bot.conversation.channel_answers`).

The message is read from Slack; a bot's message, one that mentions someone, or one that is gone
is not answered, and a message is answered once however many people add the reaction.
"""

from __future__ import annotations

import logging

from slack_bolt.context.async_context import AsyncBoltContext
from slack_sdk.web.async_client import AsyncWebClient

from bot.blocks.mrkdwn import unescape
from bot.conversation.channel_answers import asked_key, asks_by_reaction, is_persons_message, read_message
from bot.conversation.conversations import Conversations, Place
from bot.listeners.events.once import EVENT_TTL_S
from bot.state.store import AsyncStateStore
from config.settings import Settings

log = logging.getLogger(__name__)


async def answers_reaction(event: dict, context: AsyncBoltContext, settings: Settings) -> bool:
    return asks_by_reaction(event, context.bot_user_id, settings)


async def handle_reaction_added(
    event: dict,
    context: AsyncBoltContext,
    client: AsyncWebClient,
    settings: Settings,
    state: AsyncStateStore,
    conversations: Conversations,
) -> None:
    channel, ts = event["item"]["channel"], event["item"]["ts"]
    if settings.allowed_channels and channel not in settings.allowed_channels:
        log.info("reaction in %s ignored: not in ALLOWED_CHANNELS", channel)
        return
    message = await read_message(client, channel, ts)
    if message is None or not is_persons_message(message, context.bot_user_id):
        return
    if not await state.claim_event(asked_key(channel, ts), EVENT_TTL_S):
        log.info("message %s in %s was already asked about: answered once", ts, channel)
        return
    place = Place(channel, message.get("thread_ts") or ts, follows=True, user=event.get("user"))
    await conversations.answer(client, place, unescape(message["text"]))
