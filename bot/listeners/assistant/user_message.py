"""A message in an assistant thread: a status line, the thread's title, then the answer.

The answer is the one a mention gets (`bot.conversation.conversations`), in the thread, with the thread's
subject carried from one question to the next. Slack clears the status when the answer is posted.
"""

from __future__ import annotations

from slack_bolt.context.async_context import AsyncBoltContext
from slack_bolt.context.set_status.async_set_status import AsyncSetStatus
from slack_bolt.context.set_title.async_set_title import AsyncSetTitle
from slack_sdk.web.async_client import AsyncWebClient

from bot.blocks.mrkdwn import strip_mention, unescape
from bot.conversation.assistant import STATUS, thread_title
from bot.conversation.conversations import Conversations, Place, team_of
from bot.i18n import _, language_for_question, use_language


async def handle_user_message(
    payload: dict,
    context: AsyncBoltContext,
    client: AsyncWebClient,
    set_status: AsyncSetStatus,
    set_title: AsyncSetTitle,
    conversations: Conversations,
) -> None:
    text = unescape(strip_mention(payload.get("text") or "", context.bot_user_id))
    channel, thread_ts = payload["channel"], payload["thread_ts"]
    with use_language(language_for_question(text, conversations.settings.ui_language)):
        await set_status(_(STATUS))
    place = Place(channel, thread_ts, user=payload.get("user"), team=team_of(context))
    if await conversations.followed(place) is None:
        await set_title(thread_title(text))
    await conversations.answer(client, place, text)
