"""Answered later, in the same thread: when the vault changes, the open requests of the wiki's inbox
whose words meet the changed pages (`index.asking.meets`) are asked again. One that the wiki now answers
(status ``answered`` or ``relation``) from a page this change added or changed gets one reply in
the thread it was asked in, "The wiki now answers this: …" with the answer as answers look, and is
marked answered (with git, its file's ``status: answered`` on the inbox branch, by the inbox's
delivery). Requests older than ``INBOX_ANSWER_DAYS`` expire instead.

Exactly once across replicas: the reply is leased to one process (`bot.state.requests`), and a
request is answered only while it is open. An index built from nothing (a first start, a lost
index) says nothing of what changed, and asks nothing again.
"""

from __future__ import annotations

import asyncio
import logging
import time
import uuid
from collections.abc import Callable, Iterable
from datetime import datetime

import aiohttp
from slack_sdk.errors import SlackClientError
from slack_sdk.web.async_client import AsyncWebClient

from bot.answering.replies import question_reply
from bot.blocks.inbox import answered_later_reply
from bot.blocks.reply import Reply
from bot.i18n import language_for_question, use_language
from bot.loop.inbox import Inbox, answered_text
from bot.slack.delivery import post_reply
from bot.state.requests import OPEN, InboxRequest
from bot.state.store import AsyncStateStore
from config.settings import Settings
from index import IndexNotReady, IndexReport, Wiki

log = logging.getLogger("sakuin.inbox")

ANSWERING = ("answered", "relation")
LEASE_S = 120.0
SECONDS_PER_DAY = 86400


def answer_now(
    wiki: Wiki, settings: Settings, request: InboxRequest, changed: frozenset[str]
) -> Reply | None:
    """The reply the request gets now, or None: the wiki must answer it, citing a changed page."""
    try:
        reply = question_reply(request.question, wiki, settings)
    except IndexNotReady:
        return None
    payload = (reply.metadata or {}).get("event_payload") or {}
    if payload.get("status") not in ANSWERING or not changed.intersection(payload.get("pages") or ()):
        return None
    with use_language(language_for_question(request.question, settings.ui_language)):
        return answered_later_reply(reply, request.id)


class AnsweredLater:
    """Asks the inbox's open requests again after each index update (`on_index_update`)."""

    def __init__(
        self,
        settings: Settings,
        wiki: Wiki,
        state: AsyncStateStore,
        client: AsyncWebClient,
        inbox: Inbox,
        *,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.settings, self.wiki, self.state, self.client, self.inbox = settings, wiki, state, client, inbox
        self._clock = clock
        self._changed: set[str] = set()
        self._wake = asyncio.Event()
        self.asked = 0
        """Requests asked again (for tests and measurements)."""
        self.rechecks = 0
        """Index updates looked at."""

    def on_index_update(self, report: IndexReport) -> None:
        if report.rebuilt or not report.changed_paths:
            return
        self._changed.update(report.changed_paths)
        self._wake.set()

    async def run(self) -> None:
        while True:
            await self._wake.wait()
            self._wake.clear()
            changed, self._changed = frozenset(self._changed), set()
            try:
                await self.recheck(changed)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("asking the inbox's requests again failed")
            self.rechecks += 1

    async def recheck(self, changed: Iterable[str]) -> int:
        """Ask again the open requests that ``changed`` (vault paths) may answer; how many were
        answered."""
        changed = frozenset(changed)
        requests = await self.state.inbox_requests(OPEN)  # a read: no write lock while none is open
        cutoff = self._clock() - self.settings.inbox_answer_days * SECONDS_PER_DAY
        if any(request.asked_at < cutoff for request in requests):
            expired = await self.state.expire_requests(cutoff)
            log.info("%d request(s) of the wiki's inbox expired unanswered", expired)
            requests = tuple(request for request in requests if request.asked_at >= cutoff)
        if not requests or not changed:
            return 0
        questions = {request.id: request.question for request in requests}
        try:
            meeting = set(await asyncio.to_thread(self.wiki.questions_meeting, questions, changed))
        except IndexNotReady:
            return 0
        answered = 0
        for request in requests:
            if request.id in meeting:
                self.asked += 1
                answered += await self._answer(request, changed)
        return answered

    async def _answer(self, request: InboxRequest, changed: frozenset[str]) -> int:
        reply = await asyncio.to_thread(answer_now, self.wiki, self.settings, request, changed)
        if reply is None:
            return 0
        owner = uuid.uuid4().hex
        if not await self.state.claim_answer(request.id, owner, LEASE_S):
            return 0
        try:
            await post_reply(self.client, request.channel, reply, thread_ts=request.thread_ts)
        except (SlackClientError, aiohttp.ClientError, TimeoutError) as error:
            log.warning("could not post the later answer of request %s: %s", request.id, error)
            await self.state.release_answer(request.id, owner)
            return 0
        content = answered_text(request.content, self._now_in_zone())
        if await self.state.mark_answered(request.id, owner, content):
            log.info("request %s answered in its thread (%s)", request.id, request.file)
            self.inbox.wake()
        return 1

    def _now_in_zone(self) -> datetime:
        return datetime.fromtimestamp(self._clock(), self.settings.zone)
