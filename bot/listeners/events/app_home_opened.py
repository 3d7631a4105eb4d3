"""The Home tab: published each time a user opens it, with the recent sources and the usage, in the
user's language."""

from __future__ import annotations

import asyncio

from slack_sdk.web.async_client import AsyncWebClient

from bot.blocks.home import home_view
from bot.i18n import use_language
from bot.user_locale import UserLanguages
from config.settings import Settings
from index.model import DigestItem
from index.wiki import IndexNotReady, Wiki

RECENT_SOURCES = 10


async def handle_app_home_opened(
    event: dict, client: AsyncWebClient, wiki: Wiki, settings: Settings, languages: UserLanguages
) -> None:
    if event.get("tab") != "home":
        return
    recent = await asyncio.to_thread(recent_sources, wiki)
    state = await asyncio.to_thread(wiki.state)
    with use_language(await languages.language(client, event.get("user"))):
        view = home_view(recent, state, settings.entity_command, settings.wiki_command)
    await client.views_publish(user_id=event["user"], view=view)


def recent_sources(wiki: Wiki) -> tuple[DigestItem, ...]:
    try:
        return wiki.recent_sources(RECENT_SOURCES)
    except IndexNotReady:
        return ()
