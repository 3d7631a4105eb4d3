"""Slack listeners, one module per surface; each kind's ``register`` wires its handlers.

The assistant pane is middleware (bolt's `AsyncAssistant`): it sees assistant-thread events before
the event listeners do.
"""

from __future__ import annotations

from slack_bolt.app.async_app import AsyncApp

from bot.listeners import actions, assistant, commands, events, shortcuts
from config.settings import Settings


def register_listeners(app: AsyncApp, settings: Settings) -> None:
    commands.register(app, settings)
    events.register(app, settings)
    actions.register(app)
    shortcuts.register(app)
    assistant.register(app, settings)
