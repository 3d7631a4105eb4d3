""" "Save to wiki inbox" (a message shortcut): the message's thread becomes a request in the wiki's
inbox (bot/loop/inbox.py): its messages with their authors' display names and times; its first message
is the question. Confirmed to the one user who used it, in their language."""

from __future__ import annotations

from collections.abc import Callable

from slack_bolt.context.ack.async_ack import AsyncAck
from slack_bolt.context.respond.async_respond import AsyncRespond
from slack_sdk.web.async_client import AsyncWebClient

from bot.answering.queue import AnswerQueue
from bot.blocks.inbox import filed_reply, not_filed_reply
from bot.blocks.reply import Reply
from bot.i18n import Language, language_for_question, use_language
from bot.loop.inbox import QUESTION_CHARS, Asked, Inbox, closest_pages
from bot.loop.inbox_thread import permalink_of, read_thread
from bot.slack.delivery import respond_privately, tell_user
from bot.slack.user_locale import UserLanguages
from config.settings import Settings
from index import Wiki


async def handle_save_to_inbox(
    ack: AsyncAck,
    shortcut: dict,
    client: AsyncWebClient,
    respond: AsyncRespond,
    wiki: Wiki,
    settings: Settings,
    inbox: Inbox,
    answers: AnswerQueue,
    languages: UserLanguages,
) -> None:
    await ack()
    channel = (shortcut.get("channel") or {}).get("id")
    message = shortcut.get("message") or {}
    user = (shortcut.get("user") or {}).get("id")
    root = message.get("thread_ts") or message.get("ts") or shortcut.get("message_ts")
    language = await languages.language(client, user)
    if not channel or not root:
        await _confirm(respond, client, channel, user, root, not_filed_reply, language)
        return
    thread = await read_thread(client, channel, root, message)
    question = " ".join(thread[0].text.split())[:QUESTION_CHARS] if thread else ""
    if not question:
        await _confirm(respond, client, channel, user, root, not_filed_reply, language)
        return
    asked = Asked(
        kind="thread",
        question=question,
        channel=channel,
        channel_name=(shortcut.get("channel") or {}).get("name"),
        message_ts=root,
        thread_ts=root,
        permalink=await permalink_of(client, channel, root),
        closest=await answers.run(closest_pages, wiki, question),
        lang=language_for_question(question, settings.ui_language),
        thread=thread,
    )
    request, created = await inbox.file(asked)

    def confirmation() -> Reply:
        return filed_reply(
            request.question, request.file, inbox.where, created=created, landed=request.pushed
        )

    await _confirm(respond, client, channel, user, root, confirmation, language)


async def _confirm(
    respond: AsyncRespond,
    client: AsyncWebClient,
    channel: str | None,
    user: str | None,
    thread_ts: str | None,
    compose: Callable[[], Reply],
    language: Language,
) -> None:
    """Privately: through the shortcut's response_url, else as a message only the user sees."""
    with use_language(language):
        reply = compose()
    if respond.response_url:
        await respond_privately(respond, reply)
    elif channel:
        await tell_user(client, channel, user, reply, thread_ts=thread_ts)
