"""Messages in channel threads: follow-ups in the threads sakuin answered in, and "stop".

The ``message`` events outside a DM (``message.channels``, ``message.groups``) that
`bot.conversation.followups.classify` says might be for sakuin come here; the state store says whether sakuin
follows the thread. A followed thread's question is answered in the thread, about the thread's
subject when it names no page; "stop" ends the following; a message meant for someone else only
tells the thread is not silent.
"""

from __future__ import annotations

from slack_bolt.context.async_context import AsyncBoltContext
from slack_sdk.web.async_client import AsyncWebClient

from bot.conversation.conversations import Conversations, Place, team_of
from bot.conversation.followups import Kind, classify
from bot.i18n import language_for_question, use_language
from config.settings import Settings


async def handle_thread_message(
    event: dict,
    context: AsyncBoltContext,
    client: AsyncWebClient,
    settings: Settings,
    conversations: Conversations,
) -> None:
    follow_up = classify(event, context.bot_user_id)
    place = Place(
        follow_up.channel, follow_up.thread_ts, follows=True, user=event.get("user"), team=team_of(context)
    )
    if follow_up.kind is Kind.IGNORE:
        return
    if follow_up.kind is Kind.CHATTER:
        await conversations.touch(follow_up.channel, follow_up.thread_ts)
    elif await conversations.followed(place) is None:
        return
    elif follow_up.kind is Kind.STOP:
        with use_language(language_for_question(follow_up.text, settings.ui_language)):  # stop / やめて
            await conversations.stop(client, follow_up.channel, follow_up.thread_ts)
    else:
        await conversations.answer(client, place, follow_up.text)
