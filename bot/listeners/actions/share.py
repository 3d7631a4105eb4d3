"""Share to channel: post a private answer for everyone (in the sharer's language), then remove the
private copy."""

from __future__ import annotations

import re
from functools import partial

from slack_bolt.context.ack.async_ack import AsyncAck
from slack_bolt.context.respond.async_respond import AsyncRespond
from slack_sdk.web.async_client import AsyncWebClient

from bot.answering.queue import AnswerQueue
from bot.answering.replies import shared_reply
from bot.blocks.elements import context
from bot.blocks.reply import Reply
from bot.i18n import _, use_language
from bot.slack.delivery import delete_original, respond_busy, respond_publicly
from bot.slack.user_locale import UserLanguages
from config.settings import Settings
from index import Wiki

USER_ID = re.compile(r"^[UW][A-Z0-9]{2,}$")


async def handle_share(
    ack: AsyncAck,
    action: dict,
    body: dict,
    respond: AsyncRespond,
    client: AsyncWebClient,
    wiki: Wiki,
    settings: Settings,
    languages: UserLanguages,
    answers: AnswerQueue,
) -> None:
    await ack()
    user_id = (body.get("user") or {}).get("id")
    with use_language(await languages.language(client, user_id)):
        busy = partial(respond_busy, respond)
        reply = await answers.run(shared_reply, action.get("value") or "", wiki, settings, on_busy=busy)
        await respond_publicly(respond, with_sharer(reply, user_id))
    if (body.get("container") or {}).get("is_ephemeral"):
        await delete_original(respond)


def with_sharer(reply: Reply, user_id: str | None) -> Reply:
    """Say who shared the answer (the one deliberate mention we build, from Slack's own user id)."""
    if not user_id or not USER_ID.match(user_id):
        return reply
    return Reply(reply.text, (*reply.blocks, context(_("Shared by {user}").format(user=f"<@{user_id}>"))))
