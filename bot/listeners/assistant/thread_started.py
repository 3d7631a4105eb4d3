"""A user opened a new assistant thread: offer prompts drawn from the wiki, in the user's language."""

from __future__ import annotations

from slack_bolt.context.set_suggested_prompts.async_set_suggested_prompts import AsyncSetSuggestedPrompts
from slack_sdk.web.async_client import AsyncWebClient

from bot.answering.queue import AnswerQueue
from bot.conversation.assistant import PROMPTS_TITLE, suggested_prompts
from bot.i18n import _, use_language
from bot.slack.user_locale import UserLanguages
from config.settings import Settings
from index import Wiki


async def handle_thread_started(
    set_suggested_prompts: AsyncSetSuggestedPrompts,
    payload: dict,
    client: AsyncWebClient,
    wiki: Wiki,
    settings: Settings,
    languages: UserLanguages,
    answers: AnswerQueue,
) -> None:
    user_id = (payload.get("assistant_thread") or {}).get("user_id")
    with use_language(await languages.language(client, user_id)):
        prompts = await answers.run(suggested_prompts, wiki, settings)
        await set_suggested_prompts(prompts=prompts, title=_(PROMPTS_TITLE))
