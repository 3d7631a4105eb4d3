"""Events API: mentions, direct messages, thread follow-ups, the Home tab and shared wiki links."""

from __future__ import annotations

from slack_bolt.app.async_app import AsyncApp
from slack_bolt.context.async_context import AsyncBoltContext

from bot.followups import Kind, classify
from bot.listeners.events.app_home_opened import handle_app_home_opened
from bot.listeners.events.app_mention import handle_app_mention
from bot.listeners.events.link_shared import handle_link_shared
from bot.listeners.events.message_im import handle_message
from bot.listeners.events.message_thread import handle_thread_message
from bot.listeners.events.once import once_per_event


async def is_direct_message(event: dict) -> bool:
    return event.get("channel_type") == "im"


async def may_be_follow_up(event: dict, context: AsyncBoltContext) -> bool:
    return classify(event, context.bot_user_id).kind is not Kind.IGNORE


async def ignore_message() -> None:
    """Every other channel message: acknowledged (Bolt answers an unmatched event with 404), and
    not claimed, so plain channel chatter costs no write to the state store."""


def register(app: AsyncApp) -> None:
    app.event("app_mention")(once_per_event(handle_app_mention))
    # Bolt runs the first listener that matches.
    app.event("message", matchers=[is_direct_message])(once_per_event(handle_message))
    app.event("message", matchers=[may_be_follow_up])(once_per_event(handle_thread_message))
    app.event("message")(ignore_message)
    app.event("app_home_opened")(once_per_event(handle_app_home_opened))
    app.event("link_shared")(once_per_event(handle_link_shared))
