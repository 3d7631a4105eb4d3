"""Slack's assistant pane (``AGENT_EXPERIENCE=assistant``, the legacy split view), through bolt's
`AsyncAssistant` middleware.

A new assistant thread gets suggested prompts; a message in it gets a status line while the wiki
is searched, a title for the thread, and the answer a mention would get. The channel the user is
looking at (the thread context) is not used, so context changes are only acknowledged.
"""

from __future__ import annotations

import logging

from slack_bolt.app.async_app import AsyncApp
from slack_bolt.middleware.assistant.async_assistant import AsyncAssistant

from bot.listeners.assistant.thread_started import handle_thread_started
from bot.listeners.assistant.user_message import handle_user_message
from bot.listeners.events.once import once_per_event
from config.settings import Settings


async def ignore_context_change() -> None:
    """Acknowledged only: bolt's default would store the context in message metadata."""


def register(app: AsyncApp, settings: Settings) -> None:
    if settings.experience != "assistant":
        return
    assistant = AsyncAssistant(logger=logging.getLogger("bot.bolt"))
    assistant.thread_started(once_per_event(handle_thread_started))
    assistant.thread_context_changed(ignore_context_change)
    assistant.user_message(once_per_event(handle_user_message))
    app.assistant(assistant)
