"""The wiki's inbox and page watches on PostgreSQL: `PostgresInboxRequests` and `PostgresPageWatches`
on `PostgresDatabase` (bot/state/postgres.py), with the tables of their migration. The rules are
those of the SQLite records (bot/state/requests.py, bot/state/watches.py); here is only their SQL.

Every call is safe to repeat after a lost connection: a filing is keyed by the request's id, a
lease is recognised by its owner, and a finish only applies for the owner that holds the lease.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import fields, replace

from bot.state.postgres import Connection, PostgresDatabase
from bot.state.requests import (
    COLUMNS,
    NEW_COLUMNS,
    InboxRequest,
    NewRequest,
    file_with_id,
    request_from_row,
    request_values,
)
from bot.state.watches import COLUMNS as WATCH_COLUMNS
from bot.state.watches import PageWatch

INBOX_SCHEMA = """
CREATE TABLE sakuin_inbox_requests (
    id              text PRIMARY KEY,
    question        text NOT NULL,
    channel         text NOT NULL,
    thread_ts       text NOT NULL,
    file            text NOT NULL,
    content         text NOT NULL,
    asked_at        double precision NOT NULL,
    lang            text NOT NULL,
    status          text NOT NULL DEFAULT 'open',
    answered_at     double precision,
    pushed          boolean NOT NULL DEFAULT false,
    attempts        integer NOT NULL DEFAULT 0,
    next_attempt_at double precision NOT NULL DEFAULT 0,
    error           text,
    delivery_owner  text,
    delivery_until  double precision NOT NULL DEFAULT 0,
    answer_owner    text,
    answer_until    double precision NOT NULL DEFAULT 0
);
CREATE INDEX sakuin_inbox_requests_pending ON sakuin_inbox_requests (pushed, next_attempt_at);
CREATE INDEX sakuin_inbox_requests_status ON sakuin_inbox_requests (status, asked_at);
CREATE INDEX sakuin_inbox_requests_file ON sakuin_inbox_requests (file);
CREATE TABLE sakuin_page_watches (
    channel     text NOT NULL,
    path        text NOT NULL,
    title       text NOT NULL,
    snapshot    text NOT NULL,
    watched_at  double precision NOT NULL,
    changed_at  double precision,
    owner       text,
    lease_until double precision NOT NULL DEFAULT 0,
    PRIMARY KEY (channel, path)
);
CREATE INDEX sakuin_page_watches_path ON sakuin_page_watches (path);
CREATE INDEX sakuin_page_watches_changed ON sakuin_page_watches (changed_at);
"""
"""The inbox's requests and the pages channels watch (migration 3)."""


