"""A question's answer posted in Slack and rewritten in place by the model: mentions, DMs,
follow-ups and the assistant pane come here (through `bot.conversation.conversations`, which
composes the answer and adds its controls) wherever the answer is not streamed into a thread
(`bot.answering.streaming`).

1. The extractive answer (`bot.answering.replies`) is posted at once.
2. When a model is configured (``LLM_BASE_URL``), that same message is rewritten in place while the
   model's answer streams in: ``chat.update`` at most every `UPDATE_INTERVAL_S`, each draft showing
   only sentences that passed the grounding check, above the extractive answer; then the final
   answer with its cited pages and "written by `model` from N wiki passages".
3. When the model fails, or its answer cites nothing that was sent, the extractive answer stays
   (and comes back, if a draft had replaced it). The user never sees an error from the model.

Slack's own streaming methods (``chat.startStream``/``appendStream``/``stopStream``) only work in a
thread: `bot.answering.streaming` uses them there, appending checked sentences only, and comes back here when
no checked sentence is ready in time (`InPlace` then rewrites the extractive answer it posted).
``chat.update`` works everywhere, in threads and channels alike.

`/entity` cards and `/wiki` results never come here: they are the wiki's own words. The model's
answer and its labels are in the question's language, as the extractive answer is (`bot.i18n`).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import replace

import aiohttp
from slack_sdk.errors import SlackClientError
from slack_sdk.web.async_client import AsyncWebClient

from bot.blocks.reply import Reply
from bot.blocks.written import draft_blocks, written_blocks, written_text
from bot.i18n import language_for_question, use_language
from bot.llm.client import WrittenAnswer, model_configured, write_answer
from bot.llm.grounding import Grounding, NumberedPassage, Sentence, passages_from
from bot.slack.delivery import post_reply, update_reply
from config.settings import Settings

log = logging.getLogger(__name__)

UPDATE_INTERVAL_S = 1.0
"""At most one draft update a second (``chat.update`` is a Tier 3 method: about 50 a minute)."""


Decorate = Callable[[Reply], Reply]
"""Adds the posting path's own controls (👍/👎, "stop following") to a version of the message."""


def as_is(reply: Reply) -> Reply:
    return reply


async def post_answer(
    client: AsyncWebClient,
    channel: str,
    reply: Reply,
    settings: Settings,
    *,
    thread_ts: str | None = None,
    decorate: Decorate = as_is,
) -> str | None:
    """Post ``reply`` (in ``thread_ts`` when given), then let the model rewrite it.

    Every version the user sees (the extractive answer, drafts, the model's answer) goes through
    ``decorate``. Returns the ``ts`` of the one message posted.
    """
    ts = await post_reply(client, channel, decorate(reply), thread_ts=thread_ts)
    if ts is not None:
        await rewrite_in_place(client, channel, ts, reply, settings, decorate=decorate)
    return ts


async def rewrite_in_place(
    client: AsyncWebClient,
    channel: str,
    ts: str,
    posted: Reply,
    settings: Settings,
    *,
    decorate: Decorate = as_is,
) -> None:
    """Rewrite the message ``ts`` (``posted``, an extractive answer) with the model's answer.

    Does nothing without a model, or for a reply that is not the answer to a question. On failure
    the message is left as ``posted`` (or put back to it, if a draft had replaced it).
    """
    passages = passages_of(posted)
    if not passages or not model_configured(settings) or posted.answer is None:
        return
    question = posted.answer.question
    with use_language(language_for_question(question, settings.ui_language)):
        message = InPlace(client, channel, ts, posted, passages, settings.llm_model or "", decorate)
        written = await write_answer(settings, question, passages, on_draft=message.draft)
        await message.finish(written)


async def final_reply(reply: Reply, settings: Settings) -> Reply:
    """What the message ends as (``sakuin ask``): the model's answer, or ``reply`` when there is none."""
    passages = passages_of(reply)
    if not passages or not model_configured(settings) or reply.answer is None:
        return reply
    question = reply.answer.question
    with use_language(language_for_question(question, settings.ui_language)):
        written = await write_answer(settings, question, passages)
        return reply if written is None else written_reply(written)


def passages_of(reply: Reply) -> tuple[NumberedPassage, ...]:
    """The passages a model may write the reply's answer from: none for cards, help or notices."""
    return passages_from(reply.answer) if reply.answer is not None else ()


def written_reply(written: WrittenAnswer) -> Reply:
    blocks = written_blocks(written.grounding, written.passages, written.model)
    return Reply(written_text(written.grounding), tuple(blocks))


class InPlace:
    """The posted message, rewritten by ``chat.update``: throttled drafts, then the final answer."""

    def __init__(
        self,
        client: AsyncWebClient,
        channel: str,
        ts: str,
        extractive: Reply,
        passages: tuple[NumberedPassage, ...],
        model: str,
        decorate: Decorate,
    ) -> None:
        self.client, self.channel, self.ts = client, channel, ts
        self.extractive, self.passages, self.model = extractive, passages, model
        self.decorate = decorate
        self.shown: tuple[Sentence, ...] = ()
        self.updated_at = float("-inf")

    async def draft(self, grounding: Grounding) -> None:
        if not grounding.sentences or grounding.sentences == self.shown:
            return
        if time.monotonic() - self.updated_at < UPDATE_INTERVAL_S:
            return
        blocks = draft_blocks(grounding, self.passages, self.model, self.extractive.blocks)
        # Counted as shown before the call: a timeout may cancel it after Slack applied it.
        self.shown = grounding.sentences
        await self._update(Reply(written_text(grounding), tuple(blocks)))

    async def finish(self, written: WrittenAnswer | None) -> None:
        """Show the final answer; without one (or when Slack refuses it) a draft on screen gives
        way to the extractive answer again, never staying as "`model` is writing an answer…"."""
        if written is not None and await self._update(written_reply(written)):
            log.info(
                "model answer in %s %s: %s sentences citing %s",
                self.channel,
                self.ts,
                len(written.grounding.sentences),
                list(written.grounding.cited),
            )
        elif self.shown:
            await self._update(self.extractive)

    async def _update(self, version: Reply) -> bool:
        """Whether Slack applied the update."""
        self.updated_at = time.monotonic()
        reply = self.decorate(version)
        try:
            kept = replace(reply, metadata=reply.metadata or self.extractive.metadata)
            await update_reply(self.client, self.channel, self.ts, kept)
        except (SlackClientError, aiohttp.ClientError, TimeoutError) as error:
            log.warning("could not update answer %s in %s: %s", self.ts, self.channel, error)
            return False
        return True
