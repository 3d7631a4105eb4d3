"""The followed threads in the state file: subject, silence, stop, several processes."""

from __future__ import annotations

from bot.thread_store import SQLiteThreadStore

HOUR = 3600.0


class Clock:
    def __init__(self) -> None:
        self.now = 1_700_000_000.0

    def __call__(self) -> float:
        return self.now


def test_a_followed_thread_keeps_its_subject_until_a_new_one(tmp_path):
    clock = Clock()
    store = SQLiteThreadStore(tmp_path / "state.sqlite3", 24 * HOUR, clock=clock)
    assert store.followed("C1", "1.0") is None
    store.follow("C1", "1.0", "wiki/entities/Minder.md")
    store.follow("C1", "1.0", None)  # an answer about no page keeps the subject
    assert store.followed("C1", "1.0").subject == "wiki/entities/Minder.md"
    store.follow("C1", "1.0", "wiki/entities/ByteDance.md")
    assert store.followed("C1", "1.0").subject == "wiki/entities/ByteDance.md"
    assert store.followed("C2", "1.0") is None and store.followed("C1", "2.0") is None


def test_following_ends_after_the_follow_time_of_silence_and_any_message_resets_it(tmp_path):
    clock = Clock()
    store = SQLiteThreadStore(tmp_path / "state.sqlite3", 2 * HOUR, clock=clock)
    store.follow("C1", "1.0", None)
    clock.now += 1.5 * HOUR
    store.touch("C1", "1.0")
    clock.now += 1.5 * HOUR
    assert store.followed("C1", "1.0") is not None
    clock.now += 2 * HOUR
    assert store.followed("C1", "1.0") is None
    store.touch("C1", "1.0")  # too late: touching does not revive it
    assert store.followed("C1", "1.0") is None
    assert store.forget("C1", "1.0") is False


def test_forget_stops_following_once(tmp_path):
    store = SQLiteThreadStore(tmp_path / "state.sqlite3", HOUR)
    store.follow("C1", "1.0", None)
    assert store.forget("C1", "1.0") is True
    assert store.forget("C1", "1.0") is False
    assert store.followed("C1", "1.0") is None


def test_two_stores_on_one_file_agree(tmp_path):
    one = SQLiteThreadStore(tmp_path / "state.sqlite3", HOUR)
    two = SQLiteThreadStore(tmp_path / "state.sqlite3", HOUR)
    one.follow("C1", "1.0", "wiki/entities/Minder.md")
    assert two.followed("C1", "1.0").subject == "wiki/entities/Minder.md"
    assert two.forget("C1", "1.0") and one.followed("C1", "1.0") is None
