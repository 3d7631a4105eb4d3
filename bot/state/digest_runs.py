"""Digest runs: one per (day, channel), so a day's digest reaches a channel exactly once.

A run is claimed with a lease (an owner and an expiry) before anything is posted; each message
part is marked in flight before it is sent and recorded with Slack's ``ts`` after; the run is
done only when every part is recorded (the protocol: `bot.digest.posting`).
"""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Protocol

from bot.state.sqlite import SqliteFile

SCHEMA = """
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


class RunStatus(StrEnum):
    """A run as recorded: held by an owner, given back after a failure (to be retried), or done."""

    RUNNING = "running"
    FAILED = "failed"
    DONE = "done"


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
    status: RunStatus
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
        return self.status is RunStatus.DONE


class LeaseLost(Exception):
    """Another process took this run over (our lease had expired); stop without posting."""


class DigestRuns(Protocol):
    """Every method is one atomic step, safe against any number of processes doing the same."""

    def run(self, day: str, channel: str) -> DigestRun | None:
        """The run as recorded, or None."""
        ...

    def unfinished_runs(self, since_day: str) -> list[DigestRun]:
        """Runs from ``since_day`` on that were started but are not done (to retry them), by day."""
        ...

    def claim_run(
        self, day: str, channel: str, owner: str, lease_s: float, *, ignore_backoff: bool = False
    ) -> DigestRun | None:
        """Take the (day, channel) run for ``owner`` for ``lease_s`` seconds, or None.

        None when the run is done, when another owner's lease has not expired, or when a failed run
        is still backing off (unless ``ignore_backoff``, for a run asked for by hand). Taking over
        an expired lease keeps the plan, the posted parts and the in-flight mark of the old owner;
        each claim counts one more attempt.
        """
        ...

    def set_plan(self, day: str, channel: str, owner: str, plan: list[dict]) -> tuple[dict, ...]:
        """Freeze the run's messages; the first plan recorded wins and is returned. LeaseLost if
        the run is not ``owner``'s."""
        ...

    def renew_lease(self, day: str, channel: str, owner: str, lease_s: float) -> None:
        """Extend our lease before a Slack call; LeaseLost if the run is no longer ours."""
        ...

    def begin_part(self, day: str, channel: str, owner: str, part: int, lease_s: float) -> None:
        """Mark ``part`` in flight (and renew the lease) just before posting it; LeaseLost if the
        run is no longer ours. Durable before the request leaves, so a crash at any later point
        leaves a mark that makes the next owner look in the channel before posting it again."""
        ...

    def record_part(self, day: str, channel: str, part: int, ts: str) -> None:
        """Record that ``part`` is in the channel as message ``ts`` (clearing its in-flight mark).

        Not fenced by owner: it is a fact about the channel, whoever learnt it. A part already
        recorded keeps its first ``ts``. KeyError when there is no such run.
        """
        ...

    def finish_run(self, day: str, channel: str, owner: str) -> None:
        """Mark the run done (call only after Slack confirmed every part); LeaseLost if not ours."""
        ...

    def fail_run(self, day: str, channel: str, owner: str, error: str, retry_in_s: float) -> None:
        """Give the run back after a failure; it may be claimed again after ``retry_in_s`` seconds.

        The in-flight mark stays: whether that part reached Slack is still unknown. A run that is no
        longer ours (taken over, or done) is left alone.
        """
        ...


class SqliteDigestRuns(SqliteFile):
    def run(self, day: str, channel: str) -> DigestRun | None:
        with self._reading() as db:
            return _select_run(db, day, channel)

    def unfinished_runs(self, since_day: str) -> list[DigestRun]:
        with self._reading() as db:
            rows = db.execute(
                "SELECT * FROM digest_runs WHERE day >= ? AND status != ? ORDER BY day, channel",
                (since_day, RunStatus.DONE.value),
            ).fetchall()
        return [run_from_row(row) for row in rows]

    def claim_run(
        self, day: str, channel: str, owner: str, lease_s: float, *, ignore_backoff: bool = False
    ) -> DigestRun | None:
        now = self._clock()
        with self._transaction() as db:
            run = _select_run(db, day, channel)
            if run is None:
                _insert(db, day=day, channel=channel, **open_run(owner, lease_s, now))
            else:
                taken = take_over(run, owner, lease_s, now, ignore_backoff=ignore_backoff)
                if taken is None:
                    return None
                _update(db, day, channel, **taken)
            return _select_run(db, day, channel)

    def set_plan(self, day: str, channel: str, owner: str, plan: list[dict]) -> tuple[dict, ...]:
        with self._transaction() as db:
            run = require_owner(_select_run(db, day, channel), day, channel, owner)
            if run.plan is not None:
                return run.plan
            _update(db, day, channel, plan=json.dumps(plan, ensure_ascii=False), updated_at=self._clock())
        return tuple(plan)

    def renew_lease(self, day: str, channel: str, owner: str, lease_s: float) -> None:
        now = self._clock()
        with self._transaction() as db:
            require_owner(_select_run(db, day, channel), day, channel, owner)
            _update(db, day, channel, lease_until=now + lease_s, updated_at=now)

    def begin_part(self, day: str, channel: str, owner: str, part: int, lease_s: float) -> None:
        now = self._clock()
        with self._transaction() as db:
            require_owner(_select_run(db, day, channel), day, channel, owner)
            _update(db, day, channel, inflight=part, lease_until=now + lease_s, updated_at=now)

    def record_part(self, day: str, channel: str, part: int, ts: str) -> None:
        with self._transaction() as db:
            run = _select_run(db, day, channel)
            _update(db, day, channel, **add_part(run, day, channel, part, ts, self._clock()))

    def finish_run(self, day: str, channel: str, owner: str) -> None:
        with self._transaction() as db:
            require_owner(_select_run(db, day, channel), day, channel, owner)
            _update(db, day, channel, **close_run(self._clock()))

    def fail_run(self, day: str, channel: str, owner: str, error: str, retry_in_s: float) -> None:
        with self._transaction() as db:
            given_back = give_back(_select_run(db, day, channel), owner, error, retry_in_s, self._clock())
            if given_back is not None:
                _update(db, day, channel, **given_back)


