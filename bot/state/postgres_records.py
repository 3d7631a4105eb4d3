"""The records of each kind of state on PostgreSQL: `PostgresEventClaims`, `PostgresDigestRuns`,
`PostgresFollowedThreads`, `PostgresAnswerFeedback` and `PostgresChannelMutes`, each on `PostgresDatabase`
(bot/state/postgres.py: connections, retries through an outage, the versioned schema), with the
tables of their migrations. The rules they decide by are those of the SQLite records, in the
module of each kind (bot/state/digest_runs.py …); here is only their SQL.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Sequence

from bot.state.channel_mutes import muter_key
from bot.state.digest_runs import (
    DigestRun,
    RunStatus,
    add_part,
    close_run,
    give_back,
    open_run,
    require_owner,
    run_from_row,
    take_over,
)
from bot.state.events import MIN_EVENT_TTL_S
from bot.state.feedback import VOTES, UnansweredQuestion, Vote, VoteValue, voter_key
from bot.state.postgres import Connection, PostgresDatabase
from bot.state.threads import FollowedThread

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
            columns = {"day": day, "channel": channel, **open_run(owner, lease_s, now)}
            created = conn.execute(
                f"INSERT INTO sakuin_digest_runs ({', '.join(columns)})"  # type: ignore[arg-type]
                f" VALUES ({', '.join('%s' for _ in columns)})"
                " ON CONFLICT (day, channel) DO NOTHING RETURNING day",
                tuple(columns.values()),
            ).fetchone()
            if created is None:
                taken = take_over(
                    _pg_select(conn, day, channel, lock=True),
                    owner,
                    lease_s,
                    now,
                    ignore_backoff=ignore_backoff,
                )
                if taken is None:
                    return None
                _pg_update(conn, day, channel, **taken)
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
            _pg_update(conn, day, channel, **add_part(run, day, channel, part, ts, self._clock()))

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
            _pg_update(conn, day, channel, **close_run(self._clock()), finished_by=owner)

        self._transaction(finish)

    def fail_run(self, day: str, channel: str, owner: str, error: str, retry_in_s: float) -> None:
        now = self._clock()

        def fail(conn: Connection) -> None:
            given_back = give_back(_pg_select(conn, day, channel, lock=True), owner, error, retry_in_s, now)
            if given_back is not None:
                _pg_update(conn, day, channel, **given_back)

        self._transaction(fail)


def _pg_select(conn: Connection, day: str, channel: str, *, lock: bool = False) -> DigestRun | None:
    row = conn.execute(
        "SELECT * FROM sakuin_digest_runs WHERE day = %s AND channel = %s" + (" FOR UPDATE" if lock else ""),
        (day, channel),
    ).fetchone()
    return run_from_row(row) if row else None


def _pg_owned(conn: Connection, day: str, channel: str, owner: str) -> DigestRun:
    return require_owner(_pg_select(conn, day, channel, lock=True), day, channel, owner)


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


CHANNEL_MUTES_SCHEMA = """
CREATE TABLE sakuin_channel_mutes (
    muter text PRIMARY KEY,
    at    double precision NOT NULL
);
"""
"""Who muted answers without a mention in a channel (bot/state/channel_mutes.py)."""


class PostgresChannelMutes(PostgresDatabase):
    def mute_channel(self, channel: str, user: str) -> None:
        values = (muter_key(channel, user), self._clock())
        self._transaction(
            lambda conn: conn.execute(
                "INSERT INTO sakuin_channel_mutes (muter, at) VALUES (%s, %s) ON CONFLICT (muter) DO NOTHING",
                values,
            )
        )

    def unmute_channel(self, channel: str, user: str) -> None:
        key = muter_key(channel, user)
        self._transaction(
            lambda conn: conn.execute("DELETE FROM sakuin_channel_mutes WHERE muter = %s", (key,))
        )

    def channel_muted(self, channel: str, user: str) -> bool:
        key = muter_key(channel, user)

        def select(conn: Connection) -> bool:
            row = conn.execute("SELECT 1 FROM sakuin_channel_mutes WHERE muter = %s", (key,)).fetchone()
            return row is not None

        return self._transaction(select)
