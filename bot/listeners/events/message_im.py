"""Direct messages to the bot: answered in the DM (in the thread when the question is in one).

Every ``message`` event comes here (Bolt would answer unmatched events with 404); only new
messages written by a person in a DM are answered.
"""

from __future__ import annotations

from slack_bolt.context.async_context import AsyncBoltContext
from slack_sdk.web.async_client import AsyncWebClient

from bot.answer_queue import AnswerQueue
from bot.delivery import BUSY, tell_user
from bot.mrkdwn import strip_mention, unescape
from bot.questions import answer_question
from config.settings import Settings
from index.wiki import Wiki

ANSWERED_SUBTYPES = frozenset({None, "file_share", "thread_broadcast"})


async def handle_message(
    event: dict,
    context: AsyncBoltContext,
    client: AsyncWebClient,
    wiki: Wiki,
    settings: Settings,
    answers: AnswerQueue,
) -> None:
    if event.get("channel_type") != "im" or event.get("subtype") not in ANSWERED_SUBTYPES:
        return
    text = unescape(strip_mention(event.get("text") or "", context.bot_user_id))
    channel, thread_ts = event["channel"], event.get("thread_ts")
    busy = lambda: tell_user(client, channel, event.get("user"), BUSY, thread_ts=thread_ts)  # noqa: E731
    await answer_question(client, channel, text, wiki, settings, answers, thread_ts=thread_ts, on_busy=busy)
