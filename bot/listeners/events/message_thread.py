"""Messages in channel threads: follow-ups in the threads sakuin answered in, and "stop".

Every ``message`` event outside a DM comes here (``message.channels``, ``message.groups``). Most
are not for sakuin (`bot.followups.classify` says which might be); for those, the thread store
says whether sakuin follows the thread. A followed thread's question is answered in the thread,
about the thread's subject when it names no page; "stop" ends the following.
"""

from __future__ import annotations

import asyncio

from slack_bolt.context.async_context import AsyncBoltContext
from slack_sdk.web.async_client import AsyncWebClient

from bot.conversation import Conversations, Place
from bot.followups import Kind, classify


async def handle_thread_message(
    event: dict, context: AsyncBoltContext, client: AsyncWebClient, conversations: Conversations
) -> None:
    follow_up = classify(event, context.bot_user_id)
    if follow_up.kind is Kind.IGNORE:
        return
    threads = conversations.threads
    channel, thread_ts = follow_up.channel, follow_up.thread_ts
    if follow_up.kind is Kind.CHATTER:
        await asyncio.to_thread(threads.touch, channel, thread_ts)
    elif await asyncio.to_thread(threads.followed, channel, thread_ts) is None:
        return
    elif follow_up.kind is Kind.STOP:
        await conversations.stop(client, channel, thread_ts)
    else:
        await conversations.answer(client, Place(channel, thread_ts, follows=True), follow_up.text)
