"""Delivering a `Reply` to Slack: privately through ``response_url``, publicly, as a message (posted,
or updated in place), or as a notice for the one user who asked. Every ``chat.*`` call for a
`Reply` is here.

Slack answers a ``response_url`` post with an HTTP status instead of raising; a failed delivery
(expired URL, too many uses) is logged here with what was being delivered.
"""

from __future__ import annotations

import logging

from slack_bolt.context.ack.async_ack import AsyncAck
from slack_bolt.context.respond.async_respond import AsyncRespond
from slack_sdk.web.async_client import AsyncWebClient

from bot.blocks.notices import busy_reply
from bot.blocks.reply import Reply
from bot.i18n import Language, use_language

log = logging.getLogger(__name__)


async def acknowledge_command(ack: AsyncAck, busy: bool, language: Language) -> None:
    """Acknowledge a slash command; when the answer queue is ``busy`` (full), the ack itself carries
    `busy_reply` in ``language`` (Slack shows a command's ack body to the user at once, and it costs
    none of the five posts a ``response_url`` allows)."""
    if busy:
        with use_language(language):
            busy = busy_reply()
        await ack(text=busy.text, blocks=list(busy.blocks))
    else:
        await ack()


async def respond_privately(respond: AsyncRespond, reply: Reply, *, replace: bool = False) -> None:
    """An ephemeral answer (only the user sees it); ``replace`` swaps the message that was clicked."""
    await _respond(respond, reply, "ephemeral", replace=replace)


async def respond_busy(respond: AsyncRespond) -> None:
    """The answer queue's notice for a click: "busy, answering in a moment", privately."""
    await respond_privately(respond, busy_reply())


async def respond_publicly(respond: AsyncRespond, reply: Reply) -> None:
    await _respond(respond, reply, "in_channel", replace=False)


async def _respond(respond: AsyncRespond, reply: Reply, response_type: str, *, replace: bool) -> None:
    response = await respond(
        text=reply.text,
        blocks=list(reply.blocks),
        response_type=response_type,
        replace_original=replace,
        unfurl_links=False,
        unfurl_media=False,
    )
    if response.status_code != 200:
        log.warning(
            "response_url rejected an %s answer: HTTP %s %s",
            response_type,
            response.status_code,
            response.body,
        )


async def delete_original(respond: AsyncRespond) -> None:
    response = await respond(delete_original=True)
    if response.status_code != 200:
        log.warning("response_url did not delete the private answer: HTTP %s", response.status_code)


async def post_reply(
    client: AsyncWebClient, channel: str, reply: Reply, *, thread_ts: str | None = None
) -> str | None:
    """A message in ``channel`` (in the thread ``thread_ts`` when given); our links are not unfurled.

    Returns the message's ``ts``, by which it can be updated.
    """
    response = await client.chat_postMessage(
        channel=channel,
        thread_ts=thread_ts,
        text=reply.text,
        blocks=list(reply.blocks),
        metadata=reply.metadata,
        unfurl_links=False,
        unfurl_media=False,
    )
    return response.get("ts")


async def update_reply(client: AsyncWebClient, channel: str, ts: str, reply: Reply) -> None:
    """The message ``ts`` rewritten as ``reply`` (Slack's errors are the caller's to handle)."""
    await client.chat_update(
        channel=channel, ts=ts, text=reply.text, blocks=list(reply.blocks), metadata=reply.metadata
    )


async def tell_user(
    client: AsyncWebClient, channel: str, user: str | None, reply: Reply, *, thread_ts: str | None = None
) -> None:
    """A notice for the one user who asked (busy, sorry): a message in their DM with the bot, or
    in a channel a message only they see, in the thread they asked in."""
    if channel.startswith("D"):
        await client.chat_postMessage(
            channel=channel, thread_ts=thread_ts, text=reply.text, blocks=list(reply.blocks)
        )
    elif user:
        await client.chat_postEphemeral(
            channel=channel, user=user, thread_ts=thread_ts, text=reply.text, blocks=list(reply.blocks)
        )
