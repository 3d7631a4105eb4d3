"""Votes and unanswered questions in the state store."""

from __future__ import annotations

import sqlite3

import pytest

from bot.state.store import open_state_store


class Clock:
    def __init__(self) -> None:
        self.now = 1_700_000_000.0

    def __call__(self) -> float:
        self.now += 1
        return self.now


def test_one_vote_per_user_and_answer_a_second_click_changes_it(tmp_path):
    with open_state_store(tmp_path / "state.sqlite3", clock=Clock()) as store:
        store.record_vote("C1", "1.1", "U1", "Minder とは", ["wiki/entities/Minder.md"], "up")
        store.record_vote("C1", "1.1", "U1", "Minder とは", ["wiki/entities/Minder.md"], "down")
        store.record_vote("C1", "1.1", "U2", "Minder とは", ["wiki/entities/Minder.md"], "up")
        store.record_vote("C1", "1.2", "U1", "MegaScale とは", [], "up")
        votes = store.votes()
    assert [(v.question, v.vote) for v in votes] == [
        ("MegaScale とは", "up"),
        ("Minder とは", "up"),
        ("Minder とは", "down"),
    ]
    assert votes[2].pages == ("wiki/entities/Minder.md",)
    assert votes[0].at > votes[1].at > votes[2].at


def test_only_the_question_pages_vote_and_time_are_kept(tmp_path):
    path = tmp_path / "state.sqlite3"
    with open_state_store(path) as store:
        store.record_vote("C0SECRET", "1.1", "U0ALICE", "q", ["p.md"], "up")
    with sqlite3.connect(path) as db:
        rows = db.execute("SELECT * FROM answer_votes").fetchall()
    assert "C0SECRET" not in repr(rows) and "U0ALICE" not in repr(rows)


def test_since_and_newest_first(tmp_path):
    clock = Clock()
    with open_state_store(tmp_path / "state.sqlite3", clock=clock) as store:
        store.note_unanswered("old")
        cut = clock.now + 0.5
        store.note_unanswered("new")
        store.note_unanswered("new")
        assert [q.question for q in store.unanswered()] == ["new", "new", "old"]
        assert [q.question for q in store.unanswered(cut)] == ["new", "new"]
        assert store.votes(cut) == ()


def test_a_vote_is_up_or_down(tmp_path):
    with open_state_store(tmp_path / "state.sqlite3") as store, pytest.raises(ValueError, match="'up' or"):
        store.record_vote("C", "1", "U", "q", [], "meh")  # type: ignore[arg-type]
