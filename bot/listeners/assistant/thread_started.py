"""A user opened a new assistant thread: offer prompts drawn from the wiki."""

from __future__ import annotations

import asyncio

from slack_bolt.context.set_suggested_prompts.async_set_suggested_prompts import AsyncSetSuggestedPrompts

from bot.assistant import PROMPTS_TITLE, suggested_prompts
from config.settings import Settings
from index.wiki import Wiki


async def handle_thread_started(
    set_suggested_prompts: AsyncSetSuggestedPrompts, wiki: Wiki, settings: Settings
) -> None:
    prompts = await asyncio.to_thread(suggested_prompts, wiki, settings)
    await set_suggested_prompts(prompts=prompts, title=PROMPTS_TITLE)
