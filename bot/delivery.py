"""Delivering a `Reply` to Slack: privately through ``response_url``, publicly, or as a message.

Slack answers a ``response_url`` post with an HTTP status instead of raising; a failed delivery
(expired URL, too many uses) is logged here with what was being delivered.
"""

from __future__ import annotations

import logging

from slack_bolt.context.respond.async_respond import AsyncRespond
from slack_sdk.web.async_client import AsyncWebClient

from bot.replies import Reply

log = logging.getLogger(__name__)


async def respond_privately(respond: AsyncRespond, reply: Reply, *, replace: bool = False) -> None:
    """An ephemeral answer (only the user sees it); ``replace`` swaps the message that was clicked."""
    await _respond(respond, reply, "ephemeral", replace=replace)


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
        unfurl_links=False,
        unfurl_media=False,
    )
    return response.get("ts")
