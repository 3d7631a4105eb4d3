"""👍/👎 on an answer: one vote per user and answer, a second click changes it; a 👎 offers the
one who voted to ask the wiki to cover the question (bot/blocks/inbox.py)."""

from __future__ import annotations

import logging

from slack_bolt.context.ack.async_ack import AsyncAck
from slack_sdk.web.async_client import AsyncWebClient

from bot.blocks.controls import read_feedback_value
from bot.blocks.inbox import offer_reply
from bot.i18n import use_language
from bot.slack.delivery import tell_user
from bot.slack.user_locale import UserLanguages
from bot.state.store import AsyncStateStore

log = logging.getLogger(__name__)


async def handle_feedback(
    ack: AsyncAck,
    action: dict,
    body: dict,
    state: AsyncStateStore,
    client: AsyncWebClient,
    languages: UserLanguages,
) -> None:
    await ack()
    value = read_feedback_value(action.get("value") or "")
    container = body.get("container") or {}
    channel = container.get("channel_id") or (body.get("channel") or {}).get("id")
    message_ts = container.get("message_ts") or (body.get("message") or {}).get("ts")
    user = (body.get("user") or {}).get("id")
    if value is None or not (channel and message_ts and user):
        log.warning("feedback click without a vote, a message or a user: ignored")
        return
    await state.record_vote(channel, message_ts, user, value.question, value.pages, value.vote)
    if value.vote == "down":
        thread_ts = (body.get("message") or {}).get("thread_ts") or container.get("thread_ts")
        with use_language(await languages.language(client, user)):
            offer = offer_reply(value.question, thread_ts, message_ts)
        await tell_user(client, channel, user, offer, thread_ts=thread_ts or message_ts)
