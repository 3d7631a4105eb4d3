"""The state database on PostgreSQL (``STATE_DB=postgresql://…``): shared by replicas on any machine.

The same records and guarantees as the SQLite file (bot/state/events.py, digest_runs.py,
threads.py, feedback.py), across machines: each call is one short transaction in which the rows
it decides on are locked (``SELECT … FOR UPDATE``) or written under a unique constraint (``INSERT
… ON CONFLICT``), so of two replicas asking at the same moment exactly one wins.
`PostgresDatabase` holds the connections; `PostgresEventClaims`, `PostgresDigestRuns`,
`PostgresFollowedThreads` and `PostgresAnswerFeedback` the records of each kind of state.

Connections come from a psycopg_pool pool that checks each connection before handing it out and
replaces broken ones. When the database goes away (a restart, a fail-over) a call waits and
retries for up to ``outage_s`` seconds, then raises `StateUnavailable`: an outage delays, it never
answers twice or drops. A connection can break after the server committed but before it said
so, so every call must be safe to repeat for the same caller (an event claim carries a token that
recognises its own earlier win; the digest steps are fenced by the run's owner).

The schema is created on first use, under an advisory lock (one replica at a time), and
versioned in ``sakuin_schema``: migration N brings it from version N-1 to N. A database written
by a newer sakuin is refused rather than misread.
"""

from __future__ import annotations

import json
import logging
import time
import uuid
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

import psycopg
from psycopg_pool import ConnectionPool, PoolTimeout

from bot.state.digest_runs import DigestRun, LeaseLost, RunStatus, held_by_other, run_from_row
from bot.state.events import MIN_EVENT_TTL_S
from bot.state.feedback import VOTES, UnansweredQuestion, Vote, VoteValue, voter_key
from bot.state.threads import FollowedThread
from config.credentials import redact_text, redact_url

log = logging.getLogger("sakuin.state")

T = TypeVar("T")
Connection = psycopg.Connection[tuple[Any, ...]]

SCHEMA_LOCK = 0x5A4B_5549_4E00
"""The advisory lock key under which replicas create or upgrade the schema one at a time."""
OUTAGE_S = 60.0
"""How long a call waits for the database to come back before it raises StateUnavailable."""
CONNECT_TIMEOUT_S = 5
PSYCOPG_LOGGERS = ("psycopg", "psycopg.pool")


class StateUnavailable(Exception):
    """The database could not be reached for ``outage_s`` seconds (the message is redacted)."""


class SchemaTooNew(Exception):
    """The database was set up by a newer sakuin; this one would misread it."""


class PostgresDatabase:
    """One pool per store, shared by threads; ``migrations[n - 1]`` is the SQL of version n."""

    def __init__(
        self,
        url: str,
        migrations: Sequence[str],
        *,
        clock: Callable[[], float] = time.time,
        outage_s: float = OUTAGE_S,
        max_connections: int = 4,
    ) -> None:
        self.url = str(url)
        self._clock = clock
        self.outage_s = outage_s
        self._migrations = tuple(migrations)
        self.schema_version = 0
        self._hide_password = _HidePassword(self.url)
        for name in PSYCOPG_LOGGERS:
            logging.getLogger(name).addFilter(self._hide_password)
        self._pool = ConnectionPool(
            self.url,
            min_size=1,
            max_size=max_connections,
            kwargs={"connect_timeout": CONNECT_TIMEOUT_S, "application_name": "sakuin"},
            check=ConnectionPool.check_connection,
            reconnect_timeout=max(outage_s, 1.0),
            name="sakuin-state",
            open=False,
        )
        self._pool.open(wait=False)
        try:
            self.schema_version = self._transaction(self._migrate)
        except BaseException:
            self.close()
            raise

    @property
    def location(self) -> str:
        """Where the state lives, without the password (for logs and ``sakuin doctor``)."""
        return redact_url(self.url)

    def close(self) -> None:
        self._pool.close()
        for name in PSYCOPG_LOGGERS:
            logging.getLogger(name).removeFilter(self._hide_password)

    def _transaction(self, work: Callable[[Connection], T]) -> T:
        """Run ``work`` in one transaction, retried while the database is unreachable."""
        deadline = time.monotonic() + self.outage_s
        delay = 0.05
        failures = 0
        while True:
            try:
                with (
                    self._pool.connection(timeout=max(deadline - time.monotonic(), 0.1)) as conn,
                    conn.transaction(),
                ):
                    result = work(conn)
                if failures:
                    log.info("state database %s is reachable again", self.location)
                return result
            except (psycopg.OperationalError, PoolTimeout) as error:
                failures += 1
                reason = redact_text(_first_line(error), self.url)
                if time.monotonic() + delay > deadline:
                    raise StateUnavailable(
                        f"state database {self.location} unreachable for {self.outage_s:.0f} s: {reason}"
                    ) from None
                if failures == 1:
                    log.warning("state database %s: %s; retrying", self.location, reason)
                time.sleep(delay)
                delay = min(delay * 2, 2.0)

    def _migrate(self, conn: Connection) -> int:
        """Create or upgrade the schema; return the version in use."""
        conn.execute("SELECT pg_advisory_xact_lock(%s)", (SCHEMA_LOCK,))
        conn.execute("CREATE TABLE IF NOT EXISTS sakuin_schema (version integer NOT NULL)")
        row = conn.execute("SELECT max(version) FROM sakuin_schema").fetchone()
        current = (row[0] if row else None) or 0
        latest = len(self._migrations)
        if current > latest:
            raise SchemaTooNew(
                f"the state database has schema version {current}; this sakuin knows up to {latest}:"
                " upgrade sakuin (or point STATE_DB at another database)"
            )
        for version in range(current + 1, latest + 1):
            conn.execute(self._migrations[version - 1])  # type: ignore[arg-type]
            conn.execute("INSERT INTO sakuin_schema (version) VALUES (%s)", (version,))
            log.info("state database %s: schema version %d", self.location, version)
        return latest


