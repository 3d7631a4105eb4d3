"""A question's model answer streamed into its thread: Slack's ``chat.startStream``,
``chat.appendStream`` and ``chat.stopStream``, one checked sentence at a time.

One answer, one message. Where the answer goes to a thread (a channel thread, a thread of the DM,
the assistant pane) and a model is configured (``LLM_STREAM=auto``), nothing is posted at first:

1. the model's answer is read as it streams in, and a sentence counts only once it is settled and
   its citations are checked (`bot.llm.grounding.ground`): it cites a passage that was sent and
   holds no link from elsewhere. An uncited or invented claim is never shown, not even for a second;
2. the first checked sentence starts the stream (the message), each later one is appended, in order;
3. the stream stops with the cited pages (links and card buttons), "written by `model` from N wiki
   passages" and the answer's controls (👍/👎, "stop following": the same ``decorate`` as every
   other version of the answer).

When no checked sentence comes within ``LLM_STREAM_WAIT`` seconds (a slow model, one that fails,
one whose answer cites nothing), or Slack refuses to start the stream, no stream is started: the
extractive answer is posted as it is without streaming and, if the model answers later, rewritten
in place (`bot.answering.model_rewrite.InPlace`). A model that answers whole within the wait gets
its answer posted as one message. A model that fails after sentences were shown (a cut stream,
the timeout) leaves them: they were checked; the stream stops with the pages they cite, a line
saying the model stopped, and the extractive answer below, so nothing is lost and nothing is shown
twice. If Slack refuses an append or the stop, the message is replaced (``chat.update``) by the
whole final answer.

Elsewhere (the channel itself with ``REPLY_IN_THREAD=false``, a DM outside a thread, or
``LLM_STREAM=off``) the answer is posted and rewritten in place as `bot.answering.model_rewrite` describes.
"""

from __future__ import annotations

import asyncio
import copy
import logging
from dataclasses import dataclass, replace

import aiohttp
from slack_sdk.errors import SlackClientError
from slack_sdk.http_retry.builtin_async_handlers import AsyncConnectionErrorRetryHandler
from slack_sdk.web.async_client import AsyncWebClient

from bot.answering.model_rewrite import Decorate, InPlace, as_is, passages_of, post_answer, written_reply
from bot.blocks.reply import Reply
from bot.blocks.streamed import stream_cut_blocks, stream_end_blocks, stream_markdown
from bot.i18n import language_for_question, use_language
from bot.llm.client import WrittenAnswer, model_configured, write_answer
from bot.llm.grounding import Grounding, NumberedPassage, Sentence
from bot.slack.delivery import post_reply
from config.settings import Settings

log = logging.getLogger(__name__)

SLACK_FAILURES = (SlackClientError, aiohttp.ClientError, TimeoutError)


@dataclass(frozen=True)
class Recipient:
    """Who the streamed answer is for: Slack requires both outside a DM."""

    team: str | None = None
    """The asker's workspace (the enterprise, for an app installed on an org)."""
    user: str | None = None


def streams(settings: Settings, channel: str, thread_ts: str | None, recipient: Recipient) -> bool:
    """Whether the answer at this place streams: a model, ``LLM_STREAM=auto``, a thread, and in a
    channel the asker's team and user (``chat.startStream`` needs them there)."""
    if settings.llm_stream != "auto" or not model_configured(settings) or thread_ts is None:
        return False
    return channel.startswith("D") or bool(recipient.team and recipient.user)


async def deliver_answer(
    client: AsyncWebClient,
    channel: str,
    reply: Reply,
    settings: Settings,
    *,
    thread_ts: str | None = None,
    recipient: Recipient = Recipient(),
    decorate: Decorate = as_is,
) -> str | None:
    """Deliver the answer ``reply`` (streamed where `streams`, else
    `bot.answering.model_rewrite.post_answer`).

    Returns the ``ts`` of the one message the answer is.
    """
    passages = passages_of(reply)
    if not passages or reply.answer is None or not streams(settings, channel, thread_ts, recipient):
        return await post_answer(client, channel, reply, settings, thread_ts=thread_ts, decorate=decorate)
    assert thread_ts is not None
    question = reply.answer.question
    with use_language(language_for_question(question, settings.ui_language)):
        answer = _Streamed(client, channel, thread_ts, recipient, reply, passages, settings, decorate)
        return await answer.run(question)


def applied_once(client: AsyncWebClient) -> AsyncWebClient:
    """``client`` without its retry of a dropped connection: Slack may have applied the call before
    the connection dropped, and a stream started or appended twice shows the answer twice. (Rate
    limits and server errors are still retried: Slack applied nothing then.)"""
    once = copy.copy(client)
    handlers = client.retry_handlers
    once.retry_handlers = [h for h in handlers if not isinstance(h, AsyncConnectionErrorRetryHandler)]
    return once


