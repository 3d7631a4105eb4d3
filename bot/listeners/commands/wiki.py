"""``/wiki QUERY``, ``/wiki help`` and ``/wiki digest [YYYY-MM-DD]``: acknowledged at once, answered
privately through ``response_url`` in the user's language."""

from __future__ import annotations

import asyncio
from datetime import date

from slack_bolt.context.ack.async_ack import AsyncAck
from slack_bolt.context.respond.async_respond import AsyncRespond
from slack_sdk.web.async_client import AsyncWebClient

from bot.blocks.notices import bad_day_blocks, more_messages_blocks
from bot.delivery import respond_privately
from bot.digest import preview_digest
from bot.i18n import _, use_language
from bot.mrkdwn import unescape
from bot.replies import DIGEST_WORD, Reply, not_ready_reply, reply_for_text
from bot.user_locale import UserLanguages
from config.settings import Settings
from index.wiki import IndexNotReady, Wiki

MAX_RESPONSES = 5
"""A response_url takes about five posts; a longer digest preview ends with a pointer to the CLI."""


async def handle_wiki_command(
    ack: AsyncAck,
    command: dict,
    respond: AsyncRespond,
    client: AsyncWebClient,
    wiki: Wiki,
    settings: Settings,
    languages: UserLanguages,
) -> None:
    await ack()
    text = unescape(command.get("text") or "").strip()
    word, _space, rest = text.partition(" ")
    with use_language(await languages.language(client, command.get("user_id"))):
        if word.lower() == DIGEST_WORD:
            for reply in await digest_preview(rest.strip(), wiki, settings):
                await respond_privately(respond, reply)
            return
        reply = await asyncio.to_thread(reply_for_text, f"{settings.wiki_command} {text}", wiki, settings)
        await respond_privately(respond, reply)


async def digest_preview(day_text: str, wiki: Wiki, settings: Settings) -> list[Reply]:
    """The digest of a day (default: yesterday) as it would be posted, at most `MAX_RESPONSES` messages."""
    try:
        day = date.fromisoformat(day_text) if day_text else None
    except ValueError:
        return [
            Reply(
                _("Expected a date such as 2026-01-31"),
                tuple(bad_day_blocks(day_text, settings.wiki_command)),
            )
        ]
    try:
        replies = await preview_digest(settings, wiki, day)
    except IndexNotReady:
        return [not_ready_reply()]
    if len(replies) <= MAX_RESPONSES:
        return replies
    shown = replies[: MAX_RESPONSES - 1]
    left = len(replies) - len(shown)
    more = Reply(_("{count} more digest messages").format(count=left), tuple(more_messages_blocks(left)))
    return [*shown, more]
