"""The state store on PostgreSQL (``STATE_DB=postgresql://…``), shared by every replica.

The same public methods, and the same guarantees, as the SQLite store in bot/state.py, for
replicas on different machines: each method is one short transaction in which the rows it
decides on are locked (``SELECT … FOR UPDATE``) or written with a unique constraint
(``INSERT … ON CONFLICT``), so two replicas asking at the same moment get one answer each and
exactly one of them wins. Digest runs carry the same leases with expiry, so a replica that dies
mid-post is taken over once its lease has passed.

Connections come from a psycopg_pool pool that checks each connection before handing it out and
replaces broken ones. When the database goes away (a restart, a fail-over), a call waits and
retries for up to ``outage_s`` seconds, then raises `StateUnavailable`: an outage delays, it never
answers twice or drops. Since a connection can break after the server committed but before it
said so, every method is safe to repeat for the same caller: an event claim carries a token that
recognises its own earlier win, and the digest methods are fenced by the run's owner.

The schema is created on first use under an advisory lock and versioned in ``sakuin_schema``; a
database written by a newer sakuin is refused rather than misread.
"""

from __future__ import annotations

import json
import logging
import time
import uuid
from collections.abc import Callable
from typing import Any, TypeVar

import psycopg
from psycopg.rows import dict_row
from psycopg_pool import ConnectionPool, PoolTimeout

from bot.state import DONE, FAILED, MIN_EVENT_TTL_S, RUNNING, DigestRun, LeaseLost
from config.credentials import redact_text, redact_url

log = logging.getLogger("sakuin.state")

T = TypeVar("T")

SCHEMA_VERSION = 1
MIGRATIONS: dict[int, str] = {
    1: """
    CREATE TABLE sakuin_seen_events (
        event_id   text PRIMARY KEY,
        expires_at double precision NOT NULL,
        claimed_by text NOT NULL
    );
    CREATE INDEX sakuin_seen_events_expiry ON sakuin_seen_events (expires_at);
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
        finished_by     text,
        updated_at      double precision NOT NULL,
        PRIMARY KEY (day, channel)
    );
    """,
}
"""Version → the SQL that brings the schema from the version before to it. Append, never edit."""
SCHEMA_LOCK = 0x5A4B_5549_4E00
"""The advisory lock key under which replicas create or upgrade the schema one at a time."""
OUTAGE_S = 60.0
"""How long a call waits for the database to come back before it raises StateUnavailable."""
CONNECT_TIMEOUT_S = 5
EXPIRED_PER_CLAIM = 100
"""Expired event ids removed by each claim (skipping rows another replica is removing)."""
PSYCOPG_LOGGERS = ("psycopg", "psycopg.pool")
RUN_COLUMNS = (
    "day, channel, status, owner, lease_until, attempts, next_attempt_at, started_at, plan, posted,"
    " inflight, error"
)


class StateUnavailable(Exception):
    """The database could not be reached for ``outage_s`` seconds (the message is redacted)."""


class SchemaTooNew(Exception):
    """The database was set up by a newer sakuin; this one would misread it."""


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


