"""Direct messages to the bot: answered in the DM (in the thread when the question is in one).

Every ``message`` event comes here (Bolt would answer unmatched events with 404); only new
messages written by a person in a DM are answered.
"""

from __future__ import annotations

from slack_bolt.context.async_context import AsyncBoltContext
from slack_sdk.web.async_client import AsyncWebClient

from bot.mrkdwn import strip_mention, unescape
from bot.questions import answer_question
from config.settings import Settings
from index.wiki import Wiki

ANSWERED_SUBTYPES = frozenset({None, "file_share", "thread_broadcast"})


async def handle_message(
    event: dict, context: AsyncBoltContext, client: AsyncWebClient, wiki: Wiki, settings: Settings
) -> None:
    if event.get("channel_type") != "im" or event.get("subtype") not in ANSWERED_SUBTYPES:
        return
    text = unescape(strip_mention(event.get("text") or "", context.bot_user_id))
    await answer_question(client, event["channel"], text, wiki, settings, thread_ts=event.get("thread_ts"))
