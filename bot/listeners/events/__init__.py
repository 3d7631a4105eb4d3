"""Events API: mentions, direct messages, thread follow-ups, the Home tab and shared wiki links."""

from __future__ import annotations

from slack_bolt.app.async_app import AsyncApp

from bot.listeners.events.app_home_opened import handle_app_home_opened
from bot.listeners.events.app_mention import handle_app_mention
from bot.listeners.events.link_shared import handle_link_shared
from bot.listeners.events.message_im import handle_message
from bot.listeners.events.message_thread import handle_thread_message


async def is_direct_message(event: dict) -> bool:
    return event.get("channel_type") == "im"


def register(app: AsyncApp) -> None:
    app.event("app_mention")(handle_app_mention)
    # Bolt runs the first listener that matches: DMs first, every other message (Bolt would answer
    # an unmatched event with 404) to the thread listener.
    app.event("message", matchers=[is_direct_message])(handle_message)
    app.event("message")(handle_thread_message)
    app.event("app_home_opened")(handle_app_home_opened)
    app.event("link_shared")(handle_link_shared)
