"""The Home tab: published each time a user opens it, with the recent sources and the usage."""

from __future__ import annotations

from slack_sdk.web.async_client import AsyncWebClient

from bot.answer_queue import AnswerQueue
from bot.blocks.home import home_view
from config.settings import Settings
from index.model import DigestItem, IndexState
from index.wiki import IndexNotReady, Wiki

RECENT_SOURCES = 10


async def handle_app_home_opened(
    event: dict, client: AsyncWebClient, wiki: Wiki, settings: Settings, answers: AnswerQueue
) -> None:
    if event.get("tab") != "home":
        return
    recent, state = await answers.run(home_contents, wiki)
    view = home_view(recent, state, settings.entity_command, settings.wiki_command)
    await client.views_publish(user_id=event["user"], view=view)


def home_contents(wiki: Wiki) -> tuple[tuple[DigestItem, ...], IndexState]:
    return recent_sources(wiki), wiki.state()


def recent_sources(wiki: Wiki) -> tuple[DigestItem, ...]:
    try:
        return wiki.recent_sources(RECENT_SOURCES)
    except IndexNotReady:
        return ()
