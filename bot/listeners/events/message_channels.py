"""A question in one of ``ANSWER_CHANNELS``, asked without a mention (`bot.conversation.channel_answers`).

Only a person's question there comes here (`answers_channel_question`, the listener's matcher,
applied before the event is claimed). It is answered in its thread when the wiki answers it
confidently, under a note with a "Mute for me" button; never when the asker muted the channel. In
a thread sakuin already follows (a mention started it) the question is a follow-up, answered as
such.
"""

from __future__ import annotations

import logging
from functools import partial

from slack_bolt.context.async_context import AsyncBoltContext
from slack_sdk.web.async_client import AsyncWebClient

from bot.blocks.channel_note import note_block
from bot.blocks.mrkdwn import unescape
from bot.conversation.channel_answers import asks_in_answer_channel
from bot.conversation.conversations import Conversations, Place
from bot.listeners.events.message_thread import handle_thread_message
from bot.state.store import AsyncStateStore
from config.settings import Settings

log = logging.getLogger(__name__)


async def answers_channel_question(event: dict, context: AsyncBoltContext, settings: Settings) -> bool:
    return asks_in_answer_channel(event, context.bot_user_id, settings)


async def handle_channel_question(
    event: dict,
    context: AsyncBoltContext,
    client: AsyncWebClient,
    settings: Settings,
    state: AsyncStateStore,
    conversations: Conversations,
) -> None:
    channel, user, ts = event["channel"], event["user"], event["ts"]
    thread_ts = event.get("thread_ts")
    if thread_ts and thread_ts != ts and await conversations.followed(Place(channel, thread_ts)):
        await handle_thread_message(event, context, client, settings, conversations)
        return
    if await state.channel_muted(channel, user):
        log.info("question in %s not answered: its asker muted the channel", channel)
        return
    place = Place(channel, thread_ts or ts, user=user)
    text = unescape(event["text"])
    if not await conversations.answer(client, place, text, unasked=partial(note_blocks, channel)):
        log.info("question in %s not answered: the wiki does not answer it confidently", channel)


def note_blocks(channel: str) -> list[dict]:
    return [note_block(channel)]
