"""`StateStore`: the interface the bot keeps its shared state behind, its SQLite implementation,
and `AsyncStateStore`, the way coroutines use it.

An implementation (an SQLite file; PostgreSQL for replicas on separate disks) provides every
method of `EventClaims` (``claim_event``), `DigestRuns` (``run``, ``unfinished_runs``,
``claim_run``, ``set_plan``, ``renew_lease``, ``begin_part``, ``record_part``, ``finish_run``,
``fail_run``), `FollowedThreads` (``follow_thread``, ``followed_thread``, ``touch_thread``,
``forget_thread``), `AnswerFeedback` (``record_vote``, ``note_unanswered``, ``votes``,
``unanswered``), `ChannelMutes` (``mute_channel``, ``unmute_channel``, ``channel_muted``),
`InboxRequests` and `PageWatches` (`bot/state/requests.py`, `bot/state/watches.py`) with the
guarantees their docstrings state, plus ``reopened_at`` (for ``/healthz``), ``close`` and use as
a context manager. The guarantees hold across processes sharing one store: each step is atomic,
and of two processes racing for the same claim exactly one wins. Methods are synchronous and may
be called from any thread; they may block (a lock held by another process, a network round trip),
which is why coroutines never call them directly but through `AsyncStateStore`.

A new kind of state (threads followed, feedback) adds its own small Protocol and records in its
own module under ``bot/state/``, joins `StateStore`'s bases, and gets its methods on
`AsyncStateStore`.
"""

from __future__ import annotations

import asyncio
import contextvars
import functools
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Protocol, Self, TypeVar

from bot.state import channel_mutes, digest_runs, events, feedback, requests, threads, watches
from bot.state.channel_mutes import ChannelMutes, SqliteChannelMutes
from bot.state.digest_runs import DigestRun, DigestRuns, SqliteDigestRuns
from bot.state.events import EventClaims, SqliteEventClaims
from bot.state.feedback import AnswerFeedback, SqliteAnswerFeedback, UnansweredQuestion, Vote, VoteValue
from bot.state.inbox_calls import AsyncInboxCalls
from bot.state.postgres import OUTAGE_S
from bot.state.postgres_inbox import INBOX_SCHEMA, PostgresInboxRequests, PostgresPageWatches
from bot.state.postgres_records import (
    CHANNEL_MUTES_SCHEMA,
    CONVERSATIONS_SCHEMA,
    DIGEST_RUNS_SCHEMA,
    EVENTS_SCHEMA,
    PostgresAnswerFeedback,
    PostgresChannelMutes,
    PostgresDigestRuns,
    PostgresEventClaims,
    PostgresFollowedThreads,
)
from bot.state.requests import InboxRequests, SqliteInboxRequests
from bot.state.threads import FollowedThread, FollowedThreads, SqliteFollowedThreads
from bot.state.watches import PageWatches, SqlitePageWatches

T = TypeVar("T")


class StateStore(
    EventClaims,
    DigestRuns,
    FollowedThreads,
    AnswerFeedback,
    ChannelMutes,
    InboxRequests,
    PageWatches,
    Protocol,
):
    def reopened_at(self) -> float | None:
        """When the store found its file deleted or replaced under it and opened it anew (what
        was written before is not in it): None when that never happened."""
        ...

    def close(self) -> None: ...

    def __enter__(self) -> Self: ...

    def __exit__(self, *exc: object) -> None: ...


class SqliteStateStore(
    SqliteEventClaims,
    SqliteDigestRuns,
    SqliteFollowedThreads,
    SqliteAnswerFeedback,
    SqliteChannelMutes,
    SqliteInboxRequests,
    SqlitePageWatches,
):
    """The state in one SQLite file (``STATE_DB``), shared by every process on its disk."""

    def __init__(self, path: Path, *, clock: Callable[[], float] = time.time) -> None:
        schema = events.SCHEMA + digest_runs.SCHEMA + threads.SCHEMA + feedback.SCHEMA
        schema += channel_mutes.SCHEMA + requests.SCHEMA + watches.SCHEMA
        super().__init__(path, schema, clock=clock)

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


POSTGRES_MIGRATIONS = (
    EVENTS_SCHEMA + DIGEST_RUNS_SCHEMA,
    CONVERSATIONS_SCHEMA,
    CHANNEL_MUTES_SCHEMA,
    INBOX_SCHEMA,
)
"""Schema version n is ``POSTGRES_MIGRATIONS[n - 1]`` applied to version n - 1: append, never edit."""


class PostgresStateStore(
    PostgresEventClaims,
    PostgresDigestRuns,
    PostgresFollowedThreads,
    PostgresAnswerFeedback,
    PostgresChannelMutes,
    PostgresInboxRequests,
    PostgresPageWatches,
):
    """The state in a PostgreSQL database (``STATE_DB=postgresql://…``), shared by replicas anywhere."""

    def __init__(
        self, url: str, *, clock: Callable[[], float] = time.time, outage_s: float = OUTAGE_S
    ) -> None:
        super().__init__(url, POSTGRES_MIGRATIONS, clock=clock, outage_s=outage_s)

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def open_state_store(location: Path | str, *, clock: Callable[[], float] = time.time) -> StateStore:
    """The store at ``location`` (``STATE_DB``): a ``postgresql://`` URL or a SQLite file path;
    ``clock`` stands in for the time (tests)."""
    if isinstance(location, Path):
        return SqliteStateStore(location, clock=clock)
    return PostgresStateStore(location, clock=clock)


