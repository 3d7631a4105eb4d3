"""The state database on PostgreSQL (``STATE_DB=postgresql://…``): shared by replicas on any machine.

The same records and guarantees as the SQLite file (bot/state/events.py, digest_runs.py,
threads.py, feedback.py), across machines: each call is one short transaction in which the rows
it decides on are locked (``SELECT … FOR UPDATE``) or written under a unique constraint (``INSERT
… ON CONFLICT``), so of two replicas asking at the same moment exactly one wins.
`PostgresDatabase` (here) holds the connections; the records of each kind of state are in
bot/state/postgres_records.py.

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

import logging
import time
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

import psycopg
from psycopg_pool import ConnectionPool, PoolTimeout

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

    def reopened_at(self) -> float | None:
        """A database is not a file that can be deleted under the pool: never."""
        return None

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
