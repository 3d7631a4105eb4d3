""" "Mute for me" under an answer nobody mentioned sakuin for, and "Unmute" to undo it.

The clicking user's questions in that channel are no longer answered without a mention; only they
are told, privately, with the way back.
"""

from __future__ import annotations

import logging

from slack_bolt.context.ack.async_ack import AsyncAck
from slack_bolt.context.respond.async_respond import AsyncRespond
from slack_sdk.web.async_client import AsyncWebClient

from bot.blocks.channel_note import MUTED_TEXT, UNMUTED_TEXT, muted_blocks, unmuted_blocks
from bot.blocks.reply import Reply
from bot.i18n import _, use_language
from bot.slack.delivery import respond_privately
from bot.slack.user_locale import UserLanguages
from bot.state.store import AsyncStateStore

log = logging.getLogger(__name__)


async def handle_mute_channel(
    ack: AsyncAck,
    action: dict,
    body: dict,
    client: AsyncWebClient,
    respond: AsyncRespond,
    state: AsyncStateStore,
    languages: UserLanguages,
) -> None:
    await _set_muted(True, ack, action, body, client, respond, state, languages)


async def handle_unmute_channel(
    ack: AsyncAck,
    action: dict,
    body: dict,
    client: AsyncWebClient,
    respond: AsyncRespond,
    state: AsyncStateStore,
    languages: UserLanguages,
) -> None:
    await _set_muted(False, ack, action, body, client, respond, state, languages)


async def _set_muted(
    muted: bool,
    ack: AsyncAck,
    action: dict,
    body: dict,
    client: AsyncWebClient,
    respond: AsyncRespond,
    state: AsyncStateStore,
    languages: UserLanguages,
) -> None:
    """Mute (or unmute) the channel for the user who clicked, and tell only them."""
    await ack()
    channel, user = _clicked(action, body)
    if not channel or not user:
        log.warning("%s click without a channel or a user: ignored", "mute" if muted else "unmute")
        return
    if muted:
        await state.mute_channel(channel, user)
    else:
        await state.unmute_channel(channel, user)
    with use_language(await languages.language(client, user)):
        if muted:
            reply = Reply(_(MUTED_TEXT), tuple(muted_blocks(channel)))
        else:
            reply = Reply(_(UNMUTED_TEXT), tuple(unmuted_blocks()))
    await respond_privately(respond, reply, replace=not muted)


def _clicked(action: dict, body: dict) -> tuple[str | None, str | None]:
    """The channel it was clicked in (else the one the button names) and who clicked."""
    container = body.get("container") or {}
    channel = container.get("channel_id") or (body.get("channel") or {}).get("id") or action.get("value")
    return channel, (body.get("user") or {}).get("id")
