"""Answers without a mention: the questions of ``ANSWER_CHANNELS``, and the messages someone asked
sakuin about with the ``ASK_REACTION`` reaction.

The rules here are pure and decide before anything is claimed or stored:

- a message is *a person's* when a person wrote it as a new message (not an edit, a deletion or a
  bot's post), it has text, and it addresses no one: a mention of sakuin is answered as a mention
  (``app_mention``), one of someone else is meant for them;
- in an answer channel such a message is answered when it *asks* (`index.asking.vocabulary.asks`: a question
  mark, or a question's shape in Japanese or English), and then only when the wiki answers it
  confidently (`bot.conversation.conversations.Conversations.answer` with ``unasked``), under a note that says
  why sakuin spoke and how to mute it (`bot.blocks.channel_note`);
- a reaction asks when it is ``ASK_REACTION`` on a message in a channel (skin tones aside); the
  message is then read from Slack (`read_message`) and answered as a mention would be, once
  however many people add the reaction (`asked_key`, claimed like an event).
"""

from __future__ import annotations

import logging

import aiohttp
from slack_sdk.errors import SlackApiError
from slack_sdk.web.async_client import AsyncWebClient

from bot.blocks.mrkdwn import unescape
from bot.conversation.followups import FOLLOWED_SUBTYPES, addresses_anyone
from bot.errors import describe_error
from config.settings import Settings
from index import asks, fold

log = logging.getLogger(__name__)


def is_persons_message(message: dict, bot_user_id: str | None) -> bool:
    """A new message a person wrote, with text, that mentions nobody (see the module's rules)."""
    text = (message.get("text") or "").strip()
    return bool(
        message.get("subtype") in FOLLOWED_SUBTYPES
        and not message.get("bot_id")
        and not message.get("bot_profile")
        and message.get("user")
        and message.get("user") != bot_user_id
        and text
        and not addresses_anyone(text)
    )


def is_question(text: str) -> bool:
    """The message (as Slack sends it) asks a question, by the domain's reading of questions."""
    return asks(fold(unescape(text)))


def asks_in_answer_channel(event: dict, bot_user_id: str | None, settings: Settings) -> bool:
    """A person's question in one of ``ANSWER_CHANNELS`` (``ALLOWED_CHANNELS``, when set, too)."""
    channel = event.get("channel")
    return bool(
        channel in settings.answer_channels
        and (not settings.allowed_channels or channel in settings.allowed_channels)
        and event.get("channel_type") != "im"
        and is_persons_message(event, bot_user_id)
        and is_question(event.get("text") or "")
    )


def asks_by_reaction(event: dict, bot_user_id: str | None, settings: Settings) -> bool:
    """``ASK_REACTION`` added to a message in a channel that is not the bot's own."""
    item = event.get("item") or {}
    reaction = str(event.get("reaction") or "").split("::")[0]
    return bool(
        settings.ask_reaction
        and reaction == settings.ask_reaction
        and item.get("type") == "message"
        and item.get("ts")
        and str(item.get("channel") or "")[:1] in ("C", "G")
        and (bot_user_id is None or event.get("item_user") != bot_user_id)
    )


def asked_key(channel: str, ts: str) -> str:
    """The claim a message asked about by reaction is answered under: once, whoever reacts."""
    return f"asked:{channel}:{ts}"


async def read_message(client: AsyncWebClient, channel: str, ts: str) -> dict | None:
    """The message ``ts`` of ``channel``: a channel message through ``conversations.history``
    (limited to that ``ts``), a thread reply through ``conversations.replies``; None when Slack
    does not give it (deleted, not readable: the log says why)."""
    try:
        history = await client.conversations_history(
            channel=channel, latest=ts, oldest=ts, inclusive=True, limit=1
        )
        found = _with_ts(history.get("messages"), ts)
        if found is None:
            replies = await client.conversations_replies(
                channel=channel, ts=ts, latest=ts, oldest=ts, inclusive=True, limit=2
            )
            found = _with_ts(replies.get("messages"), ts)
    except (SlackApiError, aiohttp.ClientError, TimeoutError) as error:
        log.warning("cannot read the message %s in %s to answer it: %s", ts, channel, describe_error(error))
        return None
    if found is None:
        log.info("the message %s in %s is gone: not answered", ts, channel)
    return found


def _with_ts(messages: object, ts: str) -> dict | None:
    if not isinstance(messages, list):
        return None
    return next((m for m in messages if isinstance(m, dict) and m.get("ts") == ts), None)
