"""Feedback reports: `sakuin feedback --json`'s shape and text, and the App Home summary."""

from __future__ import annotations

from zoneinfo import ZoneInfo

from bot.cli.commands import feedback_json, print_feedback
from bot.state.feedback import UnansweredQuestion, Vote, summarize, summary_since

TOKYO = ZoneInfo("Asia/Tokyo")
AT = 1_760_000_000.0  # 2025-10-09T17:53:20+09:00


def test_json_shape():
    votes = [Vote("Minder とは", "down", ("wiki/entities/Minder.md",), AT)]
    report = feedback_json(votes, [UnansweredQuestion("量子?", AT)], TOKYO)
    assert report == {
        "feedback": [
            {
                "question": "Minder とは",
                "vote": "down",
                "pages": ["wiki/entities/Minder.md"],
                "at": "2025-10-09T17:53:20+09:00",
            }
        ],
        "unanswered": [{"question": "量子?", "at": "2025-10-09T17:53:20+09:00"}],
    }


def test_the_text_says_when_there_is_nothing(capsys):
    print_feedback([], [], TOKYO)
    out = capsys.readouterr().out
    assert "  no votes" in out and "  no unanswered questions" in out


def test_summary_of_the_last_week():
    votes = [Vote("q", vote, (), AT) for vote in ("up", "up", "down", "up")]
    unanswered = [UnansweredQuestion(question, AT) for question in ("a", "b", "a")]
    summary = summarize(votes, unanswered)
    assert (summary.votes, summary.up, summary.up_share) == (4, 3, 0.75)
    assert summary.unanswered == ("a", "b")
    assert summarize([], []).up_share is None
    assert summary_since(AT) == AT - 7 * 86400
