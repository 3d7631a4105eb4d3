"""Shortcuts: "Save to wiki inbox" on any message."""

from __future__ import annotations

from slack_bolt.app.async_app import AsyncApp

from bot.blocks.inbox import SAVE_TO_INBOX
from bot.listeners.shortcuts.save_to_inbox import handle_save_to_inbox


def register(app: AsyncApp) -> None:
    app.shortcut(SAVE_TO_INBOX)(handle_save_to_inbox)
