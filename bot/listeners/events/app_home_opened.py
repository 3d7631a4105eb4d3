"""The Home tab, and the Messages tab of an agent experience, in the user's language.

The Home tab is published each time a user opens it: the recent sources, the usage, last week's
feedback (the share of 👍 and the questions the wiki could not answer), and the pages watched in the
channels the user is in (`bot.loop.watches`). With an agent
experience (``AGENT_EXPERIENCE``), opening the Messages tab shows the suggested prompts at its top
(`bot.conversation.assistant`'s prompts, drawn from the wiki; no thread needed).
"""

from __future__ import annotations

import time

from slack_sdk.web.async_client import AsyncWebClient

from bot.answering.queue import AnswerQueue
from bot.blocks.home import home_view
from bot.conversation.assistant import PROMPTS_TITLE, suggested_prompts
from bot.i18n import _, use_language
from bot.loop.watches import watched_in_channels_of
from bot.slack.user_locale import UserLanguages
from bot.state.feedback import summarize, summary_since
from bot.state.store import AsyncStateStore
from config.settings import Settings
from index import DigestItem, IndexNotReady, IndexState, Wiki

RECENT_SOURCES = 10


async def shows_tab(event: dict, settings: Settings) -> bool:
    """The Home tab, or the Messages tab with an agent experience on; no other tab is answered."""
    if event.get("tab") == "messages":
        return settings.experience != "off" and bool(event.get("channel"))
    return event.get("tab") == "home"


async def handle_app_home_opened(
    event: dict,
    client: AsyncWebClient,
    wiki: Wiki,
    settings: Settings,
    state: AsyncStateStore,
    languages: UserLanguages,
    answers: AnswerQueue,
) -> None:
    if event.get("tab") == "messages":
        with use_language(await languages.language(client, event.get("user"))):
            prompts = await answers.run(suggested_prompts, wiki, settings)
            await client.assistant_threads_setSuggestedPrompts(
                channel_id=event["channel"], title=_(PROMPTS_TITLE), prompts=prompts
            )
        return
    recent, index = await answers.run(home_contents, wiki)
    since = summary_since(time.time())
    feedback = summarize(await state.votes(since), await state.unanswered(since))
    watches = await watched_in_channels_of(client, state, event["user"])
    with use_language(await languages.language(client, event.get("user"))):
        view = home_view(recent, index, settings.entity_command, settings.wiki_command, feedback, watches)
    await client.views_publish(user_id=event["user"], view=view)


def home_contents(wiki: Wiki) -> tuple[tuple[DigestItem, ...], IndexState]:
    return recent_sources(wiki), wiki.state()


def recent_sources(wiki: Wiki) -> tuple[DigestItem, ...]:
    try:
        return wiki.recent_sources(RECENT_SOURCES)
    except IndexNotReady:
        return ()
