"""The state store: a small SQLite file (``STATE_DB``) shared by every process of one deployment.

It holds two things that must survive restarts and be agreed on by several processes at once:

- the Slack events already handled (``claim_event``), so Slack's retries are answered once;
- the digest runs per (day, channel), so a day's digest reaches a channel exactly once: a run is
  claimed with a lease (an owner and an expiry) before anything is posted, and each message part
  is marked in flight before it is sent and recorded with Slack's ``ts`` after (see bot/digest.py).

Every write is one short ``BEGIN IMMEDIATE`` transaction, so two processes that ask at the same
moment are serialised by SQLite's file lock and exactly one of them wins. The file uses WAL so
readers never wait for a writer. Methods are synchronous and fast (local disk); one store may be
shared by threads.
"""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from bot.postgres_state import PostgresStateStore

MIN_EVENT_TTL_S = 600.0
"""Slack retries an event for about 5 minutes; remembering it for less would let a retry through."""

_SCHEMA = """
CREATE TABLE IF NOT EXISTS seen_events (
    event_id   TEXT PRIMARY KEY,
    expires_at REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS seen_events_expiry ON seen_events (expires_at);
CREATE TABLE IF NOT EXISTS digest_runs (
    day             TEXT NOT NULL,
    channel         TEXT NOT NULL,
    status          TEXT NOT NULL,
    owner           TEXT,
    lease_until     REAL NOT NULL DEFAULT 0,
    attempts        INTEGER NOT NULL DEFAULT 0,
    next_attempt_at REAL NOT NULL DEFAULT 0,
    started_at      REAL NOT NULL,
    plan            TEXT,
    posted          TEXT NOT NULL DEFAULT '{}',
    inflight        INTEGER,
    error           TEXT,
    updated_at      REAL NOT NULL,
    PRIMARY KEY (day, channel)
);
"""

RUNNING, FAILED, DONE = "running", "failed", "done"


@dataclass(frozen=True)
class DigestRun:
    """One day's digest for one channel, as recorded.

    ``plan`` is the list of messages frozen at the first attempt, so a resumed run posts exactly
    the parts still missing. ``posted`` maps a part's index to the ``ts`` Slack returned for it.
    ``inflight`` is the part whose ``chat.postMessage`` was started but not recorded: after a crash
    nobody knows whether Slack got it, so it must be looked up in the channel before posting again.
    """

    day: str
    channel: str
    status: str
    owner: str | None
    lease_until: float
    attempts: int
    next_attempt_at: float
    started_at: float
    plan: tuple[dict, ...] | None = None
    posted: dict[int, str] = field(default_factory=dict)
    inflight: int | None = None
    error: str | None = None

    @property
    def done(self) -> bool:
        return self.status == DONE


