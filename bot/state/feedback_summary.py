"""Last week's feedback for the App Home: the share of 👍, and the questions the wiki could not
answer confidently (its gaps, for the people and agents who maintain it). ``sakuin feedback``
lists the same records in full (`bot.cli.commands`)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bot.state.feedback import UnansweredQuestion, Vote

SUMMARY_DAYS = 7
SUMMARY_QUESTIONS = 10
SECONDS_PER_DAY = 86400


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
