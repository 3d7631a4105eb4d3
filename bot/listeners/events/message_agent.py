"""A question in the Messages tab of the agent experience (``AGENT_EXPERIENCE=agent``).

The DM's new messages (`answers_direct_message`) come here instead of `bot.listeners.events.message_im`.
Each question is a conversation: its thread shows Slack's loading status while the wiki is
searched (`bot.conversation.agent_view`), then the answer a mention gets, in the thread; a follow-up in that
thread is asked about the same subject.
"""

from __future__ import annotations

from slack_bolt.context.async_context import AsyncBoltContext
from slack_bolt.context.set_status.async_set_status import AsyncSetStatus
from slack_sdk.web.async_client import AsyncWebClient

from bot.blocks.mrkdwn import strip_mention, unescape
from bot.conversation.agent_view import show_loading
from bot.conversation.conversations import Conversations, Place
from bot.i18n import language_for_question, use_language
from config.settings import Settings


async def handle_agent_message(
    event: dict,
    context: AsyncBoltContext,
    client: AsyncWebClient,
    settings: Settings,
    conversations: Conversations,
    set_status: AsyncSetStatus | None,
) -> None:
    text = unescape(strip_mention(event.get("text") or "", context.bot_user_id))
    channel = event["channel"]
    with use_language(language_for_question(text, settings.ui_language)):
        await show_loading(set_status, channel)
    place = Place(channel, event.get("thread_ts") or event["ts"], user=event.get("user"))
    await conversations.answer(client, place, text)