# -- the records of each kind of state ------------------------------------------------------

EVENTS_SCHEMA = """
CREATE TABLE sakuin_seen_events (
    event_id   text PRIMARY KEY,
    expires_at double precision NOT NULL,
    claimed_by text NOT NULL
);
CREATE INDEX sakuin_seen_events_expiry ON sakuin_seen_events (expires_at);
"""
EXPIRED_PER_CLAIM = 100
"""Expired ids a PostgreSQL claim removes in passing (skipping those another replica is removing)."""


DIGEST_RUNS_SCHEMA = """
CREATE TABLE sakuin_digest_runs (
    day             text NOT NULL,
    channel         text NOT NULL,
    status          text NOT NULL,
    owner           text,
    lease_until     double precision NOT NULL DEFAULT 0,
    attempts        integer NOT NULL DEFAULT 0,
    next_attempt_at double precision NOT NULL DEFAULT 0,
    started_at      double precision NOT NULL,
    plan            text,
    posted          text NOT NULL DEFAULT '{}',
    inflight        integer,
    error           text,
    updated_at      double precision NOT NULL,
    finished_by     text,
    PRIMARY KEY (day, channel)
);
"""
"""The SQLite columns in the same order (`_run` reads either), plus who finished a run, so that a
finish repeated after a lost connection is recognised as its owner's."""


class PostgresEventClaims(PostgresDatabase):
    def claim_event(self, event_id: str, ttl_s: float = 3600) -> bool:
        if ttl_s < MIN_EVENT_TTL_S:
            raise ValueError(f"event TTL must be at least {MIN_EVENT_TTL_S:.0f} s, got {ttl_s}")
        token = uuid.uuid4().hex
        now = self._clock()

        def claim(conn: Connection) -> bool:
            conn.execute(
                "DELETE FROM sakuin_seen_events WHERE event_id IN (SELECT event_id FROM sakuin_seen_events"
                " WHERE expires_at <= %s LIMIT %s FOR UPDATE SKIP LOCKED)",
                (now, EXPIRED_PER_CLAIM),
            )
            won = conn.execute(
                "INSERT INTO sakuin_seen_events AS seen (event_id, expires_at, claimed_by)"
                " VALUES (%s, %s, %s) ON CONFLICT (event_id) DO UPDATE"
                " SET expires_at = EXCLUDED.expires_at, claimed_by = EXCLUDED.claimed_by"
                " WHERE seen.expires_at <= %s RETURNING claimed_by",
                (event_id, now + ttl_s, token, now),
            ).fetchone()
            if won is not None:
                return True
            # Our own earlier attempt may have committed before its connection broke.
            row = conn.execute(
                "SELECT claimed_by FROM sakuin_seen_events WHERE event_id = %s", (event_id,)
            ).fetchone()
            return row is not None and row[0] == token

        return self._transaction(claim)


