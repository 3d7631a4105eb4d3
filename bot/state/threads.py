"""The threads sakuin follows: where it answered, what the thread is about, until when.

A thread is followed from sakuin's answer in it (to a mention or a follow-up) until someone stops
it or ``FOLLOW_UP_HOURS`` pass without a message in it. The record keeps the thread's *subject*,
the page the previous answer was about, so a follow-up that names no page is asked about it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from bot.state.sqlite import SqliteFile

SCHEMA = """
CREATE TABLE IF NOT EXISTS followed_threads (
    channel    TEXT NOT NULL,
    thread_ts  TEXT NOT NULL,
    subject    TEXT,
    expires_at REAL NOT NULL,
    PRIMARY KEY (channel, thread_ts)
);
CREATE INDEX IF NOT EXISTS followed_threads_expiry ON followed_threads (expires_at);
"""


@dataclass(frozen=True)
class FollowedThread:
    channel: str
    thread_ts: str
    subject: str | None
    """The vault path of the page the thread's last answer was about, if it was about one."""
    expires_at: float
    """When following ends if nobody writes in the thread before (seconds since the epoch)."""


class FollowedThreads(Protocol):
    def follow_thread(self, channel: str, thread_ts: str, subject: str | None, follow_s: float) -> None:
        """Follow the thread for ``follow_s`` seconds from now; a None ``subject`` keeps its subject."""
        ...

    def followed_thread(self, channel: str, thread_ts: str) -> FollowedThread | None:
        """The thread if it is followed now (not stopped, not silent past its time)."""
        ...

    def touch_thread(self, channel: str, thread_ts: str, follow_s: float) -> None:
        """Someone wrote in a followed thread: it is followed ``follow_s`` seconds from now.

        A thread that is not followed (any more) stays so."""
        ...

    def forget_thread(self, channel: str, thread_ts: str) -> bool:
        """Stop following the thread; False when it was not followed."""
        ...


class SqliteFollowedThreads(SqliteFile):
    def follow_thread(self, channel: str, thread_ts: str, subject: str | None, follow_s: float) -> None:
        now = self._clock()
        with self._transaction() as db:
            db.execute("DELETE FROM followed_threads WHERE expires_at <= ?", (now,))
            db.execute(
                "INSERT INTO followed_threads (channel, thread_ts, subject, expires_at) VALUES (?, ?, ?, ?)"
                " ON CONFLICT (channel, thread_ts) DO UPDATE SET"
                " subject = COALESCE(excluded.subject, subject), expires_at = excluded.expires_at",
                (channel, thread_ts, subject, now + follow_s),
            )

    def followed_thread(self, channel: str, thread_ts: str) -> FollowedThread | None:
        with self._reading() as db:
            row = db.execute(
                "SELECT subject, expires_at FROM followed_threads"
                " WHERE channel = ? AND thread_ts = ? AND expires_at > ?",
                (channel, thread_ts, self._clock()),
            ).fetchone()
        return FollowedThread(channel, thread_ts, row[0], row[1]) if row else None

    def touch_thread(self, channel: str, thread_ts: str, follow_s: float) -> None:
        now = self._clock()
        with self._transaction() as db:
            db.execute(
                "UPDATE followed_threads SET expires_at = ?"
                " WHERE channel = ? AND thread_ts = ? AND expires_at > ?",
                (now + follow_s, channel, thread_ts, now),
            )

    def forget_thread(self, channel: str, thread_ts: str) -> bool:
        with self._transaction() as db:
            cursor = db.execute(
                "DELETE FROM followed_threads WHERE channel = ? AND thread_ts = ? AND expires_at > ?",
                (channel, thread_ts, self._clock()),
            )
            return cursor.rowcount == 1
