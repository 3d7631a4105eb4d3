"""The wiki's inbox: questions users asked the wiki to cover, each one Markdown file for its agents.

A request is filed once (its id is made from where it was asked, so a second click, or the same
click reaching another replica, finds the first), and its file is kept here until it has landed
(pushed to the inbox branch, or written into the vault's inbox folder): a remote that is down or a
restart loses nothing. Delivery and the later answer in the thread are each leased to one process
at a time, so of several replicas exactly one pushes a file and one replies.

No Slack user id is kept: a request holds the question, where to answer it (channel and thread),
its file and that file's text.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass, fields, replace
from typing import Literal, Protocol

from bot.state.sqlite import SqliteFile

RequestStatus = Literal["open", "answered", "expired"]
OPEN, ANSWERED, EXPIRED = "open", "answered", "expired"

SCHEMA = """
CREATE TABLE IF NOT EXISTS inbox_requests (
    id              TEXT PRIMARY KEY,
    question        TEXT NOT NULL,
    channel         TEXT NOT NULL,
    thread_ts       TEXT NOT NULL,
    file            TEXT NOT NULL,
    content         TEXT NOT NULL,
    asked_at        REAL NOT NULL,
    lang            TEXT NOT NULL,
    status          TEXT NOT NULL DEFAULT 'open',
    answered_at     REAL,
    pushed          INTEGER NOT NULL DEFAULT 0,
    attempts        INTEGER NOT NULL DEFAULT 0,
    next_attempt_at REAL NOT NULL DEFAULT 0,
    error           TEXT,
    delivery_owner  TEXT,
    delivery_until  REAL NOT NULL DEFAULT 0,
    answer_owner    TEXT,
    answer_until    REAL NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS inbox_requests_pending ON inbox_requests (pushed, next_attempt_at);
CREATE INDEX IF NOT EXISTS inbox_requests_status ON inbox_requests (status, asked_at);
"""


@dataclass(frozen=True)
class NewRequest:
    """A request as it is filed."""

    id: str
    question: str
    channel: str
    thread_ts: str
    """Where the wiki's later answer goes: the thread the question was asked in."""
    file: str
    """Vault-relative path of its Markdown file (``inbox/sakuin/2026-10-15-….md``)."""
    content: str
    """The file's text as it should land."""
    asked_at: float
    lang: str
    """The question's language, for the later answer."""


@dataclass(frozen=True)
class InboxRequest(NewRequest):
    status: str = OPEN
    answered_at: float | None = None
    pushed: bool = False
    """Whether the file's current text has landed (pushed, or written into the vault)."""
    attempts: int = 0
    """Deliveries failed in a row."""
    next_attempt_at: float = 0.0
    error: str | None = None


COLUMNS = ", ".join(field.name for field in fields(InboxRequest))
NEW_COLUMNS = ", ".join(field.name for field in fields(NewRequest))


def request_from_row(row: tuple) -> InboxRequest:
    values = dict(zip((field.name for field in fields(InboxRequest)), row, strict=True))
    return InboxRequest(**{**values, "pushed": bool(values["pushed"])})


def request_values(request: NewRequest) -> tuple:
    return tuple(getattr(request, field.name) for field in fields(NewRequest))


def file_with_id(file: str, request_id: str) -> str:
    """The file name of a request whose name another request has (same day, same words)."""
    stem = file.removesuffix(".md")
    return f"{stem}-{request_id[:6]}.md"


class InboxRequests(Protocol):
    def add_request(self, request: NewRequest) -> tuple[InboxRequest, bool]:
        """File ``request`` unless its id is filed already; the request as filed and whether this
        call filed it. A file name another request has gets the id appended (`file_with_id`)."""
        ...

    def inbox_request(self, request_id: str) -> InboxRequest | None: ...

    def inbox_requests(self, status: str | None = None) -> tuple[InboxRequest, ...]:
        """Every request (or those of one status), newest first."""
        ...

    def claim_deliveries(self, owner: str, lease_s: float, limit: int = 50) -> tuple[InboxRequest, ...]:
        """The requests whose file has not landed, due for an attempt and not leased to another
        process, now leased to ``owner`` for ``lease_s`` seconds."""
        ...

    def record_delivery(self, request_id: str, owner: str, content: str) -> None:
        """``content`` landed: the request is delivered unless its text changed meanwhile (then it
        is due again at once). The lease ends."""
        ...

    def fail_delivery(self, request_id: str, owner: str, error: str, retry_in_s: float) -> None:
        """The delivery failed: tried again in ``retry_in_s`` seconds. The lease ends."""
        ...

    def next_delivery_at(self) -> float | None:
        """When the next delivery is due (seconds since the epoch); None when every file landed."""
        ...

    def claim_answer(self, request_id: str, owner: str, lease_s: float) -> bool:
        """Lease the later answer of an open request to ``owner``; False when it is not open, or
        another process holds the lease."""
        ...

    def mark_answered(self, request_id: str, owner: str, content: str) -> bool:
        """The answer was posted by ``owner``: the request is answered, its file's new text due for
        delivery. False (and nothing changes) when ``owner`` does not hold the lease."""
        ...

    def release_answer(self, request_id: str, owner: str) -> None:
        """The answer could not be posted: another process (or a later change) may try again."""
        ...

    def expire_requests(self, asked_before: float) -> int:
        """Open requests asked before ``asked_before`` are no longer re-asked; how many expired."""
        ...


class SqliteInboxRequests(SqliteFile):
    def add_request(self, request: NewRequest) -> tuple[InboxRequest, bool]:
        with self._transaction() as db:
            found = _select(db, request.id)
            if found is not None:
                return found, False
            if db.execute("SELECT 1 FROM inbox_requests WHERE file = ?", (request.file,)).fetchone():
                request = replace(request, file=file_with_id(request.file, request.id))
            db.execute(
                f"INSERT INTO inbox_requests ({NEW_COLUMNS}, next_attempt_at)"
                f" VALUES ({', '.join('?' for _ in fields(NewRequest))}, ?)",
                (*request_values(request), request.asked_at),
            )
            filed = _select(db, request.id)
        assert filed is not None
        return filed, True

    def inbox_request(self, request_id: str) -> InboxRequest | None:
        with self._reading() as db:
            return _select(db, request_id)

    def inbox_requests(self, status: str | None = None) -> tuple[InboxRequest, ...]:
        with self._reading() as db:
            rows = db.execute(
                f"SELECT {COLUMNS} FROM inbox_requests WHERE ? IS NULL OR status = ?"
                " ORDER BY asked_at DESC, id",
                (status, status),
            ).fetchall()
        return tuple(request_from_row(row) for row in rows)

    def claim_deliveries(self, owner: str, lease_s: float, limit: int = 50) -> tuple[InboxRequest, ...]:
        now = self._clock()
        with self._transaction() as db:
            ids = [
                row[0]
                for row in db.execute(
                    "SELECT id FROM inbox_requests WHERE pushed = 0 AND next_attempt_at <= ?"
                    " AND (delivery_until <= ? OR delivery_owner = ?) ORDER BY asked_at, id LIMIT ?",
                    (now, now, owner, limit),
                )
            ]
            for request_id in ids:
                db.execute(
                    "UPDATE inbox_requests SET delivery_owner = ?, delivery_until = ? WHERE id = ?",
                    (owner, now + lease_s, request_id),
                )
            claimed = [_select(db, request_id) for request_id in ids]
        return tuple(request for request in claimed if request is not None)

    def record_delivery(self, request_id: str, owner: str, content: str) -> None:
        with self._transaction() as db:
            db.execute(
                "UPDATE inbox_requests SET pushed = CASE WHEN content = ? THEN 1 ELSE 0 END,"
                " attempts = 0, error = NULL, delivery_owner = NULL, delivery_until = 0"
                " WHERE id = ? AND delivery_owner = ?",
                (content, request_id, owner),
            )

    def fail_delivery(self, request_id: str, owner: str, error: str, retry_in_s: float) -> None:
        now = self._clock()
        with self._transaction() as db:
            db.execute(
                "UPDATE inbox_requests SET attempts = attempts + 1, error = ?, next_attempt_at = ?,"
                " delivery_owner = NULL, delivery_until = 0 WHERE id = ? AND delivery_owner = ?",
                (error, now + retry_in_s, request_id, owner),
            )

    def next_delivery_at(self) -> float | None:
        with self._reading() as db:
            row = db.execute(
                "SELECT min(max(next_attempt_at, delivery_until)) FROM inbox_requests WHERE pushed = 0"
            ).fetchone()
        return row[0] if row else None

    def claim_answer(self, request_id: str, owner: str, lease_s: float) -> bool:
        now = self._clock()
        with self._transaction() as db:
            cursor = db.execute(
                "UPDATE inbox_requests SET answer_owner = ?, answer_until = ?"
                " WHERE id = ? AND status = 'open' AND (answer_until <= ? OR answer_owner = ?)",
                (owner, now + lease_s, request_id, now, owner),
            )
            return cursor.rowcount == 1

    def mark_answered(self, request_id: str, owner: str, content: str) -> bool:
        now = self._clock()
        with self._transaction() as db:
            cursor = db.execute(
                "UPDATE inbox_requests SET status = 'answered', answered_at = ?, content = ?, pushed = 0,"
                " attempts = 0, next_attempt_at = ?, error = NULL, answer_owner = NULL, answer_until = 0"
                " WHERE id = ? AND status = 'open' AND answer_owner = ?",
                (now, content, now, request_id, owner),
            )
            return cursor.rowcount == 1

    def release_answer(self, request_id: str, owner: str) -> None:
        with self._transaction() as db:
            db.execute(
                "UPDATE inbox_requests SET answer_owner = NULL, answer_until = 0"
                " WHERE id = ? AND answer_owner = ?",
                (request_id, owner),
            )

    def expire_requests(self, asked_before: float) -> int:
        now = self._clock()
        with self._transaction() as db:
            cursor = db.execute(
                "UPDATE inbox_requests SET status = 'expired' WHERE status = 'open' AND asked_at < ?"
                " AND answer_until <= ?",
                (asked_before, now),
            )
            return cursor.rowcount


def _select(db: sqlite3.Connection, request_id: str) -> InboxRequest | None:
    row = db.execute(f"SELECT {COLUMNS} FROM inbox_requests WHERE id = ?", (request_id,)).fetchone()
    return request_from_row(row) if row else None
