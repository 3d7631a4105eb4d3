"""Share to channel: post a private answer for everyone, then remove the private copy."""

from __future__ import annotations

import re

from slack_bolt.context.ack.async_ack import AsyncAck
from slack_bolt.context.respond.async_respond import AsyncRespond

from bot.answer_queue import AnswerQueue
from bot.blocks.elements import context
from bot.delivery import BUSY, delete_original, respond_privately, respond_publicly
from bot.replies import Reply, shared_reply
from config.settings import Settings
from index.wiki import Wiki

USER_ID = re.compile(r"^[UW][A-Z0-9]{2,}$")


async def handle_share(
    ack: AsyncAck,
    action: dict,
    body: dict,
    respond: AsyncRespond,
    wiki: Wiki,
    settings: Settings,
    answers: AnswerQueue,
) -> None:
    await ack()
    value = action.get("value") or ""
    busy = lambda: respond_privately(respond, BUSY)  # noqa: E731
    reply = await answers.run(shared_reply, value, wiki, settings, on_busy=busy)
    await respond_publicly(respond, with_sharer(reply, (body.get("user") or {}).get("id")))
    if (body.get("container") or {}).get("is_ephemeral"):
        await delete_original(respond)


def with_sharer(reply: Reply, user_id: str | None) -> Reply:
    """Say who shared the answer (the one deliberate mention we build, from Slack's own user id)."""
    if not user_id or not USER_ID.match(user_id):
        return reply
    return Reply(reply.text, (*reply.blocks, context(f"Shared by <@{user_id}>")))
