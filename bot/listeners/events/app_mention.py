"""``@sakuin question``: the answer goes to the thread (or the channel, with ``REPLY_IN_THREAD=false``).

An answer in a thread starts following it: later messages there are answered without a mention
(`bot.listeners.events.message_thread`).
"""

from __future__ import annotations

import logging

from slack_bolt.context.async_context import AsyncBoltContext
from slack_sdk.web.async_client import AsyncWebClient

from bot.blocks.mrkdwn import strip_mention, unescape
from bot.blocks.notices import refused_reply
from bot.conversation.conversations import Conversations, Place, team_of
from bot.i18n import language_for_question, use_language
from bot.slack.delivery import tell_user
from config.settings import Settings

log = logging.getLogger(__name__)


async def answers_mention(event: dict) -> bool:
    """Not a mention inside a DM: that one also arrives as message.im, which answers it."""
    return not str(event.get("channel") or "").startswith("D")


async def handle_app_mention(
    event: dict,
    context: AsyncBoltContext,
    client: AsyncWebClient,
    settings: Settings,
    conversations: Conversations,
) -> None:
    channel = event["channel"]
    text = unescape(strip_mention(event.get("text") or "", context.bot_user_id))
    if settings.allowed_channels and channel not in settings.allowed_channels:
        log.info("mention in %s ignored: not in ALLOWED_CHANNELS", channel)
        with use_language(language_for_question(text, settings.ui_language)):
            await tell_user(client, channel, event["user"], refused_reply(), thread_ts=event.get("thread_ts"))
        return
    thread_ts = event.get("thread_ts") or (event["ts"] if settings.reply_in_thread else None)
    place = Place(
        channel, thread_ts, follows=thread_ts is not None, user=event.get("user"), team=team_of(context)
    )
    await conversations.answer(client, place, text)