class PostgresInboxRequests(PostgresDatabase):
    def add_request(self, request: NewRequest) -> tuple[InboxRequest, bool]:
        def add(conn: Connection) -> tuple[InboxRequest, bool]:
            # One filing at a time: two requests may want one file name.
            conn.execute("LOCK TABLE sakuin_inbox_requests IN SHARE ROW EXCLUSIVE MODE")
            found = _pg_request(conn, request.id)
            if found is not None:
                return found, False
            filed = request
            taken = conn.execute("SELECT 1 FROM sakuin_inbox_requests WHERE file = %s", (request.file,))
            if taken.fetchone():
                filed = replace(request, file=file_with_id(request.file, request.id))
            conn.execute(
                f"INSERT INTO sakuin_inbox_requests ({NEW_COLUMNS}, next_attempt_at)"  # type: ignore[arg-type]
                f" VALUES ({', '.join('%s' for _ in fields(NewRequest))}, %s)",
                (*request_values(filed), filed.asked_at),
            )
            added = _pg_request(conn, request.id)
            assert added is not None
            return added, True

        return self._transaction(add)

    def inbox_request(self, request_id: str) -> InboxRequest | None:
        return self._transaction(lambda conn: _pg_request(conn, request_id))

    def inbox_requests(self, status: str | None = None) -> tuple[InboxRequest, ...]:
        def select(conn: Connection) -> tuple[InboxRequest, ...]:
            rows = conn.execute(
                f"SELECT {COLUMNS} FROM sakuin_inbox_requests"  # type: ignore[arg-type]
                " WHERE %s::text IS NULL OR status = %s ORDER BY asked_at DESC, id",
                (status, status),
            ).fetchall()
            return tuple(request_from_row(row) for row in rows)

        return self._transaction(select)

    def claim_deliveries(self, owner: str, lease_s: float, limit: int = 50) -> tuple[InboxRequest, ...]:
        now = self._clock()

        def claim(conn: Connection) -> tuple[InboxRequest, ...]:
            rows = conn.execute(
                "UPDATE sakuin_inbox_requests SET delivery_owner = %s, delivery_until = %s WHERE id IN"
                " (SELECT id FROM sakuin_inbox_requests WHERE NOT pushed AND next_attempt_at <= %s"
                " AND (delivery_until <= %s OR delivery_owner = %s) ORDER BY asked_at, id LIMIT %s"
                f" FOR UPDATE SKIP LOCKED) RETURNING {COLUMNS}",  # type: ignore[arg-type]
                (owner, now + lease_s, now, now, owner, limit),
            ).fetchall()
            return tuple(sorted((request_from_row(row) for row in rows), key=lambda r: (r.asked_at, r.id)))

        return self._transaction(claim)

    def record_delivery(self, request_id: str, owner: str, content: str) -> None:
        self._transaction(
            lambda conn: conn.execute(
                "UPDATE sakuin_inbox_requests SET pushed = (content = %s), attempts = 0, error = NULL,"
                " delivery_owner = NULL, delivery_until = 0 WHERE id = %s AND delivery_owner = %s",
                (content, request_id, owner),
            )
        )

    def fail_delivery(self, request_id: str, owner: str, error: str, retry_in_s: float) -> None:
        now = self._clock()
        self._transaction(
            lambda conn: conn.execute(
                "UPDATE sakuin_inbox_requests SET attempts = attempts + 1, error = %s, next_attempt_at = %s,"
                " delivery_owner = NULL, delivery_until = 0 WHERE id = %s AND delivery_owner = %s",
                (error, now + retry_in_s, request_id, owner),
            )
        )

    def next_delivery_at(self) -> float | None:
        def select(conn: Connection) -> float | None:
            row = conn.execute(
                "SELECT min(greatest(next_attempt_at, delivery_until)) FROM sakuin_inbox_requests"
                " WHERE NOT pushed"
            ).fetchone()
            return row[0] if row else None

        return self._transaction(select)

    def claim_answer(self, request_id: str, owner: str, lease_s: float) -> bool:
        now = self._clock()

        def claim(conn: Connection) -> bool:
            row = conn.execute(
                "UPDATE sakuin_inbox_requests SET answer_owner = %s, answer_until = %s"
                " WHERE id = %s AND status = 'open' AND (answer_until <= %s OR answer_owner = %s)"
                " RETURNING id",
                (owner, now + lease_s, request_id, now, owner),
            ).fetchone()
            return row is not None

        return self._transaction(claim)

    def mark_answered(self, request_id: str, owner: str, content: str) -> bool:
        now = self._clock()

        def mark(conn: Connection) -> bool:
            row = conn.execute(
                "UPDATE sakuin_inbox_requests SET status = 'answered', answered_at = %s, content = %s,"
                " pushed = false, attempts = 0, next_attempt_at = %s, error = NULL, answer_owner = NULL,"
                " answer_until = 0 WHERE id = %s AND status = 'open' AND answer_owner = %s RETURNING id",
                (now, content, now, request_id, owner),
            ).fetchone()
            if row is not None:
                return True
            # Our own earlier attempt may have committed before its connection broke.
            done = conn.execute(
                "SELECT 1 FROM sakuin_inbox_requests WHERE id = %s AND status = 'answered' AND content = %s",
                (request_id, content),
            ).fetchone()
            return done is not None

        return self._transaction(mark)

    def release_answer(self, request_id: str, owner: str) -> None:
        self._transaction(
            lambda conn: conn.execute(
                "UPDATE sakuin_inbox_requests SET answer_owner = NULL, answer_until = 0"
                " WHERE id = %s AND answer_owner = %s",
                (request_id, owner),
            )
        )

    def expire_requests(self, asked_before: float) -> int:
        now = self._clock()

        def expire(conn: Connection) -> int:
            cursor = conn.execute(
                "UPDATE sakuin_inbox_requests SET status = 'expired'"
                " WHERE status = 'open' AND asked_at < %s AND answer_until <= %s",
                (asked_before, now),
            )
            return cursor.rowcount

        return self._transaction(expire)


def _pg_request(conn: Connection, request_id: str) -> InboxRequest | None:
    row = conn.execute(
        f"SELECT {COLUMNS} FROM sakuin_inbox_requests WHERE id = %s",  # type: ignore[arg-type]
        (request_id,),
    ).fetchone()
    return request_from_row(row) if row else None