class PostgresStateStore:
    """Event claims and digest runs in PostgreSQL; one pool per process, shared by threads."""

    def __init__(
        self,
        url: str,
        *,
        clock: Callable[[], float] = time.time,
        outage_s: float = OUTAGE_S,
        max_connections: int = 4,
    ) -> None:
        self.url = str(url)
        self._clock = clock
        self.outage_s = outage_s
        self.schema_version = 0
        self._hide_password = _HidePassword(self.url)
        for name in PSYCOPG_LOGGERS:
            logging.getLogger(name).addFilter(self._hide_password)
        self._pool = ConnectionPool(
            self.url,
            min_size=1,
            max_size=max_connections,
            kwargs={
                "connect_timeout": CONNECT_TIMEOUT_S,
                "application_name": "sakuin",
                "row_factory": dict_row,
            },
            check=ConnectionPool.check_connection,
            reconnect_timeout=max(outage_s, 1.0),
            name="sakuin-state",
            open=False,
        )
        self._pool.open(wait=False)
        try:
            self.schema_version = self._transaction(_migrate)
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

    def __enter__(self) -> PostgresStateStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _transaction(self, work: Callable[[psycopg.Connection[dict[str, Any]]], T]) -> T:
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

    # -- events ---------------------------------------------------------------------------

    def claim_event(self, event_id: str, ttl_s: float = 3600) -> bool:
        """True the first time ``event_id`` is seen within ``ttl_s`` seconds, False for a repeat
        (whichever replica sees it first wins). See bot.state.StateStore.claim_event."""
        if ttl_s < MIN_EVENT_TTL_S:
            raise ValueError(f"event TTL must be at least {MIN_EVENT_TTL_S:.0f} s, got {ttl_s}")
        token = uuid.uuid4().hex
        now = self._clock()

        def claim(conn: psycopg.Connection[dict[str, Any]]) -> bool:
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
            return row is not None and row["claimed_by"] == token

        return self._transaction(claim)

    # -- digest runs ----------------------------------------------------------------------

    def run(self, day: str, channel: str) -> DigestRun | None:
        return self._transaction(lambda conn: _select_run(conn, day, channel))

    def unfinished_runs(self, since_day: str) -> list[DigestRun]:
        """Runs from ``since_day`` on that were started but are not done (to retry them)."""

        def select(conn: psycopg.Connection[dict[str, Any]]) -> list[DigestRun]:
            rows = conn.execute(
                f"SELECT {RUN_COLUMNS} FROM sakuin_digest_runs WHERE day >= %s AND status != %s"
                " ORDER BY day, channel",
                (since_day, DONE),
            ).fetchall()
            return [_run(row) for row in rows]

        return self._transaction(select)

    def claim_run(
        self, day: str, channel: str, owner: str, lease_s: float, *, ignore_backoff: bool = False
    ) -> DigestRun | None:
        """Take the (day, channel) run for ``owner`` for ``lease_s`` seconds, or None (done, leased
        by another live owner, or backing off). See bot.state.StateStore.claim_run."""
        now = self._clock()

        def claim(conn: psycopg.Connection[dict[str, Any]]) -> DigestRun | None:
            created = conn.execute(
                "INSERT INTO sakuin_digest_runs (day, channel, status, owner, lease_until, attempts,"
                " started_at, updated_at) VALUES (%s, %s, %s, %s, %s, 1, %s, %s)"
                " ON CONFLICT (day, channel) DO NOTHING RETURNING day",
                (day, channel, RUNNING, owner, now + lease_s, now, now),
            ).fetchone()
            if created is not None:
                return _select_run(conn, day, channel)
            run = _select_run(conn, day, channel, lock=True)
            if run is None or run.done:
                return None
            if run.owner not in (None, owner) and run.lease_until > now:
                return None
            if not ignore_backoff and run.next_attempt_at > now:
                return None
            _update(
                conn,
                day,
                channel,
                status=RUNNING,
                owner=owner,
                lease_until=now + lease_s,
                attempts=run.attempts + 1,
                updated_at=now,
            )
            return _select_run(conn, day, channel)

        return self._transaction(claim)

    def set_plan(self, day: str, channel: str, owner: str, plan: list[dict]) -> tuple[dict, ...]:
        """Freeze the run's messages; the first plan recorded wins and is returned."""

        def freeze(conn: psycopg.Connection[dict[str, Any]]) -> tuple[dict, ...]:
            run = _owned_run(conn, day, channel, owner)
            if run.plan is not None:
                return run.plan
            _update(conn, day, channel, plan=json.dumps(plan, ensure_ascii=False), updated_at=self._clock())
            return tuple(plan)

        return self._transaction(freeze)

    def renew_lease(self, day: str, channel: str, owner: str, lease_s: float) -> None:
        """Extend our lease before a Slack call; raises LeaseLost if the run is no longer ours."""
        now = self._clock()

        def renew(conn: psycopg.Connection[dict[str, Any]]) -> None:
            _owned_run(conn, day, channel, owner)
            _update(conn, day, channel, lease_until=now + lease_s, updated_at=now)

        self._transaction(renew)

    def begin_part(self, day: str, channel: str, owner: str, part: int, lease_s: float) -> None:
        """Mark ``part`` in flight (and renew the lease) just before posting it."""
        now = self._clock()

        def begin(conn: psycopg.Connection[dict[str, Any]]) -> None:
            _owned_run(conn, day, channel, owner)
            _update(conn, day, channel, inflight=part, lease_until=now + lease_s, updated_at=now)

        self._transaction(begin)

    def record_part(self, day: str, channel: str, part: int, ts: str) -> None:
        """Record that ``part`` is in the channel as message ``ts`` (the first ``ts`` stays)."""

        def record(conn: psycopg.Connection[dict[str, Any]]) -> None:
            run = _select_run(conn, day, channel, lock=True)
            if run is None:
                raise KeyError(f"no digest run {day} {channel}")
            posted = {str(index): value for index, value in run.posted.items()}
            posted.setdefault(str(part), ts)
            inflight = None if run.inflight == part else run.inflight
            _update(
                conn, day, channel, posted=json.dumps(posted), inflight=inflight, updated_at=self._clock()
            )

        self._transaction(record)

    def finish_run(self, day: str, channel: str, owner: str) -> None:
        """Mark the run done; call only after Slack confirmed every part."""

        def finish(conn: psycopg.Connection[dict[str, Any]]) -> None:
            finished = conn.execute(
                "SELECT finished_by FROM sakuin_digest_runs WHERE day = %s AND channel = %s AND status = %s",
                (day, channel, DONE),
            ).fetchone()
            if finished is not None and finished["finished_by"] == owner:
                return  # our own earlier attempt committed before its connection broke
            _owned_run(conn, day, channel, owner)
            _update(
                conn,
                day,
                channel,
                status=DONE,
                owner=None,
                lease_until=0,
                inflight=None,
                error=None,
                finished_by=owner,
                updated_at=self._clock(),
            )

        self._transaction(finish)

    def fail_run(self, day: str, channel: str, owner: str, error: str, retry_in_s: float) -> None:
        """Give the run back after a failure; claimable again after ``retry_in_s`` seconds. A run
        that is no longer ours is left alone."""
        now = self._clock()

        def fail(conn: psycopg.Connection[dict[str, Any]]) -> None:
            run = _select_run(conn, day, channel, lock=True)
            if run is None or run.owner != owner or run.done:
                return
            _update(
                conn,
                day,
                channel,
                status=FAILED,
                owner=None,
                lease_until=0,
                next_attempt_at=now + retry_in_s,
                error=error[:500],
                updated_at=now,
            )

        self._transaction(fail)