class LeaseLost(Exception):
    """Another process took this run over (our lease had expired); stop without posting."""


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

    # -- digest runs ------------------------------------------------------------------------

    def run(self, day: str, channel: str) -> DigestRun | None:
        with self._lock:
            return _select_run(self._db, day, channel)

    def unfinished_runs(self, since_day: str) -> list[DigestRun]:
        """Runs from ``since_day`` on that were started but are not done (to retry them)."""
        with self._lock:
            rows = self._db.execute(
                "SELECT * FROM digest_runs WHERE day >= ? AND status != ? ORDER BY day, channel",
                (since_day, DONE),
            ).fetchall()
        return [_run(row) for row in rows]

    def claim_run(
        self, day: str, channel: str, owner: str, lease_s: float, *, ignore_backoff: bool = False
    ) -> DigestRun | None:
        """Take the (day, channel) run for ``owner`` for ``lease_s`` seconds, or None.

        None when the run is done, when another owner's lease has not expired, or when a failed run
        is still backing off (unless ``ignore_backoff``, for a run asked for by hand). Taking over
        an expired lease keeps the plan, the posted parts and the in-flight mark of the old owner.
        """
        now = self._clock()
        with self._transaction() as db:
            run = _select_run(db, day, channel)
            if run is None:
                db.execute(
                    "INSERT INTO digest_runs (day, channel, status, owner, lease_until, attempts, started_at,"
                    " updated_at) VALUES (?, ?, ?, ?, ?, 1, ?, ?)",
                    (day, channel, RUNNING, owner, now + lease_s, now, now),
                )
            elif (
                run.done
                or _held_by_other(run, owner, now)
                or (not ignore_backoff and run.next_attempt_at > now)
            ):
                return None
            else:
                _update(
                    db,
                    day,
                    channel,
                    status=RUNNING,
                    owner=owner,
                    lease_until=now + lease_s,
                    attempts=run.attempts + 1,
                    updated_at=now,
                )
            return _select_run(db, day, channel)

    def set_plan(self, day: str, channel: str, owner: str, plan: list[dict]) -> tuple[dict, ...]:
        """Freeze the run's messages; the first plan recorded wins and is returned."""
        with self._transaction() as db:
            run = _owned_run(db, day, channel, owner)
            if run.plan is not None:
                return run.plan
            _update(db, day, channel, plan=json.dumps(plan, ensure_ascii=False), updated_at=self._clock())
        return tuple(plan)

    def renew_lease(self, day: str, channel: str, owner: str, lease_s: float) -> None:
        """Extend our lease before a Slack call; raises LeaseLost if the run is no longer ours."""
        now = self._clock()
        with self._transaction() as db:
            _owned_run(db, day, channel, owner)
            _update(db, day, channel, lease_until=now + lease_s, updated_at=now)

    def begin_part(self, day: str, channel: str, owner: str, part: int, lease_s: float) -> None:
        """Mark ``part`` in flight (and renew the lease) just before posting it.

        Committed before the request leaves, so a crash at any later point leaves a mark that makes
        the next owner look in the channel before posting the part again.
        """
        now = self._clock()
        with self._transaction() as db:
            _owned_run(db, day, channel, owner)
            _update(db, day, channel, inflight=part, lease_until=now + lease_s, updated_at=now)

    def record_part(self, day: str, channel: str, part: int, ts: str) -> None:
        """Record that ``part`` is in the channel as message ``ts``.

        Not fenced by owner: it is a fact about the channel, whoever learnt it. A part already
        recorded keeps its first ``ts``.
        """
        with self._transaction() as db:
            run = _select_run(db, day, channel)
            if run is None:
                raise KeyError(f"no digest run {day} {channel}")
            posted = {str(index): value for index, value in run.posted.items()}
            posted.setdefault(str(part), ts)
            inflight = None if run.inflight == part else run.inflight
            _update(db, day, channel, posted=json.dumps(posted), inflight=inflight, updated_at=self._clock())

    def finish_run(self, day: str, channel: str, owner: str) -> None:
        """Mark the run done; call only after Slack confirmed every part."""
        with self._transaction() as db:
            _owned_run(db, day, channel, owner)
            _update(
                db,
                day,
                channel,
                status=DONE,
                owner=None,
                lease_until=0,
                inflight=None,
                error=None,
                updated_at=self._clock(),
            )

    def fail_run(self, day: str, channel: str, owner: str, error: str, retry_in_s: float) -> None:
        """Give the run back after a failure; it may be claimed again after ``retry_in_s`` seconds.

        The in-flight mark stays: whether that part reached Slack is still unknown. A run that is no
        longer ours (taken over, or done) is left alone.
        """
        now = self._clock()
        with self._transaction() as db:
            run = _select_run(db, day, channel)
            if run is None or run.owner != owner or run.done:
                return
            _update(
                db,
                day,
                channel,
                status=FAILED,
                owner=None,
                lease_until=0,
                next_attempt_at=now + retry_in_s,
                error=error[:500],
                updated_at=now,
            )


def open_state_store(
    location: Path | str, *, clock: Callable[[], float] = time.time
) -> StateStore | PostgresStateStore:
    """``STATE_DB``: a ``postgresql://`` URL opens the shared PostgreSQL store (bot/postgres_state.py),
    a path the SQLite file. Both have the same methods and guarantees."""
    if isinstance(location, Path):
        return StateStore(location, clock=clock)
    from bot.postgres_state import PostgresStateStore

    return PostgresStateStore(location, clock=clock)


def _held_by_other(run: DigestRun, owner: str, now: float) -> bool:
    return run.owner not in (None, owner) and run.lease_until > now


def _select_run(db: sqlite3.Connection, day: str, channel: str) -> DigestRun | None:
    row = db.execute("SELECT * FROM digest_runs WHERE day = ? AND channel = ?", (day, channel)).fetchone()
    return _run(row) if row else None


def _owned_run(db: sqlite3.Connection, day: str, channel: str, owner: str) -> DigestRun:
    run = _select_run(db, day, channel)
    if run is None or run.owner != owner or run.done:
        raise LeaseLost(f"digest run {day} {channel} is not held by {owner}")
    return run


def _update(db: sqlite3.Connection, day: str, channel: str, **values: object) -> None:
    """UPDATE one run; the column names come from this module only, never from data."""
    assignments = ", ".join(f"{name} = ?" for name in values)
    db.execute(
        f"UPDATE digest_runs SET {assignments} WHERE day = ? AND channel = ?",
        (*values.values(), day, channel),
    )


def _run(row: tuple) -> DigestRun:
    day, channel, status, owner, lease_until, attempts, next_attempt_at, started_at, plan, posted = row[:10]
    inflight, error = row[10:12]
    return DigestRun(
        day=day,
        channel=channel,
        status=status,
        owner=owner,
        lease_until=lease_until,
        attempts=attempts,
        next_attempt_at=next_attempt_at,
        started_at=started_at,
        plan=tuple(json.loads(plan)) if plan else None,
        posted={int(part): ts for part, ts in json.loads(posted).items()},
        inflight=inflight,
        error=error,
    )
