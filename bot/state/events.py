"""Slack events already answered: Slack retries an event it saw no acknowledgement for, and each
event must still be answered once, whichever process (or replica) receives which delivery."""

from __future__ import annotations

from typing import Protocol

from bot.state.sqlite import SqliteFile

MIN_EVENT_TTL_S = 600.0
"""Slack retries an event for about 5 minutes; remembering it for less would let a retry through."""

SCHEMA = """
CREATE TABLE IF NOT EXISTS seen_events (
    event_id   TEXT PRIMARY KEY,
    expires_at REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS seen_events_expiry ON seen_events (expires_at);
"""


class EventClaims(Protocol):
    def claim_event(self, event_id: str, ttl_s: float = 3600) -> bool:
        """True the first time ``event_id`` is seen within ``ttl_s`` seconds, False for a repeat.

        Atomic across processes: of any number of concurrent claims of one id, exactly one gets
        True. Once the TTL has passed the id may be forgotten. A ``ttl_s`` below
        `MIN_EVENT_TTL_S` raises ValueError, since retries could then slip through.
        """
        ...


class SqliteEventClaims(SqliteFile):
    def claim_event(self, event_id: str, ttl_s: float = 3600) -> bool:
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
