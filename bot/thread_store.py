"""The threads sakuin follows: where it answered, what the thread is about, when it last spoke.

A thread is followed from sakuin's answer in it (to a mention or a follow-up) until someone stops
it or ``FOLLOW_UP_HOURS`` pass without a message in it. The record keeps the thread's *subject*,
the page the previous answer was about, so a follow-up that names no page is asked about it.

`ThreadStore` is the interface the Slack edge uses; `SQLiteThreadStore` keeps it in the state
file. Methods are synchronous (call them with ``asyncio.to_thread``); each is one short
transaction, so several processes of one deployment agree on every thread.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from bot.sqlite import create_schema, read_snapshot, write_transaction

_SCHEMA = """
CREATE TABLE IF NOT EXISTS followed_threads (
    channel   TEXT NOT NULL,
    thread_ts TEXT NOT NULL,
    subject   TEXT,
    last_at   REAL NOT NULL,
    PRIMARY KEY (channel, thread_ts)
);
CREATE INDEX IF NOT EXISTS followed_threads_last_at ON followed_threads (last_at);
"""


@dataclass(frozen=True)
class FollowedThread:
    channel: str
    thread_ts: str
    subject: str | None
    """The vault path of the page the thread's last answer was about, if it was about one."""
    last_at: float
    """When the thread last had a message (seconds since the epoch)."""


class ThreadStore(Protocol):
    def follow(self, channel: str, thread_ts: str, subject: str | None) -> None:
        """Follow the thread from now on; a None ``subject`` keeps the subject it had."""

    def followed(self, channel: str, thread_ts: str) -> FollowedThread | None:
        """The thread if it is followed and has not been silent for longer than the follow time."""

    def touch(self, channel: str, thread_ts: str) -> None:
        """Someone spoke in the thread: its silence starts again (no-op for threads not followed)."""

    def forget(self, channel: str, thread_ts: str) -> bool:
        """Stop following the thread; False when it was not followed."""


class SQLiteThreadStore:
    def __init__(self, path: Path, follow_s: float, *, clock: Callable[[], float] = time.time) -> None:
        self.path = Path(path)
        self.follow_s = follow_s
        self._clock = clock
        create_schema(self.path, _SCHEMA)

    def follow(self, channel: str, thread_ts: str, subject: str | None) -> None:
        now = self._clock()
        with write_transaction(self.path) as db:
            db.execute("DELETE FROM followed_threads WHERE last_at <= ?", (now - self.follow_s,))
            db.execute(
                "INSERT INTO followed_threads (channel, thread_ts, subject, last_at) VALUES (?, ?, ?, ?)"
                " ON CONFLICT (channel, thread_ts) DO UPDATE SET"
                " subject = COALESCE(excluded.subject, subject), last_at = excluded.last_at",
                (channel, thread_ts, subject, now),
            )

    def followed(self, channel: str, thread_ts: str) -> FollowedThread | None:
        with read_snapshot(self.path) as db:
            row = db.execute(
                "SELECT subject, last_at FROM followed_threads"
                " WHERE channel = ? AND thread_ts = ? AND last_at > ?",
                (channel, thread_ts, self._clock() - self.follow_s),
            ).fetchone()
        return FollowedThread(channel, thread_ts, row[0], row[1]) if row else None

    def touch(self, channel: str, thread_ts: str) -> None:
        now = self._clock()
        with write_transaction(self.path) as db:
            db.execute(
                "UPDATE followed_threads SET last_at = ? WHERE channel = ? AND thread_ts = ? AND last_at > ?",
                (now, channel, thread_ts, now - self.follow_s),
            )

    def forget(self, channel: str, thread_ts: str) -> bool:
        with write_transaction(self.path) as db:
            cursor = db.execute(
                "DELETE FROM followed_threads WHERE channel = ? AND thread_ts = ? AND last_at > ?",
                (channel, thread_ts, self._clock() - self.follow_s),
            )
            return cursor.rowcount == 1
