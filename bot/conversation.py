"""Answering in a conversation: mentions, DMs, follow-ups and the assistant pane all come here.

One answer goes through the same steps wherever it was asked:

1. the thread's subject is looked up (the page the thread's previous answer was about), so a
   question that names no page is asked about it;
2. the reply is composed by `bot.replies` (`compose`, synchronous, run in the answer queue), the
   domain's `Answer` telling the subject, the pages shown and the confidence;
3. it is remembered: the thread is followed with its new subject, and a question the wiki could
   not answer confidently is noted for `sakuin feedback`;
4. it is posted (`bot.questions`: with a model configured, then rewritten in place), every version
   with its 👍/👎 when it answers a question, and a "stop" control in a followed channel thread.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import partial

from slack_sdk.web.async_client import AsyncWebClient

from bot.answer_queue import AnswerQueue
from bot.blocks.answer import SUPPORTING
from bot.blocks.elements import section
from bot.blocks.feedback import STOPPED_TEXT, feedback_block, stop_row, with_controls
from bot.blocks.inbox import NOT_FOUND, answer_status, ask_row
from bot.blocks.reply import Reply
from bot.delivery import busy_reply, tell_user
from bot.i18n import _, language_for_question, use_language
from bot.questions import post_answer
from bot.replies import question_reply, reply_for_text
from bot.state.store import AsyncStateStore
from bot.state.threads import FollowedThread
from config.settings import Settings
from index.model import Answer
from index.wiki import Wiki

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
    user: str | None = None
    """Who asked: told when the answer queue is full (in a channel, a notice only they see)."""


@dataclass(frozen=True)
class Conversations:
    """What answering in a conversation needs: the wiki, the settings, the state store and the
    answer queue the replies are composed in."""

    wiki: Wiki
    settings: Settings
    state: AsyncStateStore
    answers: AnswerQueue

    @property
    def follow_s(self) -> float:
        return self.settings.follow_up_hours * SECONDS_PER_HOUR

    async def answer(self, client: AsyncWebClient, place: Place, text: str) -> None:
        """Answer ``text`` (plain text, Slack's escaping undone) at ``place``, then remember the thread.

        Every version of the answer and its controls are in the question's language (`bot.i18n`).
        """
        followed = await self.followed(place)
        subject = followed.subject if followed else None
        with use_language(language_for_question(text, self.settings.ui_language)):
            composed = await self.answers.run(
                compose,
                text,
                self.wiki,
                self.settings,
                subject=subject,
                on_busy=partial(self.tell_busy, client, place),
            )
            await self.remember(composed.answered, place)
            await post_answer(
                client,
                place.channel,
                composed.reply,
                self.settings,
                thread_ts=place.thread_ts,
                decorate=partial(with_answer_controls, composed.answered, place),
            )

    async def tell_busy(self, client: AsyncWebClient, place: Place) -> None:
        await tell_user(client, place.channel, place.user, busy_reply(), thread_ts=place.thread_ts)

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
        """Stop following the thread and say so in it (once: a second "stop" finds nothing to stop),
        in the language the caller set."""
        if await self.state.forget_thread(channel, thread_ts):
            text = _(STOPPED_TEXT)
            await client.chat_postMessage(
                channel=channel, thread_ts=thread_ts, text=text, blocks=[section(text)]
            )


def with_answer_controls(answered: Answered | None, place: Place, reply: Reply) -> Reply:
    """``reply`` (any version of the answer) with "Ask the wiki to cover this" (an answer that found
    nothing), 👍/👎 (answers to questions) and "stop following" (followed threads)."""
    controls = []
    if answered is not None and answer_status(reply) == NOT_FOUND:
        controls.append(ask_row(answered.question, place.thread_ts))
    if answered is not None:
        controls.append(feedback_block(answered.question, answered.pages))
    if place.follows and place.thread_ts is not None:
        controls.append(stop_row(place.thread_ts))
    if not controls:
        return reply
    return replace(reply, blocks=tuple(with_controls(reply.blocks, controls)))


def compose(text: str, wiki: Wiki, settings: Settings, *, subject: str | None = None) -> Composed:
    """The reply to ``text`` as mentions get it; a question that names no page is asked about
    ``subject``."""
    command = text.strip().partition(" ")[0]
    if command in (settings.entity_command, settings.wiki_command):
        return Composed(reply_for_text(text, wiki, settings, private=False))
    reply = question_reply(text, wiki, settings, subject=subject)
    return Composed(reply, answered_from(" ".join(text.split()), reply.answer))


def answered_from(question: str, answer: Answer | None) -> Answered | None:
    """What the conversation keeps of the answer (None for help, a notice, a question too long):
    its subject, the pages it shows (the sentences' pages, the supporting ones, the subject's) and
    whether it answers confidently."""
    if answer is None or answer.too_long:
        return None
    cited = [sentence.path for sentence in answer.sentences] if answer.confident else []
    closest = [hit.path for hit in answer.pages[:SUPPORTING]]
    pages = dict.fromkeys([*cited, *closest, *([answer.subject] if answer.subject else [])])
    return Answered(question, answer.subject, tuple(pages), answer.confident)
