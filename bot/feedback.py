"""The feedback report: ``sakuin feedback`` and the App Home summary.

Both read `bot.feedback_store`: the votes on answers, and the questions sakuin could not answer
confidently, the wiki's gaps for the people and agents who maintain it. Times are shown in
``DIGEST_TZ``, the team's zone, as is the day ``--since`` starts.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, datetime, time, tzinfo

from bot.feedback_store import FeedbackStore, UnansweredQuestion, Vote

SUMMARY_DAYS = 7
SUMMARY_QUESTIONS = 10
SECONDS_PER_DAY = 86400

VOTE_MARKS = {"up": "👍", "down": "👎"}
NO_VOTES = "no votes"
NO_UNANSWERED = "no unanswered questions"
VOTES_HEADING = "votes (newest first):"
UNANSWERED_HEADING = "questions the wiki could not answer (newest first):"


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


def start_of(day: date, zone: tzinfo) -> float:
    """``day`` at 00:00 in ``zone``, in seconds since the epoch (for ``--since``)."""
    return datetime.combine(day, time(0), tzinfo=zone).timestamp()


def iso_time(at: float, zone: tzinfo) -> str:
    return datetime.fromtimestamp(at, zone).isoformat(timespec="seconds")


def feedback_json(
    votes: Sequence[Vote], unanswered: Sequence[UnansweredQuestion], zone: tzinfo
) -> dict[str, object]:
    """The contract of ``sakuin feedback --json``."""
    return {
        "feedback": [
            {"question": v.question, "vote": v.vote, "pages": list(v.pages), "at": iso_time(v.at, zone)}
            for v in votes
        ],
        "unanswered": [{"question": q.question, "at": iso_time(q.at, zone)} for q in unanswered],
    }


def feedback_lines(
    votes: Sequence[Vote], unanswered: Sequence[UnansweredQuestion], zone: tzinfo
) -> list[str]:
    """The same report for a terminal, one line per vote or question."""
    lines = [VOTES_HEADING]
    for vote in votes:
        pages = ", ".join(vote.pages) or "-"
        lines.append(f"  {_short_time(vote.at, zone)}  {VOTE_MARKS[vote.vote]}  {vote.question}  [{pages}]")
    if not votes:
        lines.append(f"  {NO_VOTES}")
    lines.append(UNANSWERED_HEADING)
    lines += [f"  {_short_time(item.at, zone)}  {item.question}" for item in unanswered]
    if not unanswered:
        lines.append(f"  {NO_UNANSWERED}")
    return lines


def summarize(store: FeedbackStore, now: float, days: int = SUMMARY_DAYS) -> FeedbackSummary:
    """The last ``days`` of feedback (synchronous: it reads the store)."""
    since = now - days * SECONDS_PER_DAY
    votes = store.votes(since)
    questions = tuple(dict.fromkeys(item.question for item in store.unanswered(since)))
    return FeedbackSummary(
        votes=len(votes),
        up=sum(1 for vote in votes if vote.vote == "up"),
        unanswered=questions[:SUMMARY_QUESTIONS],
    )


def _short_time(at: float, zone: tzinfo) -> str:
    return datetime.fromtimestamp(at, zone).strftime("%Y-%m-%d %H:%M")
