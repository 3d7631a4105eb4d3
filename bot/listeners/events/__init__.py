"""Events API: mentions, direct messages, the Home tab and shared wiki links."""

from __future__ import annotations

from slack_bolt.app.async_app import AsyncApp

from bot.listeners.events.app_home_opened import handle_app_home_opened
from bot.listeners.events.app_mention import handle_app_mention
from bot.listeners.events.link_shared import handle_link_shared
from bot.listeners.events.message_im import handle_message
from bot.listeners.events.once import once_per_event


def register(app: AsyncApp) -> None:
    app.event("app_mention")(once_per_event(handle_app_mention))
    app.event("message")(once_per_event(handle_message))
    app.event("app_home_opened")(once_per_event(handle_app_home_opened))
    app.event("link_shared")(once_per_event(handle_link_shared))