class PostgresPageWatches(PostgresDatabase):
    def watch_page(self, channel: str, path: str, title: str, snapshot: str) -> bool:
        now = self._clock()

        def watch(conn: Connection) -> bool:
            row = conn.execute(
                "INSERT INTO sakuin_page_watches (channel, path, title, snapshot, watched_at)"
                " VALUES (%s, %s, %s, %s, %s) ON CONFLICT (channel, path) DO NOTHING RETURNING channel",
                (channel, path, title, snapshot, now),
            ).fetchone()
            return row is not None

        return self._transaction(watch)

    def unwatch_page(self, channel: str, path: str) -> bool:
        def unwatch(conn: Connection) -> bool:
            row = conn.execute(
                "DELETE FROM sakuin_page_watches WHERE channel = %s AND path = %s RETURNING channel",
                (channel, path),
            ).fetchone()
            return row is not None

        return self._transaction(unwatch)

    def page_watches(self, channel: str | None = None) -> tuple[PageWatch, ...]:
        def select(conn: Connection) -> tuple[PageWatch, ...]:
            rows = conn.execute(
                f"SELECT {WATCH_COLUMNS} FROM sakuin_page_watches"  # type: ignore[arg-type]
                " WHERE %s::text IS NULL OR channel = %s ORDER BY channel, title",
                (channel, channel),
            ).fetchall()
            return tuple(PageWatch(*row) for row in rows)

        return self._transaction(select)

    def note_page_changes(self, paths: Sequence[str]) -> int:
        now = self._clock()

        def note(conn: Connection) -> int:
            cursor = conn.execute(
                "UPDATE sakuin_page_watches SET changed_at = CASE WHEN changed_at IS NULL OR lease_until > %s"
                " THEN %s ELSE changed_at END WHERE path = ANY(%s)",
                (now, now, list(dict.fromkeys(paths))),
            )
            return cursor.rowcount

        return self._transaction(note)

    def claim_page_changes(self, owner: str, changed_before: float, lease_s: float) -> tuple[PageWatch, ...]:
        now = self._clock()

        def claim(conn: Connection) -> tuple[PageWatch, ...]:
            rows = conn.execute(
                "UPDATE sakuin_page_watches SET owner = %s, lease_until = %s WHERE (channel, path) IN"
                " (SELECT channel, path FROM sakuin_page_watches WHERE changed_at IS NOT NULL"
                " AND changed_at <= %s AND (lease_until <= %s OR owner = %s) FOR UPDATE SKIP LOCKED)"
                f" RETURNING {WATCH_COLUMNS}",  # type: ignore[arg-type]
                (owner, now + lease_s, changed_before, now, owner),
            ).fetchall()
            watches = (PageWatch(*row) for row in rows)
            return tuple(sorted(watches, key=lambda w: (w.changed_at or 0.0, w.channel, w.path)))

        return self._transaction(claim)

    def finish_page_change(
        self, watch: PageWatch, owner: str, *, path_now: str | None, title: str, snapshot: str
    ) -> None:
        channel, path = watch.channel, watch.path

        def finish(conn: Connection) -> None:
            row = conn.execute(
                "SELECT owner FROM sakuin_page_watches WHERE channel = %s AND path = %s FOR UPDATE",
                (channel, path),
            ).fetchone()
            if row is None or row[0] != owner:
                return
            taken = (
                path_now is not None
                and path_now != path
                and conn.execute(
                    "SELECT 1 FROM sakuin_page_watches WHERE channel = %s AND path = %s", (channel, path_now)
                ).fetchone()
            )
            if path_now is None or taken:
                conn.execute(
                    "DELETE FROM sakuin_page_watches WHERE channel = %s AND path = %s", (channel, path)
                )
                return
            conn.execute(
                "UPDATE sakuin_page_watches SET path = %s, title = %s, snapshot = %s,"
                " changed_at = CASE WHEN changed_at = %s THEN NULL ELSE changed_at END, owner = NULL,"
                " lease_until = 0 WHERE channel = %s AND path = %s",
                (path_now, title, snapshot, watch.changed_at, channel, path),
            )

        self._transaction(finish)

    def release_page_change(self, watch: PageWatch, owner: str) -> None:
        self._transaction(
            lambda conn: conn.execute(
                "UPDATE sakuin_page_watches SET owner = NULL, lease_until = 0"
                " WHERE channel = %s AND path = %s AND owner = %s",
                (watch.channel, watch.path, owner),
            )
        )

    def next_page_change(self) -> float | None:
        def select(conn: Connection) -> float | None:
            row = conn.execute("SELECT min(changed_at) FROM sakuin_page_watches").fetchone()
            return row[0] if row else None

        return self._transaction(select)