STATE_WORKERS = 4
"""Threads of an `AsyncStateStore` (as many as the PostgreSQL pool's connections; SQLite writes
one at a time anyway)."""


class AsyncStateStore(AsyncInboxCalls):
    """The state store for coroutines: every call runs in a worker thread, off the event loop.

    A call can wait (another process holds SQLite's write lock for up to ``busy_timeout``; a
    database is a network round trip away); on the loop that wait would hold up every
    acknowledgement to Slack. The threads are the store's own (``workers`` of them), not asyncio's
    default pool: calls waiting through a locked file or an outage queue here, while lookups,
    searches and ``/healthz`` keep the default pool to themselves. The methods are `StateStore`'s,
    awaited (those of the inbox and the page watches in `bot.state.inbox_calls`).
    """

    def __init__(self, store: StateStore, *, workers: int = STATE_WORKERS) -> None:
        self.store = store
        self._executor = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="sakuin-state")

    async def _call(self, method: Callable[..., T], /, *args: object, **kwargs: object) -> T:
        """``method(*args, **kwargs)`` on the store's threads, in the caller's context (as
        ``asyncio.to_thread`` runs it)."""
        context = contextvars.copy_context()
        call = functools.partial(context.run, method, *args, **kwargs)
        return await asyncio.get_running_loop().run_in_executor(self._executor, call)

    async def claim_event(self, event_id: str, ttl_s: float = 3600) -> bool:
        return await self._call(self.store.claim_event, event_id, ttl_s)

    async def run(self, day: str, channel: str) -> DigestRun | None:
        return await self._call(self.store.run, day, channel)

    async def unfinished_runs(self, since_day: str) -> list[DigestRun]:
        return await self._call(self.store.unfinished_runs, since_day)

    async def claim_run(
        self, day: str, channel: str, owner: str, lease_s: float, *, ignore_backoff: bool = False
    ) -> DigestRun | None:
        return await self._call(
            self.store.claim_run, day, channel, owner, lease_s, ignore_backoff=ignore_backoff
        )

    async def set_plan(self, day: str, channel: str, owner: str, plan: list[dict]) -> tuple[dict, ...]:
        return await self._call(self.store.set_plan, day, channel, owner, plan)

    async def renew_lease(self, day: str, channel: str, owner: str, lease_s: float) -> None:
        await self._call(self.store.renew_lease, day, channel, owner, lease_s)

    async def begin_part(self, day: str, channel: str, owner: str, part: int, lease_s: float) -> None:
        await self._call(self.store.begin_part, day, channel, owner, part, lease_s)

    async def record_part(self, day: str, channel: str, part: int, ts: str) -> None:
        await self._call(self.store.record_part, day, channel, part, ts)

    async def finish_run(self, day: str, channel: str, owner: str) -> None:
        await self._call(self.store.finish_run, day, channel, owner)

    async def fail_run(self, day: str, channel: str, owner: str, error: str, retry_in_s: float) -> None:
        await self._call(self.store.fail_run, day, channel, owner, error, retry_in_s)

    async def follow_thread(self, channel: str, thread_ts: str, subject: str | None, follow_s: float) -> None:
        await self._call(self.store.follow_thread, channel, thread_ts, subject, follow_s)

    async def followed_thread(self, channel: str, thread_ts: str) -> FollowedThread | None:
        return await self._call(self.store.followed_thread, channel, thread_ts)

    async def touch_thread(self, channel: str, thread_ts: str, follow_s: float) -> None:
        await self._call(self.store.touch_thread, channel, thread_ts, follow_s)

    async def forget_thread(self, channel: str, thread_ts: str) -> bool:
        return await self._call(self.store.forget_thread, channel, thread_ts)

    async def record_vote(
        self, channel: str, message_ts: str, user: str, question: str, pages: Sequence[str], vote: VoteValue
    ) -> None:
        await self._call(self.store.record_vote, channel, message_ts, user, question, pages, vote)

    async def note_unanswered(self, question: str) -> None:
        await self._call(self.store.note_unanswered, question)

    async def votes(self, since: float | None = None) -> tuple[Vote, ...]:
        return await self._call(self.store.votes, since)

    async def unanswered(self, since: float | None = None) -> tuple[UnansweredQuestion, ...]:
        return await self._call(self.store.unanswered, since)

    async def mute_channel(self, channel: str, user: str) -> None:
        await self._call(self.store.mute_channel, channel, user)

    async def unmute_channel(self, channel: str, user: str) -> None:
        await self._call(self.store.unmute_channel, channel, user)

    async def channel_muted(self, channel: str, user: str) -> bool:
        return await self._call(self.store.channel_muted, channel, user)
