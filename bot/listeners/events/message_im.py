"""Direct messages to the bot: answered in the DM (in the thread when the question is in one).

Only new messages written by a person come here (`answers_direct_message`, the listener's
matcher): an edit, a deletion or a bot's post is not even claimed.
"""

from __future__ import annotations

from slack_bolt.context.async_context import AsyncBoltContext
from slack_sdk.web.async_client import AsyncWebClient

from bot.blocks.mrkdwn import strip_mention, unescape
from bot.conversation.conversations import Conversations, Place, team_of
from config.settings import Settings

ANSWERED_SUBTYPES = frozenset({None, "file_share", "thread_broadcast"})


async def answers_direct_message(event: dict) -> bool:
    return event.get("channel_type") == "im" and event.get("subtype") in ANSWERED_SUBTYPES


async def handle_message(
    event: dict,
    context: AsyncBoltContext,
    client: AsyncWebClient,
    settings: Settings,
    conversations: Conversations,
) -> None:
    text = unescape(strip_mention(event.get("text") or "", context.bot_user_id))
    place = Place(event["channel"], event.get("thread_ts"), user=event.get("user"), team=team_of(context))
    await conversations.answer(client, place, text)
