""" "Stop following this thread": sakuin no longer answers there without a mention.

The thread is told once, then the button leaves the answer (the message is updated without it).
"""

from __future__ import annotations

from slack_bolt.context.ack.async_ack import AsyncAck
from slack_sdk.web.async_client import AsyncWebClient

from bot.blocks.controls import FOLLOW_BLOCK_ID, without_block
from bot.blocks.elements import MAX_MESSAGE_TEXT
from bot.blocks.reply import Reply
from bot.blocks.visible import visible_text
from bot.conversation.conversations import Conversations
from bot.i18n import use_language
from bot.slack.delivery import update_reply
from bot.slack.user_locale import UserLanguages


async def handle_stop_following(
    ack: AsyncAck,
    action: dict,
    body: dict,
    client: AsyncWebClient,
    conversations: Conversations,
    languages: UserLanguages,
) -> None:
    await ack()
    channel = (body.get("container") or {}).get("channel_id") or (body.get("channel") or {}).get("id")
    thread_ts = action.get("value")
    if not channel or not thread_ts:
        return
    with use_language(await languages.language(client, (body.get("user") or {}).get("id"))):
        await conversations.stop(client, channel, thread_ts)
    message = body.get("message") or {}
    if message.get("ts") and message.get("blocks"):
        text = message.get("text") or visible_text(message["blocks"])[:MAX_MESSAGE_TEXT]
        await update_reply(
            client,
            channel,
            message["ts"],
            Reply(text, tuple(without_block(message["blocks"], FOLLOW_BLOCK_ID))),
        )
