"""The state store's contract (bot/state/store.py), run against both implementations: the SQLite
file and PostgreSQL.

Every test opens stores through ``open_store`` (the same location each time, as several
processes of one deployment do) and must pass unchanged on both backends.
"""

from __future__ import annotations

import sqlite3
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
from pathlib import Path

import psycopg
import pytest

from bot.state.digest_runs import LeaseLost
from bot.state.requests import NewRequest
from bot.state.store import open_state_store
from tests.conftest import REPO

DAY, CHANNEL = "2026-10-14", "C0DIGEST"


class Clock:
    def __init__(self, now: float = 1_000_000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


OpenStore = Callable[..., object]


@pytest.fixture(params=["sqlite", "postgresql"])
def location(request: pytest.FixtureRequest, tmp_path: Path) -> Path | str:
    """This test's STATE_DB: a fresh SQLite file, or a fresh database of the session's server."""
    return (
        tmp_path / "state.sqlite3" if request.param == "sqlite" else request.getfixturevalue("postgres_url")
    )


@pytest.fixture
def open_store(location: Path | str) -> Iterator[OpenStore]:
    """Opens a store on this test's location (as each process of a deployment does); closes them after."""
    opened: list = []

    def open_one(clock: Callable[[], float] | None = None):
        store = open_state_store(location, clock=clock) if clock else open_state_store(location)
        opened.append(store)
        return store

    yield open_one
    for store in opened:
        store.close()


# -- events -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("advance_s", "ttl_s", "second_claim"),
    [(0, 3600, False), (599, 600, False), (600, 600, True), (3599, 3600, False), (3601, 3600, True)],
)
def test_claim_event_within_and_after_ttl(open_store, advance_s: float, ttl_s: float, second_claim: bool):
    clock = Clock()
    store = open_store(clock)
    assert store.claim_event("Ev1", ttl_s=ttl_s) is True
    clock.now += advance_s
    assert store.claim_event("Ev1", ttl_s=ttl_s) is second_claim
    assert store.claim_event("Ev2", ttl_s=ttl_s) is True


def test_claim_event_refuses_short_ttl(open_store) -> None:
    with pytest.raises(ValueError, match="at least 600"):
        open_store().claim_event("Ev1", ttl_s=60)


def test_a_claim_is_seen_by_another_store_and_survives_reopening(open_store) -> None:
    first = open_store()
    assert first.claim_event("Ev1")
    first.close()
    assert not open_store().claim_event("Ev1")
    assert not open_store().claim_event("Ev1")


def test_one_winner_among_threads_with_their_own_stores(open_store) -> None:
    stores = [open_store() for _ in range(6)]
    results: list[bool] = []
    barrier = threading.Barrier(len(stores))

    def claim(store) -> None:
        barrier.wait()
        for number in range(20):
            results.append((number, store.claim_event(f"EvRace{number}")))

    threads = [threading.Thread(target=claim, args=(store,)) for store in stores]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    winners = sorted(number for number, won in results if won)
    assert winners == list(range(20))


def in_processes(location: Path | str, code: str, *args: str) -> list[int]:
    """Run ``code`` (with ``store`` open on ``location``) in 3 processes at once; their printed numbers."""
    script = (
        "import sys; from pathlib import Path; from bot.state.store import open_state_store; "
        "where = sys.argv[1]; store = open_state_store(where if '://' in where else Path(where)); " + code
    )
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", script, str(location), *args, str(number)],
            cwd=REPO,
            stdout=subprocess.PIPE,
        )
        for number in range(3)
    ]
    wins = [int(proc.communicate(timeout=60)[0]) for proc in procs]
    assert all(proc.returncode == 0 for proc in procs)
    return wins


def test_one_winner_among_processes(location: Path | str) -> None:
    assert sum(in_processes(location, "print(sum(store.claim_event(f'Ev{i}') for i in range(200)))")) == 200


# -- digest runs --------------------------------------------------------------------------------


