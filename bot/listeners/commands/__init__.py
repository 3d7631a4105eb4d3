"""Slash commands: the names come from Settings (``ENTITY_COMMAND``, ``WIKI_COMMAND``)."""

from __future__ import annotations

from slack_bolt.app.async_app import AsyncApp

from bot.listeners.commands.entity import handle_entity_command
from bot.listeners.commands.wiki import handle_wiki_command
from config.settings import Settings


def register(app: AsyncApp, settings: Settings) -> None:
    app.command(settings.entity_command)(handle_entity_command)
    app.command(settings.wiki_command)(handle_wiki_command)