class _Streamed:
    """One answer on its way to a thread: waiting for a first checked sentence, then streamed, or
    posted whole, or posted as the extractive answer and rewritten in place.

    Drafts come from the model's task (`draft`), which starts and appends to the stream; only `run`
    posts a message, so a failed post reaches the error handler as every other post does.
    """

    def __init__(
        self,
        client: AsyncWebClient,
        channel: str,
        thread_ts: str,
        recipient: Recipient,
        extractive: Reply,
        passages: tuple[NumberedPassage, ...],
        settings: Settings,
        decorate: Decorate,
    ) -> None:
        self.client, self.channel, self.thread_ts, self.recipient = client, channel, thread_ts, recipient
        self.streamer = applied_once(client)
        self.extractive, self.passages, self.settings = extractive, passages, settings
        self.model = settings.llm_model or ""
        self.decorate = decorate
        self.phase = "waiting"
        """waiting → starting → streaming (or not started); posting → in place (no stream)."""
        self.settled = asyncio.Event()
        """Set once the stream started, or could not start."""
        self.ts: str | None = None
        self.shown: list[Sentence] = []
        self.broken = False
        """Slack refused an append: appending stops, and the message ends replaced by the whole answer."""
        self.in_place: InPlace | None = None

    async def run(self, question: str) -> str | None:
        model = asyncio.create_task(write_answer(self.settings, question, self.passages, on_draft=self.draft))
        try:
            settled = asyncio.create_task(self.settled.wait())
            try:
                await asyncio.wait({model, settled}, timeout=self.settings.llm_stream_wait)
            finally:
                settled.cancel()
            if self.phase == "starting":  # the first sentence is on its way to Slack
                await self.settled.wait()
            if self.phase == "streaming":
                await self.finish(await model)
                return self.ts
            if model.done():  # whole before anything was shown: one message, the final one
                return await self.post_final(model.result())
            return await self.post_then_rewrite(model)
        finally:
            model.cancel()

    async def draft(self, grounding: Grounding) -> None:
        """The checked sentences so far, each time the model's answer grows."""
        if self.phase == "waiting" and grounding.sentences:
            await self.start(grounding.sentences)
        elif self.phase == "streaming":
            await self.append(grounding.sentences)
        elif self.phase == "in place" and self.in_place is not None:
            await self.in_place.draft(grounding)

    async def start(self, sentences: tuple[Sentence, ...]) -> None:
        self.phase = "starting"
        try:
            response = await self.streamer.chat_startStream(
                channel=self.channel,
                thread_ts=self.thread_ts,
                markdown_text=stream_markdown(sentences),
                recipient_team_id=self.recipient.team,
                recipient_user_id=self.recipient.user,
            )
            self.ts = response.get("ts")
        except SLACK_FAILURES as error:
            log.warning(
                "could not start streaming the answer in %s (%s): the extractive answer goes instead",
                self.channel,
                error,
            )
        if self.ts:
            self.shown = list(sentences)
            self.phase = "streaming"
        else:
            self.phase = "not started"
        self.settled.set()

    async def append(self, sentences: tuple[Sentence, ...]) -> None:
        new = sentences[len(self.shown) :]
        if self.broken or not new:
            return
        text = stream_markdown(new, after=self.shown[-1])
        # Counted as shown before the call: a timeout may cancel it after Slack applied it.
        self.shown.extend(new)
        try:
            await self.streamer.chat_appendStream(channel=self.channel, ts=self.ts, markdown_text=text)
        except SLACK_FAILURES as error:
            log.warning("could not append to the answer %s in %s: %s", self.ts, self.channel, error)
            self.broken = True

    async def finish(self, written: WrittenAnswer | None) -> None:
        """Stop the stream: the sentences not shown yet, the pages cited, the controls. Without a
        final answer, what was shown stays, above the extractive answer."""
        if written is not None:
            rest = list(written.grounding.sentences[len(self.shown) :])
            shown = Grounding((*self.shown, *rest))
            blocks = stream_end_blocks(shown, self.passages, self.model)
        else:
            rest = []
            shown = Grounding(tuple(self.shown))
            blocks = stream_cut_blocks(shown, self.passages, self.model, self.extractive.blocks)
        end = self.decorate(Reply(self.extractive.text, tuple(blocks)))
        last = stream_markdown(rest, after=self.shown[-1]) if rest and not self.broken else None
        try:
            await self.client.chat_stopStream(
                channel=self.channel,
                ts=self.ts,
                markdown_text=last,
                blocks=list(end.blocks),
                metadata=self.extractive.metadata,
            )
        except SLACK_FAILURES as error:
            log.warning("could not stop streaming the answer %s in %s: %s", self.ts, self.channel, error)
            self.broken = True
        if self.broken:
            await self.replace(written)
            return
        log.info(
            "model answer streamed in %s %s: %s sentences citing %s%s",
            self.channel,
            self.ts,
            len(shown.sentences),
            list(shown.cited),
            "" if written is not None else " (the model stopped; the extractive answer below)",
        )

    async def replace(self, written: WrittenAnswer | None) -> None:
        """The stream went wrong on Slack's side: the message becomes the whole final answer (the
        way slack_sdk suggests for a stream that expired), or the extractive answer."""
        final = self.decorate(written_reply(written) if written is not None else self.extractive)
        try:
            await self.client.chat_update(
                channel=self.channel,
                ts=self.ts,
                text=final.text,
                blocks=list(final.blocks),
                metadata=final.metadata or self.extractive.metadata,
            )
        except SLACK_FAILURES as error:
            log.warning("could not replace the streamed answer %s in %s: %s", self.ts, self.channel, error)

    async def post_final(self, written: WrittenAnswer | None) -> str | None:
        """Nothing shown yet and the model is done: its answer, or the extractive one, as one post."""
        final = self.extractive
        if written is not None:
            final = replace(written_reply(written), metadata=self.extractive.metadata)
        return await post_reply(self.client, self.channel, self.decorate(final), thread_ts=self.thread_ts)

    async def post_then_rewrite(self, model: asyncio.Task[WrittenAnswer | None]) -> str | None:
        """No checked sentence in time (or no stream): the extractive answer now, the model's
        answer in its place when it comes."""
        self.phase = "posting"
        extractive = self.decorate(self.extractive)
        ts = await post_reply(self.client, self.channel, extractive, thread_ts=self.thread_ts)
        if ts is None:
            return None
        self.in_place = InPlace(
            self.client, self.channel, ts, self.extractive, self.passages, self.model, self.decorate
        )
        self.phase = "in place"
        await self.in_place.finish(await model)
        return ts
