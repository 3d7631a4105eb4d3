"""Answering in a conversation: mentions, DMs, follow-ups and the assistant pane all come here.

One answer goes through the same steps wherever it was asked:

1. the thread's subject is looked up (the page the thread's previous answer was about), so a
   question that names no page is asked about it;
2. the reply is composed by `bot.answering.replies` (`compose`, synchronous, run in the answer queue), the
   domain's `Answer` telling the subject, the pages shown and the confidence;
3. it is remembered: the thread is followed with its new subject, and a question the wiki could
   not answer confidently is noted for `sakuin feedback`;
4. it is posted (`bot.answering.streaming`: with a model configured, streamed into a thread, elsewhere posted
   and rewritten in place by `bot.answering.model_rewrite`), every version with its 👍/👎 when it answers a
   question, and a "stop" control in a followed channel thread.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from functools import partial

from slack_bolt.context.async_context import AsyncBoltContext
from slack_sdk.web.async_client import AsyncWebClient

from bot.answering.queue import AnswerQueue
from bot.answering.replies import question_reply, reply_for_text
from bot.answering.streaming import Recipient, deliver_answer
from bot.blocks.answer import shown_pages
from bot.blocks.controls import feedback_block, stop_row, stopped_reply, with_controls
from bot.blocks.inbox import NOT_FOUND, answer_status, ask_row
from bot.blocks.notices import busy_reply
from bot.blocks.reply import Reply
from bot.i18n import language_for_question, use_language
from bot.slack.delivery import post_reply, tell_user
from bot.state.store import AsyncStateStore
from bot.state.threads import FollowedThread
from config.settings import Settings
from index import ANSWERED, RELATION, Answer, Wiki

SECONDS_PER_HOUR = 3600

Notes = Callable[[], Sequence[dict]]
"""Builds the blocks under an unasked answer, in the language it is composed in."""


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
    team: str | None = None
    """The asker's workspace (or enterprise): a streamed answer in a channel is addressed to them."""


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

    async def answer(
        self, client: AsyncWebClient, place: Place, text: str, *, unasked: Notes | None = None
    ) -> bool:
        """Answer ``text`` (plain text, Slack's escaping undone) at ``place``, then remember the thread.

        Every version of the answer and its controls are in the question's language (`bot.i18n`).
        ``unasked`` is for a question nobody asked sakuin (`bot.conversation.channel_answers`): it is answered
        only when the wiki answers it confidently, with the blocks ``unasked`` builds under every
        version; its asker is not told when the queue is busy, and the thread is not followed.
        Returns whether an answer was posted.
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
                on_busy=None if unasked is not None else partial(self.tell_busy, client, place),
            )
            if unasked is not None and not answers_confidently(composed):
                return False
            if unasked is None:
                await self.remember(composed.answered, place)
            notes = tuple(unasked()) if unasked is not None else ()
            await deliver_answer(
                client,
                place.channel,
                composed.reply,
                self.settings,
                thread_ts=place.thread_ts,
                recipient=Recipient(place.team, place.user),
                decorate=partial(with_answer_controls, composed.answered, place, notes=notes),
            )
        return True

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
            await post_reply(client, channel, stopped_reply(), thread_ts=thread_ts)


def team_of(context: AsyncBoltContext) -> str | None:
    """The asker's workspace as a stream's ``recipient_team_id`` wants it: the team, or the
    enterprise for an app installed on an org (as bolt's ``say_stream`` takes it)."""
    return context.team_id or context.enterprise_id


def with_answer_controls(
    answered: Answered | None, place: Place, reply: Reply, *, notes: Sequence[dict] = ()
) -> Reply:
    """``reply`` (any version of the answer) with "Ask the wiki to cover this" (an answer that found
    nothing), 👍/👎 (answers to questions), "stop following" (followed threads) and the ``notes``
    of an unasked answer."""
    controls = []
    if answered is not None and answer_status(reply) == NOT_FOUND:
        controls.append(ask_row(answered.question, place.thread_ts))
    if answered is not None:
        controls.append(feedback_block(answered.question, answered.pages))
    if place.follows and place.thread_ts is not None:
        controls.append(stop_row(place.thread_ts))
    controls.extend(notes)
    if not controls:
        return reply
    return replace(reply, blocks=tuple(with_controls(reply.blocks, controls)))


def answers_confidently(composed: Composed) -> bool:
    """The wiki answers the question: a sentence or a typed relation (`Answer.status`), never a
    "not found", a command's reply or a notice."""
    answer = composed.reply.answer
    return answer is not None and not answer.too_long and answer.status in (ANSWERED, RELATION)


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
    return Answered(question, answer.subject, tuple(shown_pages(answer)), answer.confident)
