"""Answering in a conversation: mentions, DMs, follow-ups and the assistant pane all come here.

One answer goes through the same steps wherever it was asked:

1. the thread's subject is looked up (the page the thread's previous answer was about), so a
   question that names no page is asked about it;
2. the reply is composed by `bot.replies` (`compose`, synchronous, run in a thread);
3. it is remembered: the thread is followed with its new subject, and a question the wiki could
   not answer confidently is noted for `sakuin feedback`;
4. it is posted (`bot.questions`: with a model configured, then rewritten in place), every version
   with its 👍/👎 when it answers a question, and a "stop" control in a followed channel thread.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from functools import partial

from slack_sdk.web.async_client import AsyncWebClient

from bot.blocks.elements import section
from bot.blocks.feedback import STOPPED_TEXT, feedback_block, stop_row, with_controls
from bot.blocks.reply import Reply
from bot.questions import post_answer
from bot.replies import (
    HELP_WORDS,
    MAX_QUERY_CHARS,
    SEARCH_LIMIT,
    main_subject,
    not_ready_reply,
    question_reply,
    reply_for_text,
)
from bot.state.store import AsyncStateStore
from bot.state.threads import FollowedThread
from config.settings import Settings
from index.model import SearchResult
from index.wiki import IndexNotReady, Wiki

SECONDS_PER_HOUR = 3600


@dataclass(frozen=True)
class Answered:
    """What the conversation keeps of an answer to a question."""

    question: str
    subject: str | None
    """The page the answer is about, if one: the thread's subject from now on."""
    pages: tuple[str, ...]
    """The pages the answer showed, in order."""
    confident: bool


@dataclass(frozen=True)
class Composed:
    reply: Reply
    answered: Answered | None = None
    """None when the reply is not an answer to a question (a command, help, a notice)."""


@dataclass(frozen=True)
class Place:
    """Where an answer goes: a channel, the thread (if any), and whether sakuin follows it there."""

    channel: str
    thread_ts: str | None
    follows: bool = False
    """A channel thread: further messages in it are answered without a mention."""


@dataclass(frozen=True)
class Conversations:
    """What answering in a conversation needs: the wiki, the settings and the state store."""

    wiki: Wiki
    settings: Settings
    state: AsyncStateStore

    @property
    def follow_s(self) -> float:
        return self.settings.follow_up_hours * SECONDS_PER_HOUR

    async def answer(self, client: AsyncWebClient, place: Place, text: str) -> None:
        """Answer ``text`` (plain text, Slack's escaping undone) at ``place``, then remember the thread."""
        followed = await self.followed(place)
        subject = followed.subject if followed else None
        composed = await asyncio.to_thread(compose, text, self.wiki, self.settings, subject=subject)
        await self.remember(composed.answered, place)
        await post_answer(
            client,
            place.channel,
            composed.reply,
            self.settings,
            thread_ts=place.thread_ts,
            decorate=partial(with_answer_controls, composed.answered, place),
        )

    async def followed(self, place: Place) -> FollowedThread | None:
        if place.thread_ts is None:
            return None
        return await self.state.followed_thread(place.channel, place.thread_ts)

    async def remember(self, answered: Answered | None, place: Place) -> None:
        """The thread is followed with the answer's subject; a question answered without
        confidence is noted."""
        if answered is not None and not answered.confident:
            await self.state.note_unanswered(answered.question)
        if place.thread_ts is not None:
            subject = answered.subject if answered else None
            await self.state.follow_thread(place.channel, place.thread_ts, subject, self.follow_s)

    async def touch(self, channel: str, thread_ts: str) -> None:
        """Someone spoke in the thread: a followed thread's silence starts again."""
        await self.state.touch_thread(channel, thread_ts, self.follow_s)

    async def stop(self, client: AsyncWebClient, channel: str, thread_ts: str) -> None:
        """Stop following the thread and say so in it (once: a second "stop" finds nothing to stop)."""
        if await self.state.forget_thread(channel, thread_ts):
            await client.chat_postMessage(
                channel=channel, thread_ts=thread_ts, text=STOPPED_TEXT, blocks=[section(STOPPED_TEXT)]
            )


def with_answer_controls(answered: Answered | None, place: Place, reply: Reply) -> Reply:
    """``reply`` (any version of the answer) with 👍/👎 (answers to questions) and "stop following"
    (followed threads)."""
    controls = []
    if answered is not None:
        controls.append(feedback_block(answered.question, answered.pages))
    if place.follows and place.thread_ts is not None:
        controls.append(stop_row(place.thread_ts))
    if not controls:
        return reply
    return Reply(reply.text, tuple(with_controls(reply.blocks, controls)))


def compose(text: str, wiki: Wiki, settings: Settings, *, subject: str | None = None) -> Composed:
    """The reply to ``text`` as mentions get it; a question is asked about ``subject`` if it names no page."""
    question = " ".join(text.split())
    command = question.partition(" ")[0]
    if (
        command in (settings.entity_command, settings.wiki_command)
        or question.lower() in HELP_WORDS
        or len(question) > MAX_QUERY_CHARS
    ):
        return Composed(reply_for_text(text, wiki, settings, private=False))
    try:
        return answer_question(question, wiki, settings, subject)
    except IndexNotReady:
        return Composed(not_ready_reply())


def answer_question(question: str, wiki: Wiki, settings: Settings, subject: str | None) -> Composed:
    """The one seam to the answer composer: its reply, and what the conversation keeps of it."""
    result = wiki.search(question, limit=SEARCH_LIMIT)
    asked = question
    subject_page = wiki.page(subject) if subject is not None and not result.entities else None
    if subject_page is not None and len(carried := f"{subject_page.title} {question}") <= MAX_QUERY_CHARS:
        asked = carried
        result = wiki.search(asked, limit=SEARCH_LIMIT)
    reply = question_reply(asked, wiki, settings)
    return Composed(reply, answered_from(question, result))


def answered_from(question: str, result: SearchResult) -> Answered:
    """Subject, pages shown and confidence of the answer `question_reply` builds from ``result``."""
    subject = main_subject(result)
    pages = tuple(dict.fromkeys([*([subject] if subject else []), *(hit.path for hit in result.hits)]))
    return Answered(question, subject, pages, confident=bool(pages))
