"""The state store: a small SQLite file (``STATE_DB``) shared by every process of one deployment.

It holds two things that must survive restarts and be agreed on by several processes at once:

- the Slack events already handled (``claim_event``), so Slack's retries are answered once;
- the digest runs per (day, channel), so a day's digest reaches a channel exactly once.

Every write is one short ``BEGIN IMMEDIATE`` transaction, so two processes that ask at the same
moment are serialised by SQLite's file lock and exactly one of them wins. The file uses WAL so
readers never wait for a writer. Methods are synchronous and fast (local disk); one store may be
shared by threads.
"""

from __future__ import annotations

import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

MIN_EVENT_TTL_S = 600.0
"""Slack retries an event for about 5 minutes; remembering it for less would let a retry through."""

_SCHEMA = """
CREATE TABLE IF NOT EXISTS seen_events (
    event_id   TEXT PRIMARY KEY,
    expires_at REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS seen_events_expiry ON seen_events (expires_at);
"""


class StateStore:
    """The SQLite state file; created (with its parent folder) on first use."""

    def __init__(self, path: Path, *, clock: Callable[[], float] = time.time) -> None:
        self.path = Path(path)
        self._clock = clock
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()
        self._db = sqlite3.connect(self.path, timeout=30.0, isolation_level=None, check_same_thread=False)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=FULL")
        self._db.execute("PRAGMA busy_timeout=30000")
        with self._lock:
            self._db.executescript(_SCHEMA)

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def __enter__(self) -> StateStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        """One write transaction; ``BEGIN IMMEDIATE`` takes the write lock up front, so the
        check-then-write inside it cannot interleave with another process."""
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                yield self._db
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")

    def claim_event(self, event_id: str, ttl_s: float = 3600) -> bool:
        """True the first time ``event_id`` is seen within ``ttl_s`` seconds, False for a repeat.

        Slack retries an event it did not see acknowledged (up to 3 times over about 5 minutes);
        the first delivery claims it and the retries get False. Once the TTL has passed the id is
        forgotten. ``ttl_s`` below 10 minutes is refused, since retries could then slip through.
        """
        if ttl_s < MIN_EVENT_TTL_S:
            raise ValueError(f"event TTL must be at least {MIN_EVENT_TTL_S:.0f} s, got {ttl_s}")
        now = self._clock()
        with self._transaction() as db:
            db.execute("DELETE FROM seen_events WHERE expires_at <= ?", (now,))
            cursor = db.execute(
                "INSERT INTO seen_events (event_id, expires_at) VALUES (?, ?) ON CONFLICT DO NOTHING",
                (event_id, now + ttl_s),
            )
            return cursor.rowcount == 1