class PostgresDigestRuns(PostgresDatabase):
    """The same steps as `SqliteDigestRuns`, each one transaction with the run's row locked."""

    def run(self, day: str, channel: str) -> DigestRun | None:
        return self._transaction(lambda conn: _pg_select(conn, day, channel))

    def unfinished_runs(self, since_day: str) -> list[DigestRun]:
        def select(conn: Connection) -> list[DigestRun]:
            rows = conn.execute(
                "SELECT * FROM sakuin_digest_runs WHERE day >= %s AND status != %s ORDER BY day, channel",
                (since_day, RunStatus.DONE.value),
            ).fetchall()
            return [run_from_row(row) for row in rows]

        return self._transaction(select)

    def claim_run(
        self, day: str, channel: str, owner: str, lease_s: float, *, ignore_backoff: bool = False
    ) -> DigestRun | None:
        now = self._clock()

        def claim(conn: Connection) -> DigestRun | None:
            created = conn.execute(
                "INSERT INTO sakuin_digest_runs (day, channel, status, owner, lease_until, attempts,"
                " started_at, updated_at) VALUES (%s, %s, %s, %s, %s, 1, %s, %s)"
                " ON CONFLICT (day, channel) DO NOTHING RETURNING day",
                (day, channel, RunStatus.RUNNING.value, owner, now + lease_s, now, now),
            ).fetchone()
            if created is None:
                run = _pg_select(conn, day, channel, lock=True)
                if (
                    run is None
                    or run.done
                    or held_by_other(run, owner, now)
                    or (not ignore_backoff and run.next_attempt_at > now)
                ):
                    return None
                _pg_update(
                    conn,
                    day,
                    channel,
                    status=RunStatus.RUNNING.value,
                    owner=owner,
                    lease_until=now + lease_s,
                    attempts=run.attempts + 1,
                    updated_at=now,
                )
            return _pg_select(conn, day, channel)

        return self._transaction(claim)

    def set_plan(self, day: str, channel: str, owner: str, plan: list[dict]) -> tuple[dict, ...]:
        def freeze(conn: Connection) -> tuple[dict, ...]:
            run = _pg_owned(conn, day, channel, owner)
            if run.plan is not None:
                return run.plan
            _pg_update(
                conn, day, channel, plan=json.dumps(plan, ensure_ascii=False), updated_at=self._clock()
            )
            return tuple(plan)

        return self._transaction(freeze)

    def renew_lease(self, day: str, channel: str, owner: str, lease_s: float) -> None:
        now = self._clock()

        def renew(conn: Connection) -> None:
            _pg_owned(conn, day, channel, owner)
            _pg_update(conn, day, channel, lease_until=now + lease_s, updated_at=now)

        self._transaction(renew)

    def begin_part(self, day: str, channel: str, owner: str, part: int, lease_s: float) -> None:
        now = self._clock()

        def begin(conn: Connection) -> None:
            _pg_owned(conn, day, channel, owner)
            _pg_update(conn, day, channel, inflight=part, lease_until=now + lease_s, updated_at=now)

        self._transaction(begin)

    def record_part(self, day: str, channel: str, part: int, ts: str) -> None:
        def record(conn: Connection) -> None:
            run = _pg_select(conn, day, channel, lock=True)
            if run is None:
                raise KeyError(f"no digest run {day} {channel}")
            posted = {str(index): value for index, value in run.posted.items()}
            posted.setdefault(str(part), ts)
            inflight = None if run.inflight == part else run.inflight
            _pg_update(
                conn, day, channel, posted=json.dumps(posted), inflight=inflight, updated_at=self._clock()
            )

        self._transaction(record)

    def finish_run(self, day: str, channel: str, owner: str) -> None:
        def finish(conn: Connection) -> None:
            finished = conn.execute(
                "SELECT finished_by FROM sakuin_digest_runs WHERE day = %s AND channel = %s AND status = %s",
                (day, channel, RunStatus.DONE.value),
            ).fetchone()
            if finished is not None and finished[0] == owner:
                return  # our own earlier attempt committed before its connection broke
            _pg_owned(conn, day, channel, owner)
            _pg_update(
                conn,
                day,
                channel,
                status=RunStatus.DONE.value,
                owner=None,
                lease_until=0,
                inflight=None,
                error=None,
                finished_by=owner,
                updated_at=self._clock(),
            )

        self._transaction(finish)

    def fail_run(self, day: str, channel: str, owner: str, error: str, retry_in_s: float) -> None:
        now = self._clock()

        def fail(conn: Connection) -> None:
            run = _pg_select(conn, day, channel, lock=True)
            if run is None or run.owner != owner or run.done:
                return
            _pg_update(
                conn,
                day,
                channel,
                status=RunStatus.FAILED.value,
                owner=None,
                lease_until=0,
                next_attempt_at=now + retry_in_s,
                error=error[:500],
                updated_at=now,
            )

        self._transaction(fail)