def test_first_claim_creates_a_running_run(open_store) -> None:
    clock = Clock()
    run = open_store(clock).claim_run(DAY, CHANNEL, "a", 120)
    assert run is not None
    assert (run.status, run.owner, run.attempts, run.plan, run.posted, run.inflight) == (
        "running",
        "a",
        1,
        None,
        {},
        None,
    )
    assert (run.lease_until, run.started_at) == (clock.now + 120, clock.now)


@pytest.mark.parametrize(("advance_s", "other_gets_it"), [(0, False), (119, False), (120, True), (500, True)])
def test_lease_keeps_others_out_until_it_expires(open_store, advance_s: float, other_gets_it: bool) -> None:
    clock = Clock()
    one, two = open_store(clock), open_store(clock)
    assert one.claim_run(DAY, CHANNEL, "a", 120)
    clock.now += advance_s
    assert (two.claim_run(DAY, CHANNEL, "b", 120) is not None) is other_gets_it


def test_one_owner_among_threads_claiming_the_same_runs(open_store) -> None:
    stores = [open_store() for _ in range(4)]
    wins: dict[str, list[str]] = {}
    barrier = threading.Barrier(len(stores))

    def claim(index: int) -> None:
        barrier.wait()
        for day in range(1, 15):
            run = stores[index].claim_run(f"2026-10-{day:02d}", CHANNEL, f"owner{index}", 600)
            if run is not None:
                wins.setdefault(run.day, []).append(run.owner)

    threads = [threading.Thread(target=claim, args=(index,)) for index in range(len(stores))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(wins) == 14 and all(len(owners) == 1 for owners in wins.values())


def test_takeover_keeps_plan_posted_parts_and_inflight_mark(open_store) -> None:
    clock = Clock()
    store, other = open_store(clock), open_store(clock)
    store.claim_run(DAY, CHANNEL, "a", 120)
    store.set_plan(DAY, CHANNEL, "a", [{"text": "one"}, {"text": "two"}, {"text": "three"}])
    store.begin_part(DAY, CHANNEL, "a", 0, 120)
    store.record_part(DAY, CHANNEL, 0, "111.1")
    store.begin_part(DAY, CHANNEL, "a", 1, 120)
    clock.now += 121
    run = other.claim_run(DAY, CHANNEL, "b", 120)
    assert run is not None
    assert run.owner == "b" and run.attempts == 2
    assert run.plan == ({"text": "one"}, {"text": "two"}, {"text": "three"})
    assert run.posted == {0: "111.1"} and run.inflight == 1
    assert other.set_plan(DAY, CHANNEL, "b", [{"text": "other"}]) == run.plan
    with pytest.raises(LeaseLost):
        store.begin_part(DAY, CHANNEL, "a", 1, 120)
    with pytest.raises(LeaseLost):
        store.renew_lease(DAY, CHANNEL, "a", 120)
    with pytest.raises(LeaseLost):
        store.finish_run(DAY, CHANNEL, "a")


def test_a_plan_keeps_its_messages_exactly(open_store) -> None:
    store = open_store()
    plan = [
        {
            "text": "新着 1 件",
            "blocks": [{"type": "section", "text": {"type": "mrkdwn", "text": "*a* <x|y>"}}],
        }
    ]
    store.claim_run(DAY, CHANNEL, "a", 120)
    assert store.set_plan(DAY, CHANNEL, "a", plan) == tuple(plan)
    assert open_store().run(DAY, CHANNEL).plan == tuple(plan)


def test_done_run_is_never_claimed_again(open_store) -> None:
    clock = Clock()
    store = open_store(clock)
    store.claim_run(DAY, CHANNEL, "a", 120)
    store.set_plan(DAY, CHANNEL, "a", [{"text": "one"}])
    store.begin_part(DAY, CHANNEL, "a", 0, 120)
    store.record_part(DAY, CHANNEL, 0, "111.1")
    store.finish_run(DAY, CHANNEL, "a")
    clock.now += 10 * 86400
    assert store.claim_run(DAY, CHANNEL, "a", 120) is None
    assert store.claim_run(DAY, CHANNEL, "b", 120, ignore_backoff=True) is None
    run = store.run(DAY, CHANNEL)
    assert run is not None and run.done and run.posted == {0: "111.1"} and run.inflight is None
    assert store.unfinished_runs("2026-01-01") == []


@pytest.mark.parametrize(
    ("advance_s", "ignore_backoff", "claimed"),
    [(0, False, False), (59, False, False), (60, False, True), (0, True, True)],
)
def test_failed_run_backs_off(open_store, advance_s: float, ignore_backoff: bool, claimed: bool) -> None:
    clock = Clock()
    store = open_store(clock)
    store.claim_run(DAY, CHANNEL, "a", 120)
    store.begin_part(DAY, CHANNEL, "a", 0, 120)
    store.fail_run(DAY, CHANNEL, "a", "Slack 500 fatal_error", 60)
    run = store.run(DAY, CHANNEL)
    assert run is not None
    assert (run.status, run.owner, run.error, run.inflight) == ("failed", None, "Slack 500 fatal_error", 0)
    assert [r.day for r in store.unfinished_runs("2026-10-01")] == [DAY]
    assert store.unfinished_runs("2026-10-15") == []
    clock.now += advance_s
    assert (store.claim_run(DAY, CHANNEL, "b", 120, ignore_backoff=ignore_backoff) is not None) is claimed


def test_fail_run_of_someone_else_changes_nothing(open_store) -> None:
    clock = Clock()
    store = open_store(clock)
    store.claim_run(DAY, CHANNEL, "a", 120)
    clock.now += 200
    store.claim_run(DAY, CHANNEL, "b", 120)
    store.fail_run(DAY, CHANNEL, "a", "late failure", 60)
    run = store.run(DAY, CHANNEL)
    assert run is not None and run.owner == "b" and run.status == "running" and run.error is None


def test_record_part_keeps_the_first_ts(open_store) -> None:
    store = open_store()
    store.claim_run(DAY, CHANNEL, "a", 120)
    store.begin_part(DAY, CHANNEL, "a", 0, 120)
    store.record_part(DAY, CHANNEL, 0, "111.1")
    store.record_part(DAY, CHANNEL, 0, "222.2")
    run = store.run(DAY, CHANNEL)
    assert run is not None and run.posted == {0: "111.1"} and run.inflight is None
    with pytest.raises(KeyError):
        store.record_part("2026-01-01", CHANNEL, 0, "333.3")


def test_renew_lease_extends_it(open_store) -> None:
    clock = Clock()
    store = open_store(clock)
    store.claim_run(DAY, CHANNEL, "a", 120)
    clock.now += 100
    store.renew_lease(DAY, CHANNEL, "a", 120)
    clock.now += 100
    assert store.claim_run(DAY, CHANNEL, "b", 120) is None


def test_runs_are_kept_per_day_and_channel(open_store) -> None:
    store = open_store()
    assert store.run(DAY, CHANNEL) is None
    for day, channel in [(DAY, "C1"), (DAY, "C2"), ("2026-10-15", "C1")]:
        assert store.claim_run(day, channel, "a", 120) is not None
    store.finish_run(DAY, "C2", "a")
    assert [(run.day, run.channel) for run in store.unfinished_runs(DAY)] == [
        (DAY, "C1"),
        ("2026-10-15", "C1"),
    ]


def test_one_process_claims_a_run(location: Path | str) -> None:
    code = (
        "print(sum(store.claim_run(f'2026-10-{d:02d}', 'C1', 'owner' + sys.argv[-1], 600) is not None"
        " for d in range(1, 29)))"
    )
    assert sum(in_processes(location, code)) == 28


# -- followed threads ---------------------------------------------------------------------------

HOUR = 3600.0
MINDER, BYTEDANCE = "wiki/entities/Minder.md", "wiki/entities/ByteDance.md"


def test_a_followed_thread_keeps_its_subject_until_a_new_one(open_store) -> None:
    store = open_store()
    assert store.followed_thread("C1", "1.0") is None
    store.follow_thread("C1", "1.0", MINDER, HOUR)
    store.follow_thread("C1", "1.0", None, HOUR)  # an answer about no page keeps the subject
    assert store.followed_thread("C1", "1.0").subject == MINDER
    store.follow_thread("C1", "1.0", BYTEDANCE, HOUR)
    assert store.followed_thread("C1", "1.0").subject == BYTEDANCE
    assert store.followed_thread("C2", "1.0") is None and store.followed_thread("C1", "2.0") is None


def test_following_ends_after_the_follow_time_of_silence_and_a_message_resets_it(open_store) -> None:
    clock = Clock()
    store = open_store(clock)
    store.follow_thread("C1", "1.0", MINDER, 2 * HOUR)
    clock.now += 1.5 * HOUR
    store.touch_thread("C1", "1.0", 2 * HOUR)
    clock.now += 1.5 * HOUR
    assert store.followed_thread("C1", "1.0") is not None
    clock.now += 2 * HOUR
    assert store.followed_thread("C1", "1.0") is None
    store.touch_thread("C1", "1.0", 2 * HOUR)  # too late: a message does not revive it
    assert store.followed_thread("C1", "1.0") is None and store.forget_thread("C1", "1.0") is False
    store.follow_thread("C1", "1.0", None, HOUR)  # a new answer follows it again, with no old subject
    assert store.followed_thread("C1", "1.0").subject is None


def test_a_stopped_thread_is_stopped_once_and_for_every_store(open_store) -> None:
    one, two = open_store(), open_store()
    one.follow_thread("C1", "1.0", MINDER, HOUR)
    assert two.followed_thread("C1", "1.0").subject == MINDER
    assert two.forget_thread("C1", "1.0") is True
    assert one.forget_thread("C1", "1.0") is False
    assert one.followed_thread("C1", "1.0") is None
    one.follow_thread("C1", "1.0", None, HOUR)
    assert two.followed_thread("C1", "1.0").subject is None


def test_one_stop_wins_among_threads(open_store) -> None:
    open_store().follow_thread("C1", "1.0", None, HOUR)
    stores = [open_store() for _ in range(6)]
    results: list[bool] = []
    threads = [
        threading.Thread(target=lambda s=s: results.append(s.forget_thread("C1", "1.0"))) for s in stores
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(results) == [False] * 5 + [True]


# -- answer feedback ----------------------------------------------------------------------------


class Ticking(Clock):
    """A clock one second further on at every reading."""

    def __call__(self) -> float:
        self.now += 1
        return self.now


def test_one_vote_per_user_and_answer_a_second_click_changes_it(open_store) -> None:
    store = open_store(Ticking())
    store.record_vote("C1", "1.1", "U1", "Minder とは", [MINDER], "up")
    store.record_vote("C1", "1.1", "U1", "Minder とは", [MINDER], "down")
    store.record_vote("C1", "1.1", "U2", "Minder とは", [MINDER], "up")
    store.record_vote("C1", "1.2", "U1", "MegaScale とは", [], "up")
    votes = open_store().votes()
    assert [(v.question, v.vote) for v in votes] == [
        ("MegaScale とは", "up"),
        ("Minder とは", "up"),
        ("Minder とは", "down"),
    ]
    assert votes[2].pages == (MINDER,) and votes[0].at > votes[1].at > votes[2].at


def test_unanswered_questions_newest_first_and_since(open_store) -> None:
    clock = Ticking()
    store = open_store(clock)
    store.note_unanswered("old")
    cut = clock.now + 0.5
    store.note_unanswered("new")
    store.note_unanswered("new")
    assert [q.question for q in store.unanswered()] == ["new", "new", "old"]
    assert [q.question for q in open_store().unanswered(cut)] == ["new", "new"]
    assert store.votes(cut) == ()


def test_a_vote_is_up_or_down(open_store) -> None:
    with pytest.raises(ValueError, match="'up' or 'down'"):
        open_store().record_vote("C", "1", "U", "q", [], "meh")


def test_no_user_or_channel_id_is_kept_with_a_vote(open_store, location: Path | str) -> None:
    open_store().record_vote("C0SECRET", "1.1", "U0ALICE", "q", ["p.md"], "up")
    if isinstance(location, Path):
        with sqlite3.connect(location) as db:
            rows = db.execute("SELECT * FROM answer_votes").fetchall()
    else:
        with psycopg.connect(location) as db:
            rows = db.execute("SELECT * FROM sakuin_answer_votes").fetchall()
    assert len(rows) == 1 and "C0SECRET" not in repr(rows) and "U0ALICE" not in repr(rows)


# -- channel mutes ------------------------------------------------------------------------------


def test_a_mute_is_per_user_and_channel_and_seen_by_every_store(open_store) -> None:
    store = open_store()
    assert store.channel_muted("C1", "U1") is False
    store.mute_channel("C1", "U1")
    store.mute_channel("C1", "U1")  # a second click changes nothing
    other = open_store()
    assert other.channel_muted("C1", "U1") is True
    assert other.channel_muted("C1", "U2") is False and other.channel_muted("C2", "U1") is False
    other.unmute_channel("C1", "U1")
    other.unmute_channel("C1", "U1")
    assert store.channel_muted("C1", "U1") is False


def test_no_user_or_channel_id_is_kept_with_a_mute(open_store, location: Path | str) -> None:
    open_store().mute_channel("C0SECRET", "U0ALICE")
    if isinstance(location, Path):
        with sqlite3.connect(location) as db:
            rows = db.execute("SELECT * FROM channel_mutes").fetchall()
    else:
        with psycopg.connect(location) as db:
            rows = db.execute("SELECT * FROM sakuin_channel_mutes").fetchall()
    assert len(rows) == 1 and "C0SECRET" not in repr(rows) and "U0ALICE" not in repr(rows)


# -- the wiki's inbox ---------------------------------------------------------------------------


def new_request(request_id: str = "r1", file: str = "inbox/sakuin/2026-10-15-q.md", **fields) -> NewRequest:
    values = {
        "id": request_id,
        "question": "Who builds Qwertyzz?",
        "channel": CHANNEL,
        "thread_ts": "1700000100.000100",
        "file": file,
        "content": "---\ntype: request\nstatus: open\n---\n",
        "asked_at": 1_000_000.0,
        "lang": "en",
    }
    values.update(fields)
    return NewRequest(**values)


def test_a_request_is_filed_once_and_a_taken_file_name_gets_its_id(open_store) -> None:
    store = open_store(Clock())
    filed, created = store.add_request(new_request())
    assert created and (filed.status, filed.pushed, filed.answered_at) == ("open", False, None)
    again, created_again = open_store().add_request(new_request(question="another click"))
    assert not created_again and again == filed
    other, _ = store.add_request(new_request("r2abcdef", asked_at=1_000_001.0))
    assert other.file == "inbox/sakuin/2026-10-15-q-r2abcd.md"
    assert [request.id for request in store.inbox_requests()] == ["r2abcdef", "r1"]
    assert store.inbox_request("r1") == filed and store.inbox_request("nothing") is None


def test_a_delivery_is_leased_to_one_process_and_lands_once(open_store) -> None:
    clock = Clock()
    first, second = open_store(clock), open_store(clock)
    first.add_request(new_request())
    (claimed,) = first.claim_deliveries("replica-a", lease_s=60)
    assert second.claim_deliveries("replica-b", lease_s=60) == ()
    second.record_delivery("r1", "replica-b", claimed.content)  # not its lease: changes nothing
    assert second.inbox_request("r1").pushed is False
    first.record_delivery("r1", "replica-a", claimed.content)
    assert second.inbox_request("r1").pushed is True
    assert second.claim_deliveries("replica-b", lease_s=60) == ()
    assert second.next_delivery_at() is None


def test_a_failed_delivery_backs_off_and_a_dead_owner_is_taken_over(open_store) -> None:
    clock = Clock()
    store = open_store(clock)
    store.add_request(new_request())
    store.claim_deliveries("a", lease_s=60)
    store.fail_delivery("r1", "a", "remote down", retry_in_s=30)
    failed = store.inbox_request("r1")
    assert (failed.attempts, failed.error, failed.pushed) == (1, "remote down", False)
    assert store.next_delivery_at() == clock.now + 30
    assert store.claim_deliveries("b", lease_s=60) == ()
    clock.now += 30
    assert [r.id for r in store.claim_deliveries("b", lease_s=60)] == ["r1"]
    clock.now += 61  # b died holding it
    assert [r.id for r in store.claim_deliveries("c", lease_s=60)] == ["r1"]


def test_an_answer_is_posted_by_one_owner_and_its_new_text_is_delivered_again(open_store) -> None:
    clock = Clock()
    first, second = open_store(clock), open_store(clock)
    first.add_request(new_request())
    (claimed,) = first.claim_deliveries("a", lease_s=60)
    first.record_delivery("r1", "a", claimed.content)
    assert first.claim_answer("r1", "a", lease_s=60)
    assert not second.claim_answer("r1", "b", lease_s=60)
    assert not second.mark_answered("r1", "b", "answered text")
    clock.now += 5
    assert first.mark_answered("r1", "a", "answered text")
    answered = second.inbox_request("r1")
    assert (answered.status, answered.answered_at, answered.content) == (
        "answered",
        clock.now,
        "answered text",
    )
    assert answered.pushed is False
    assert not second.claim_answer("r1", "b", lease_s=60)  # answered once
    assert [r.content for r in second.claim_deliveries("b", lease_s=60)] == ["answered text"]


def test_a_released_answer_can_be_claimed_again(open_store) -> None:
    store = open_store(Clock())
    store.add_request(new_request())
    assert store.claim_answer("r1", "a", lease_s=60)
    store.release_answer("r1", "a")
    assert store.claim_answer("r1", "b", lease_s=60)


def test_text_changed_while_delivering_stays_due(open_store) -> None:
    store = open_store(Clock())
    store.add_request(new_request())
    (claimed,) = store.claim_deliveries("a", lease_s=60)
    assert store.claim_answer("r1", "x", lease_s=60) and store.mark_answered("r1", "x", "new text")
    store.record_delivery("r1", "a", claimed.content)
    assert store.inbox_request("r1").pushed is False


def test_old_open_requests_expire(open_store) -> None:
    store = open_store(Clock())
    store.add_request(new_request("old", file="a.md", asked_at=100.0))
    store.add_request(new_request("new", file="b.md", asked_at=1_000_000.0))
    assert store.expire_requests(asked_before=500.0) == 1
    assert [(r.id, r.status) for r in store.inbox_requests()] == [("new", "open"), ("old", "expired")]
    assert [r.id for r in store.inbox_requests("open")] == ["new"]
    assert not store.claim_answer("old", "a", lease_s=60)


def test_one_filing_and_one_delivery_among_processes(location: Path | str) -> None:
    code = (
        "from bot.state.requests import NewRequest; "
        "r = NewRequest('r1', 'q', 'C', '1.1', 'inbox/x.md', 'text', 1.0, 'en'); "
        "_, created = store.add_request(r); "
        "got = store.claim_deliveries(sys.argv[-1], 60); "
        "print(int(created) + 10 * len(got))"
    )
    results = in_processes(location, code)
    assert sum(result % 10 for result in results) == 1
    assert sum(result // 10 for result in results) == 1


# -- page watches -------------------------------------------------------------------------------


def test_a_channel_watches_a_page_once(open_store) -> None:
    store = open_store(Clock())
    assert store.watch_page(CHANNEL, "wiki/a.md", "A", "{}")
    assert not open_store().watch_page(CHANNEL, "wiki/a.md", "A", "{}")
    assert store.watch_page("C0OTHER", "wiki/b.md", "B", "{}")
    assert [(w.channel, w.path) for w in store.page_watches()] == [
        ("C0DIGEST", "wiki/a.md"),
        ("C0OTHER", "wiki/b.md"),
    ]
    assert [w.title for w in store.page_watches("C0OTHER")] == ["B"]
    assert store.unwatch_page(CHANNEL, "wiki/a.md") and not store.unwatch_page(CHANNEL, "wiki/a.md")


def test_changes_are_coalesced_from_the_first_and_told_by_one_owner(open_store) -> None:
    clock = Clock()
    first, second = open_store(clock), open_store(clock)
    first.watch_page(CHANNEL, "wiki/a.md", "A", "old")
    assert first.note_page_changes(["wiki/a.md", "wiki/z.md"]) == 1
    changed_at = clock.now
    clock.now += 60
    second.note_page_changes(["wiki/a.md"])  # a second edit within the window
    assert first.next_page_change() == changed_at
    assert first.claim_page_changes("a", changed_before=changed_at - 1, lease_s=60) == ()
    (watch,) = first.claim_page_changes("a", changed_before=clock.now, lease_s=60)
    assert watch.changed_at == changed_at and watch.snapshot == "old"
    assert second.claim_page_changes("b", changed_before=clock.now, lease_s=60) == ()
    first.finish_page_change(watch, "a", path_now="wiki/a.md", title="A", snapshot="new")
    (told,) = second.page_watches()
    assert (told.snapshot, told.changed_at) == ("new", None)
    assert second.next_page_change() is None


def test_a_change_while_telling_starts_a_new_window(open_store) -> None:
    clock = Clock()
    store = open_store(clock)
    store.watch_page(CHANNEL, "wiki/a.md", "A", "old")
    store.note_page_changes(["wiki/a.md"])
    (watch,) = store.claim_page_changes("a", changed_before=clock.now, lease_s=60)
    clock.now += 1
    store.note_page_changes(["wiki/a.md"])
    store.finish_page_change(watch, "a", path_now="wiki/a.md", title="A", snapshot="new")
    assert store.page_watches()[0].changed_at == clock.now


def test_a_watch_follows_a_renamed_page_and_ends_with_a_deleted_one(open_store) -> None:
    clock = Clock()
    store = open_store(clock)
    store.watch_page(CHANNEL, "wiki/a.md", "A", "{}")
    store.watch_page(CHANNEL, "wiki/b.md", "B", "{}")
    store.note_page_changes(["wiki/a.md", "wiki/b.md"])
    a, b = store.claim_page_changes("o", changed_before=clock.now, lease_s=60)
    store.finish_page_change(a, "o", path_now="wiki/renamed.md", title="A2", snapshot="s")
    store.finish_page_change(b, "o", path_now=None, title="B", snapshot="s")
    assert [(w.path, w.title) for w in store.page_watches()] == [("wiki/renamed.md", "A2")]


def test_a_released_change_is_claimed_again(open_store) -> None:
    clock = Clock()
    store = open_store(clock)
    store.watch_page(CHANNEL, "wiki/a.md", "A", "{}")
    store.note_page_changes(["wiki/a.md"])
    (watch,) = store.claim_page_changes("a", changed_before=clock.now, lease_s=60)
    store.finish_page_change(watch, "someone else", path_now=None, title="A", snapshot="")
    assert len(store.page_watches()) == 1
    store.release_page_change(watch, "a")
    assert len(store.claim_page_changes("b", changed_before=clock.now, lease_s=60)) == 1
