"""The followed threads in the state store: subject, silence, stop, several processes."""

from __future__ import annotations

from bot.state.store import open_state_store

HOUR = 3600.0


class Clock:
    def __init__(self) -> None:
        self.now = 1_700_000_000.0

    def __call__(self) -> float:
        return self.now


def test_a_followed_thread_keeps_its_subject_until_a_new_one(tmp_path):
    with open_state_store(tmp_path / "state.sqlite3") as store:
        assert store.followed_thread("C1", "1.0") is None
        store.follow_thread("C1", "1.0", "wiki/entities/Minder.md", HOUR)
        store.follow_thread("C1", "1.0", None, HOUR)  # an answer about no page keeps the subject
        assert store.followed_thread("C1", "1.0").subject == "wiki/entities/Minder.md"
        store.follow_thread("C1", "1.0", "wiki/entities/ByteDance.md", HOUR)
        assert store.followed_thread("C1", "1.0").subject == "wiki/entities/ByteDance.md"
        assert store.followed_thread("C2", "1.0") is None and store.followed_thread("C1", "2.0") is None


def test_following_ends_after_the_follow_time_of_silence_and_any_message_resets_it(tmp_path):
    clock = Clock()
    with open_state_store(tmp_path / "state.sqlite3", clock=clock) as store:
        store.follow_thread("C1", "1.0", None, 2 * HOUR)
        clock.now += 1.5 * HOUR
        store.touch_thread("C1", "1.0", 2 * HOUR)
        clock.now += 1.5 * HOUR
        assert store.followed_thread("C1", "1.0") is not None
        clock.now += 2 * HOUR
        assert store.followed_thread("C1", "1.0") is None
        store.touch_thread("C1", "1.0", 2 * HOUR)  # too late: a message does not revive it
        assert store.followed_thread("C1", "1.0") is None
        assert store.forget_thread("C1", "1.0") is False


def test_forget_stops_following_once(tmp_path):
    with open_state_store(tmp_path / "state.sqlite3") as store:
        store.follow_thread("C1", "1.0", None, HOUR)
        assert store.forget_thread("C1", "1.0") is True
        assert store.forget_thread("C1", "1.0") is False
        assert store.followed_thread("C1", "1.0") is None


def test_two_processes_on_one_file_agree(tmp_path):
    with open_state_store(tmp_path / "s.sqlite3") as one, open_state_store(tmp_path / "s.sqlite3") as two:
        one.follow_thread("C1", "1.0", "wiki/entities/Minder.md", HOUR)
        assert two.followed_thread("C1", "1.0").subject == "wiki/entities/Minder.md"
        assert two.forget_thread("C1", "1.0") and one.followed_thread("C1", "1.0") is None
