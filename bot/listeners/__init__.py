"""Slack listeners, one module per surface; each kind's ``register`` wires its handlers."""

from __future__ import annotations

from slack_bolt.app.async_app import AsyncApp

from bot.listeners import actions, commands, events
from config.settings import Settings


def register_listeners(app: AsyncApp, settings: Settings) -> None:
    commands.register(app, settings)
    events.register(app)
    actions.register(app)
