"""👍/👎 on an answer: one vote per user and answer, a second click changes it."""

from __future__ import annotations

import logging

from slack_bolt.context.ack.async_ack import AsyncAck

from bot.blocks.controls import read_feedback_value
from bot.state.store import AsyncStateStore

log = logging.getLogger(__name__)


async def handle_feedback(ack: AsyncAck, action: dict, body: dict, state: AsyncStateStore) -> None:
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
