"""The feedback report: `sakuin feedback --json`'s shape, its text, and the App Home summary."""

from __future__ import annotations

from datetime import date
from zoneinfo import ZoneInfo

from bot.feedback import feedback_json, feedback_lines, start_of, summarize
from bot.feedback_store import SQLiteFeedbackStore, UnansweredQuestion, Vote

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


def test_lines_say_when_there_is_nothing():
    lines = feedback_lines([], [], TOKYO)
    assert "  no votes" in lines and "  no unanswered questions" in lines


def test_since_starts_at_midnight_in_the_zone():
    assert start_of(date(2025, 10, 9), TOKYO) == 1_759_935_600.0


def test_summary_of_the_last_week(tmp_path):
    now = [AT - 8 * 86400]
    store = SQLiteFeedbackStore(tmp_path / "state.sqlite3", clock=lambda: now[0])
    store.record_vote("C", "0", "U", "old", [], "down")
    store.note_unanswered("old question")
    now[0] = AT - 86400
    for ts, vote in (("1", "up"), ("2", "up"), ("3", "down"), ("4", "up")):
        store.record_vote("C", ts, "U", "q", [], vote)
    store.note_unanswered("a")
    store.note_unanswered("b")
    store.note_unanswered("a")
    summary = summarize(store, AT)
    assert (summary.votes, summary.up, summary.up_share) == (4, 3, 0.75)
    assert summary.unanswered == ("a", "b")
    assert summarize(SQLiteFeedbackStore(tmp_path / "empty.sqlite3"), AT).up_share is None