# -- the rules every implementation decides by (each backend only reads and writes the rows) ------

Columns = dict[str, object]
"""Column values to write to one run's row."""


def held_by_other(run: DigestRun, owner: str, now: float) -> bool:
    """Another owner's lease has not expired."""
    return run.owner not in (None, owner) and run.lease_until > now


def open_run(owner: str, lease_s: float, now: float) -> Columns:
    """The columns of a run created by its first claim (besides day and channel)."""
    return {
        "status": RunStatus.RUNNING.value,
        "owner": owner,
        "lease_until": now + lease_s,
        "attempts": 1,
        "started_at": now,
        "updated_at": now,
    }


def take_over(
    run: DigestRun | None, owner: str, lease_s: float, now: float, *, ignore_backoff: bool = False
) -> Columns | None:
    """What claiming an existing run writes, or None when it cannot be claimed: it is done,
    another owner's lease has not expired, or a failed run is still backing off (unless
    ``ignore_backoff``). The plan, the posted parts and the in-flight mark stay as they are."""
    if (
        run is None
        or run.done
        or held_by_other(run, owner, now)
        or (not ignore_backoff and run.next_attempt_at > now)
    ):
        return None
    return {
        "status": RunStatus.RUNNING.value,
        "owner": owner,
        "lease_until": now + lease_s,
        "attempts": run.attempts + 1,
        "updated_at": now,
    }


def holds(run: DigestRun | None, owner: str) -> bool:
    """``owner`` holds the run, and it is not done."""
    return run is not None and run.owner == owner and not run.done


def require_owner(run: DigestRun | None, day: str, channel: str, owner: str) -> DigestRun:
    """The run, when ``owner`` `holds` it; LeaseLost otherwise."""
    if run is None or not holds(run, owner):
        raise LeaseLost(f"digest run {day} {channel} is not held by {owner}")
    return run


def add_part(run: DigestRun | None, day: str, channel: str, part: int, ts: str, now: float) -> Columns:
    """``part`` recorded as message ``ts`` (a part recorded before keeps its first ``ts``), and its
    in-flight mark cleared; KeyError when there is no such run."""
    if run is None:
        raise KeyError(f"no digest run {day} {channel}")
    posted = {str(index): value for index, value in run.posted.items()}
    posted.setdefault(str(part), ts)
    inflight = None if run.inflight == part else run.inflight
    return {"posted": json.dumps(posted), "inflight": inflight, "updated_at": now}


def close_run(now: float) -> Columns:
    """A run done: no owner, no lease, nothing in flight, no error."""
    return {
        "status": RunStatus.DONE.value,
        "owner": None,
        "lease_until": 0,
        "inflight": None,
        "error": None,
        "updated_at": now,
    }


def give_back(run: DigestRun | None, owner: str, error: str, retry_in_s: float, now: float) -> Columns | None:
    """A failed run given back to be claimed again after ``retry_in_s`` (its in-flight mark kept),
    or None when it is not ``owner``'s to give back (taken over, done, or missing)."""
    if not holds(run, owner):
        return None
    return {
        "status": RunStatus.FAILED.value,
        "owner": None,
        "lease_until": 0,
        "next_attempt_at": now + retry_in_s,
        "error": error[:500],
        "updated_at": now,
    }


def _select_run(db: sqlite3.Connection, day: str, channel: str) -> DigestRun | None:
    row = db.execute("SELECT * FROM digest_runs WHERE day = ? AND channel = ?", (day, channel)).fetchone()
    return run_from_row(row) if row else None


def _insert(db: sqlite3.Connection, **values: object) -> None:
    """INSERT one run; the column names come from this module only, never from data."""
    db.execute(
        f"INSERT INTO digest_runs ({', '.join(values)}) VALUES ({', '.join('?' for _ in values)})",
        tuple(values.values()),
    )


def _update(db: sqlite3.Connection, day: str, channel: str, **values: object) -> None:
    """UPDATE one run; the column names come from this module only, never from data."""
    assignments = ", ".join(f"{name} = ?" for name in values)
    db.execute(
        f"UPDATE digest_runs SET {assignments} WHERE day = ? AND channel = ?",
        (*values.values(), day, channel),
    )


def run_from_row(row: tuple) -> DigestRun:
    """A run from its row, columns in the order of `SCHEMA` (PostgreSQL's table has them too)."""
    day, channel, status, owner, lease_until, attempts, next_attempt_at, started_at, plan, posted = row[:10]
    inflight, error = row[10:12]
    return DigestRun(
        day=day,
        channel=channel,
        status=RunStatus(status),
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
