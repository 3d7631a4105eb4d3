""" "Ask the wiki to cover this": the question becomes a request in the wiki's inbox (bot/loop/inbox.py),
confirmed to the one user who clicked, in their language."""

from __future__ import annotations

import logging

from slack_bolt.context.ack.async_ack import AsyncAck
from slack_sdk.web.async_client import AsyncWebClient

from bot.answering.queue import AnswerQueue
from bot.blocks.inbox import filed_reply, read_ask_value
from bot.i18n import language_for_question, use_language
from bot.loop.inbox import Asked, Inbox, closest_pages
from bot.loop.inbox_thread import permalink_of
from bot.slack.delivery import tell_user
from bot.slack.user_locale import UserLanguages
from config.settings import Settings
from index import Wiki

log = logging.getLogger(__name__)


async def handle_wiki_ask(
    ack: AsyncAck,
    action: dict,
    body: dict,
    client: AsyncWebClient,
    wiki: Wiki,
    settings: Settings,
    inbox: Inbox,
    answers: AnswerQueue,
    languages: UserLanguages,
) -> None:
    await ack()
    value = read_ask_value(action.get("value") or "")
    container = body.get("container") or {}
    channel = container.get("channel_id") or (body.get("channel") or {}).get("id")
    clicked = container.get("message_ts") or (body.get("message") or {}).get("ts")
    user = (body.get("user") or {}).get("id")
    if value is None or not channel or not clicked:
        log.warning("an ask-the-wiki click without a question or a message: ignored")
        return
    message_ts = value.message_ts or clicked
    thread_ts = value.thread_ts or message_ts
    asked = Asked(
        kind="answer",
        question=value.question,
        channel=channel,
        channel_name=(body.get("channel") or {}).get("name"),
        message_ts=message_ts,
        thread_ts=thread_ts,
        permalink=await permalink_of(client, channel, thread_ts),
        closest=await answers.run(closest_pages, wiki, value.question),
        lang=language_for_question(value.question, settings.ui_language),
    )
    request, created = await inbox.file(asked)
    with use_language(await languages.language(client, user)):
        reply = filed_reply(
            request.question, request.file, inbox.where, created=created, landed=request.pushed
        )
    await tell_user(client, channel, user, reply, thread_ts=thread_ts)
