"""A Slack thread as the wiki's inbox keeps it: each message's author by display name (never a user
id), its time and its text as plain text, mentions written as ``@name``."""

from __future__ import annotations

import logging
import re
from collections.abc import Sequence

import aiohttp
from slack_sdk.errors import SlackApiError
from slack_sdk.web.async_client import AsyncWebClient

from bot.blocks.mrkdwn import unescape
from bot.loop.inbox import ThreadMessage

log = logging.getLogger("sakuin.inbox")

MAX_MESSAGES = 200
SLACK_FAILURES = (SlackApiError, aiohttp.ClientError, TimeoutError)
SOMEONE = "someone"
"""The name written for an author Slack would not name (the file never holds an id)."""
_USER = re.compile(r"<@([UW][A-Z0-9]+)(?:\|[^>]*)?>")
_CHANNEL = re.compile(r"<#[CGD][A-Z0-9]+\|([^>]*)>|<#[CGD][A-Z0-9]+>")
_SPECIAL = re.compile(r"<!(here|channel|everyone)(?:\|[^>]*)?>|<!subteam\^[A-Z0-9]+(?:\|([^>]*))?>|<![^>]*>")
_LINK = re.compile(r"<((?:https?|mailto):[^|>]+)(?:\|([^>]*))?>")


def plain_text(text: str, names: dict[str, str]) -> str:
    """Slack's message text as plain text: ``<@U1>`` as ``@name`` (``names``, else "someone"),
    channels as ``#name``, links as ``label (url)``, Slack's escaping undone."""
    text = _USER.sub(lambda found: "@" + names.get(found[1], SOMEONE), text)
    text = _CHANNEL.sub(lambda found: "#" + (found[1] or "channel"), text)
    text = _SPECIAL.sub(lambda found: "@" + (found[1] or found[2] or "group").lstrip("@"), text)
    text = _LINK.sub(lambda found: f"{found[2]} ({found[1]})" if found[2] else found[1], text)
    return unescape(text)


async def read_thread(
    client: AsyncWebClient, channel: str, thread_ts: str, fallback: dict
) -> tuple[ThreadMessage, ...]:
    """The thread's messages (at most `MAX_MESSAGES`), or only ``fallback`` (the message the
    shortcut was used on) when Slack does not give the thread (the bot is not in the channel)."""
    try:
        response = await client.conversations_replies(channel=channel, ts=thread_ts, limit=MAX_MESSAGES)
        messages: Sequence[dict] = response.get("messages") or [fallback]
    except SLACK_FAILURES as error:
        log.info(
            "could not read the thread %s in %s (%s); saving the message alone", thread_ts, channel, error
        )
        messages = [fallback]
    names = await display_names(client, messages)
    return tuple(
        ThreadMessage(
            author_of(message, names),
            float(message.get("ts") or 0),
            plain_text(message.get("text") or "", names),
        )
        for message in messages[:MAX_MESSAGES]
        if (message.get("text") or "").strip()
    )


def author_of(message: dict, names: dict[str, str]) -> str:
    user = message.get("user")
    if user:
        return names.get(user, SOMEONE)
    profile = message.get("bot_profile") or {}
    return profile.get("name") or message.get("username") or SOMEONE


async def display_names(client: AsyncWebClient, messages: Sequence[dict]) -> dict[str, str]:
    """Display names of the thread's authors and of the people it mentions (``users.info``)."""
    users = {message["user"] for message in messages if message.get("user")}
    for message in messages:
        users.update(_USER.findall(message.get("text") or ""))
    names: dict[str, str] = {}
    for user in sorted(users):
        try:
            found = (await client.users_info(user=user)).get("user") or {}
        except SLACK_FAILURES as error:
            log.info("could not read the name of a thread's author: %s", error)
            continue
        profile = found.get("profile") or {}
        name = (
            profile.get("display_name")
            or profile.get("real_name")
            or found.get("real_name")
            or found.get("name")
        )
        if name:
            names[user] = name
    return names


async def permalink_of(client: AsyncWebClient, channel: str, ts: str) -> str | None:
    """The message's link (``chat.getPermalink``), or None when Slack does not give it."""
    try:
        response = await client.chat_getPermalink(channel=channel, message_ts=ts)
    except SLACK_FAILURES as error:
        log.info("no permalink for %s in %s: %s", ts, channel, error)
        return None
    link = response.get("permalink")
    return link if isinstance(link, str) and link.startswith("https://") else None