def _pg_select(conn: Connection, day: str, channel: str, *, lock: bool = False) -> DigestRun | None:
    row = conn.execute(
        "SELECT * FROM sakuin_digest_runs WHERE day = %s AND channel = %s" + (" FOR UPDATE" if lock else ""),
        (day, channel),
    ).fetchone()
    return run_from_row(row) if row else None


def _pg_owned(conn: Connection, day: str, channel: str, owner: str) -> DigestRun:
    run = _pg_select(conn, day, channel, lock=True)
    if run is None or run.owner != owner or run.done:
        raise LeaseLost(f"digest run {day} {channel} is not held by {owner}")
    return run


def _pg_update(conn: Connection, day: str, channel: str, **values: object) -> None:
    """UPDATE one run; the column names come from this module only, never from data."""
    assignments = ", ".join(f"{name} = %s" for name in values)
    conn.execute(
        f"UPDATE sakuin_digest_runs SET {assignments} WHERE day = %s AND channel = %s",  # type: ignore[arg-type]
        (*values.values(), day, channel),
    )


CONVERSATIONS_SCHEMA = """
CREATE TABLE sakuin_followed_threads (
    channel    text NOT NULL,
    thread_ts  text NOT NULL,
    subject    text,
    expires_at double precision NOT NULL,
    stopped_by text,
    PRIMARY KEY (channel, thread_ts)
);
CREATE INDEX sakuin_followed_threads_expiry ON sakuin_followed_threads (expires_at);
CREATE TABLE sakuin_answer_votes (
    voter    text PRIMARY KEY,
    question text NOT NULL,
    pages    text NOT NULL,
    vote     text NOT NULL CHECK (vote IN ('up', 'down')),
    at       double precision NOT NULL
);
CREATE INDEX sakuin_answer_votes_at ON sakuin_answer_votes (at);
CREATE TABLE sakuin_unanswered_questions (
    id       text PRIMARY KEY,
    question text NOT NULL,
    at       double precision NOT NULL
);
CREATE INDEX sakuin_unanswered_questions_at ON sakuin_unanswered_questions (at);
"""
"""Followed threads and answer feedback (bot/state/threads.py, feedback.py). A stop records who
stopped the thread, and a noted question carries an id made by its caller, so that a call repeated
after a lost connection is recognised rather than applied twice."""