def _migrate(conn: psycopg.Connection[dict[str, Any]]) -> int:
    """Create or upgrade the schema, one replica at a time; return the version in use."""
    conn.execute("SELECT pg_advisory_xact_lock(%s)", (SCHEMA_LOCK,))
    conn.execute("CREATE TABLE IF NOT EXISTS sakuin_schema (version integer NOT NULL)")
    row = conn.execute("SELECT max(version) AS version FROM sakuin_schema").fetchone()
    current = (row or {}).get("version") or 0
    if current > SCHEMA_VERSION:
        raise SchemaTooNew(
            f"the state database has schema version {current}; this sakuin knows up to {SCHEMA_VERSION}:"
            " upgrade sakuin (or point STATE_DB at another database)"
        )
    for version in range(current + 1, SCHEMA_VERSION + 1):
        conn.execute(MIGRATIONS[version])
        conn.execute("INSERT INTO sakuin_schema (version) VALUES (%s)", (version,))
        log.info("state database schema created or upgraded to version %d", version)
    return SCHEMA_VERSION


def _select_run(
    conn: psycopg.Connection[dict[str, Any]], day: str, channel: str, *, lock: bool = False
) -> DigestRun | None:
    row = conn.execute(
        f"SELECT {RUN_COLUMNS} FROM sakuin_digest_runs WHERE day = %s AND channel = %s"
        + (" FOR UPDATE" if lock else ""),
        (day, channel),
    ).fetchone()
    return _run(row) if row else None


def _owned_run(conn: psycopg.Connection[dict[str, Any]], day: str, channel: str, owner: str) -> DigestRun:
    run = _select_run(conn, day, channel, lock=True)
    if run is None or run.owner != owner or run.done:
        raise LeaseLost(f"digest run {day} {channel} is not held by {owner}")
    return run


def _update(conn: psycopg.Connection[dict[str, Any]], day: str, channel: str, **values: object) -> None:
    """UPDATE one run; the column names come from this module only, never from data."""
    assignments = ", ".join(f"{name} = %s" for name in values)
    conn.execute(
        f"UPDATE sakuin_digest_runs SET {assignments} WHERE day = %s AND channel = %s",  # type: ignore[arg-type]
        (*values.values(), day, channel),
    )


def _run(row: dict[str, Any]) -> DigestRun:
    return DigestRun(
        day=row["day"],
        channel=row["channel"],
        status=row["status"],
        owner=row["owner"],
        lease_until=row["lease_until"],
        attempts=row["attempts"],
        next_attempt_at=row["next_attempt_at"],
        started_at=row["started_at"],
        plan=tuple(json.loads(row["plan"])) if row["plan"] else None,
        posted={int(part): ts for part, ts in json.loads(row["posted"]).items()},
        inflight=row["inflight"],
        error=row["error"],
    )


def _first_line(error: BaseException) -> str:
    text = str(error).strip().splitlines()
    return text[0] if text else type(error).__name__
