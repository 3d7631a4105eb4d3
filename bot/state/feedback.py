"""Answer feedback: the 👍/👎 votes on answers, and the questions sakuin could not answer well; kept,
and summed up for the App Home (last week's share of 👍, and the questions the wiki could not
answer confidently: its gaps). ``sakuin feedback`` lists the same records in full (`bot.cli.commands`).

What is kept is what the maintainers of the wiki need and nothing more: for a vote, the question,
the pages the answer showed, the vote and its time; for a question answered without confidence,
the question and its time. No other message text, and no user or channel id in the clear: a vote
is stored under a digest of (channel, message, user), which is enough for "one vote per user and
answer, a second click changes it".
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal, Protocol

from bot.state.sqlite import SqliteFile

VoteValue = Literal["up", "down"]
VOTES: tuple[VoteValue, ...] = ("up", "down")
SUMMARY_DAYS = 7
SUMMARY_QUESTIONS = 10
SECONDS_PER_DAY = 86400

SCHEMA = """
CREATE TABLE IF NOT EXISTS answer_votes (
    voter    TEXT PRIMARY KEY,
    question TEXT NOT NULL,
    pages    TEXT NOT NULL,
    vote     TEXT NOT NULL CHECK (vote IN ('up', 'down')),
    at       REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS answer_votes_at ON answer_votes (at);
CREATE TABLE IF NOT EXISTS unanswered_questions (
    id       INTEGER PRIMARY KEY AUTOINCREMENT,
    question TEXT NOT NULL,
    at       REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS unanswered_questions_at ON unanswered_questions (at);
"""


@dataclass(frozen=True)
class Vote:
    question: str
    vote: VoteValue
    pages: tuple[str, ...]
    at: float
    """Seconds since the epoch of the last click."""


@dataclass(frozen=True)
class UnansweredQuestion:
    question: str
    at: float


@dataclass(frozen=True)
class FeedbackSummary:
    """Votes and unanswered questions of a period (App Home: the last week)."""

    votes: int
    up: int
    unanswered: tuple[str, ...]
    """Distinct questions, newest first."""

    @property
    def up_share(self) -> float | None:
        return self.up / self.votes if self.votes else None


def summary_since(now: float) -> float:
    """Where the App Home summary starts: `SUMMARY_DAYS` before ``now``."""
    return now - SUMMARY_DAYS * SECONDS_PER_DAY


def summarize(votes: Sequence[Vote], unanswered: Sequence[UnansweredQuestion]) -> FeedbackSummary:
    """The share of 👍 of ``votes``, and the distinct questions of ``unanswered`` (newest first)."""
    questions = tuple(dict.fromkeys(item.question for item in unanswered))
    return FeedbackSummary(
        votes=len(votes),
        up=sum(1 for vote in votes if vote.vote == "up"),
        unanswered=questions[:SUMMARY_QUESTIONS],
    )


class AnswerFeedback(Protocol):
    def record_vote(
        self, channel: str, message_ts: str, user: str, question: str, pages: Sequence[str], vote: VoteValue
    ) -> None:
        """Record ``user``'s vote on the answer ``message_ts``; a later vote replaces it.

        Raises ValueError for a vote that is not "up" or "down"."""
        ...

    def note_unanswered(self, question: str) -> None:
        """Remember a question the wiki could not answer confidently."""
        ...

    def votes(self, since: float | None = None) -> tuple[Vote, ...]:
        """Votes cast from ``since`` on (seconds since the epoch), newest first."""
        ...

    def unanswered(self, since: float | None = None) -> tuple[UnansweredQuestion, ...]:
        """Questions noted from ``since`` on, newest first."""
        ...


def voter_key(channel: str, message_ts: str, user: str) -> str:
    return hashlib.sha256(f"{channel}/{message_ts}/{user}".encode()).hexdigest()


class SqliteAnswerFeedback(SqliteFile):
    def record_vote(
        self, channel: str, message_ts: str, user: str, question: str, pages: Sequence[str], vote: VoteValue
    ) -> None:
        if vote not in VOTES:
            raise ValueError(f"a vote is 'up' or 'down', not {vote!r}")
        with self._transaction() as db:
            db.execute(
                "INSERT INTO answer_votes (voter, question, pages, vote, at) VALUES (?, ?, ?, ?, ?)"
                " ON CONFLICT (voter) DO UPDATE SET vote = excluded.vote, at = excluded.at",
                (
                    voter_key(channel, message_ts, user),
                    question,
                    json.dumps(list(pages), ensure_ascii=False),
                    vote,
                    self._clock(),
                ),
            )

    def note_unanswered(self, question: str) -> None:
        with self._transaction() as db:
            db.execute(
                "INSERT INTO unanswered_questions (question, at) VALUES (?, ?)", (question, self._clock())
            )

    def votes(self, since: float | None = None) -> tuple[Vote, ...]:
        with self._reading() as db:
            rows = db.execute(
                "SELECT question, vote, pages, at FROM answer_votes WHERE at >= ?"
                " ORDER BY at DESC, rowid DESC",
                (since if since is not None else 0.0,),
            ).fetchall()
        return tuple(Vote(question, vote, tuple(json.loads(pages)), at) for question, vote, pages, at in rows)

    def unanswered(self, since: float | None = None) -> tuple[UnansweredQuestion, ...]:
        with self._reading() as db:
            rows = db.execute(
                "SELECT question, at FROM unanswered_questions WHERE at >= ? ORDER BY at DESC, id DESC",
                (since if since is not None else 0.0,),
            ).fetchall()
        return tuple(UnansweredQuestion(question, at) for question, at in rows)