class PostgresFollowedThreads(PostgresDatabase):
    def follow_thread(self, channel: str, thread_ts: str, subject: str | None, follow_s: float) -> None:
        now = self._clock()

        def follow(conn: Connection) -> None:
            conn.execute(
                "DELETE FROM sakuin_followed_threads WHERE (channel, thread_ts) IN (SELECT channel, thread_ts"
                " FROM sakuin_followed_threads WHERE expires_at <= %s LIMIT %s FOR UPDATE SKIP LOCKED)",
                (now, EXPIRED_PER_CLAIM),
            )
            conn.execute(
                "INSERT INTO sakuin_followed_threads AS followed (channel, thread_ts, subject, expires_at)"
                " VALUES (%s, %s, %s, %s) ON CONFLICT (channel, thread_ts) DO UPDATE SET"
                " subject = COALESCE(EXCLUDED.subject, CASE WHEN followed.expires_at > %s"
                " THEN followed.subject END), expires_at = EXCLUDED.expires_at, stopped_by = NULL",
                (channel, thread_ts, subject, now + follow_s, now),
            )

        self._transaction(follow)

    def followed_thread(self, channel: str, thread_ts: str) -> FollowedThread | None:
        def select(conn: Connection) -> FollowedThread | None:
            row = conn.execute(
                "SELECT subject, expires_at FROM sakuin_followed_threads"
                " WHERE channel = %s AND thread_ts = %s AND expires_at > %s",
                (channel, thread_ts, self._clock()),
            ).fetchone()
            return FollowedThread(channel, thread_ts, row[0], row[1]) if row else None

        return self._transaction(select)

    def touch_thread(self, channel: str, thread_ts: str, follow_s: float) -> None:
        now = self._clock()
        self._transaction(
            lambda conn: conn.execute(
                "UPDATE sakuin_followed_threads SET expires_at = %s"
                " WHERE channel = %s AND thread_ts = %s AND expires_at > %s",
                (now + follow_s, channel, thread_ts, now),
            )
        )

    def forget_thread(self, channel: str, thread_ts: str) -> bool:
        token = uuid.uuid4().hex
        now = self._clock()

        def forget(conn: Connection) -> bool:
            stopped = conn.execute(
                "UPDATE sakuin_followed_threads SET expires_at = 0, stopped_by = %s"
                " WHERE channel = %s AND thread_ts = %s AND expires_at > %s RETURNING stopped_by",
                (token, channel, thread_ts, now),
            ).fetchone()
            if stopped is not None:
                return True
            # Our own earlier attempt may have committed before its connection broke.
            row = conn.execute(
                "SELECT stopped_by FROM sakuin_followed_threads WHERE channel = %s AND thread_ts = %s",
                (channel, thread_ts),
            ).fetchone()
            return row is not None and row[0] == token

        return self._transaction(forget)


class PostgresAnswerFeedback(PostgresDatabase):
    def record_vote(
        self, channel: str, message_ts: str, user: str, question: str, pages: Sequence[str], vote: VoteValue
    ) -> None:
        if vote not in VOTES:
            raise ValueError(f"a vote is 'up' or 'down', not {vote!r}")
        values = (
            voter_key(channel, message_ts, user),
            question,
            json.dumps(list(pages), ensure_ascii=False),
            vote,
            self._clock(),
        )
        self._transaction(
            lambda conn: conn.execute(
                "INSERT INTO sakuin_answer_votes (voter, question, pages, vote, at)"
                " VALUES (%s, %s, %s, %s, %s)"
                " ON CONFLICT (voter) DO UPDATE SET vote = EXCLUDED.vote, at = EXCLUDED.at",
                values,
            )
        )

    def note_unanswered(self, question: str) -> None:
        values = (uuid.uuid4().hex, question, self._clock())
        self._transaction(
            lambda conn: conn.execute(
                "INSERT INTO sakuin_unanswered_questions (id, question, at) VALUES (%s, %s, %s)"
                " ON CONFLICT (id) DO NOTHING",
                values,
            )
        )

    def votes(self, since: float | None = None) -> tuple[Vote, ...]:
        def select(conn: Connection) -> tuple[Vote, ...]:
            rows = conn.execute(
                "SELECT question, vote, pages, at FROM sakuin_answer_votes WHERE at >= %s"
                " ORDER BY at DESC, voter",
                (since if since is not None else 0.0,),
            ).fetchall()
            return tuple(Vote(q, vote, tuple(json.loads(pages)), at) for q, vote, pages, at in rows)

        return self._transaction(select)

    def unanswered(self, since: float | None = None) -> tuple[UnansweredQuestion, ...]:
        def select(conn: Connection) -> tuple[UnansweredQuestion, ...]:
            rows = conn.execute(
                "SELECT question, at FROM sakuin_unanswered_questions WHERE at >= %s ORDER BY at DESC, id",
                (since if since is not None else 0.0,),
            ).fetchall()
            return tuple(UnansweredQuestion(question, at) for question, at in rows)

        return self._transaction(select)


class _HidePassword(logging.Filter):
    """Redacts the URL's password from what psycopg itself logs (its pool's connection errors)."""

    def __init__(self, url: str) -> None:
        super().__init__()
        self.url = url

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        hidden = redact_text(message, self.url)
        if hidden != message:
            record.msg, record.args = hidden, None
        return True


def _first_line(error: BaseException) -> str:
    text = str(error).strip().splitlines()
    return text[0] if text else type(error).__name__
