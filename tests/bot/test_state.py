"""The state store on a real SQLite file: event claims across TTLs, instances and processes."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from bot.state.digest_runs import LeaseLost
from bot.state.store import StateStore, open_state_store


class Clock:
    def __init__(self, now: float = 1_000_000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


def test_creates_parent_folder_and_uses_wal(tmp_path: Path) -> None:
    path = tmp_path / "deep" / "er" / "state.sqlite3"
    with open_state_store(path):
        pass
    assert path.exists()
    assert sqlite3.connect(path).execute("PRAGMA journal_mode").fetchone()[0] == "wal"


@pytest.mark.parametrize(
    ("advance_s", "ttl_s", "second_claim"),
    [
        (0, 3600, False),
        (599, 600, False),
        (600, 600, True),
        (3599, 3600, False),
        (3601, 3600, True),
    ],
)
def test_claim_event_within_and_after_ttl(tmp_path: Path, advance_s: float, ttl_s: float, second_claim: bool):
    clock = Clock()
    with open_state_store(tmp_path / "s.db", clock=clock) as store:
        assert store.claim_event("Ev1", ttl_s=ttl_s) is True
        clock.now += advance_s
        assert store.claim_event("Ev1", ttl_s=ttl_s) is second_claim
        assert store.claim_event("Ev2", ttl_s=ttl_s) is True


def test_claim_event_refuses_short_ttl(tmp_path: Path) -> None:
    with open_state_store(tmp_path / "s.db") as store, pytest.raises(ValueError, match="at least 600"):
        store.claim_event("Ev1", ttl_s=60)


def test_claim_survives_reopen(tmp_path: Path) -> None:
    with open_state_store(tmp_path / "s.db") as store:
        assert store.claim_event("Ev1")
    with open_state_store(tmp_path / "s.db") as store:
        assert not store.claim_event("Ev1")


def test_one_winner_among_threads_with_their_own_connections(tmp_path: Path) -> None:
    stores = [open_state_store(tmp_path / "s.db") for _ in range(8)]
    results: list[bool] = []
    barrier = threading.Barrier(len(stores))

    def claim(store: StateStore) -> None:
        barrier.wait()
        results.append(store.claim_event("EvRace"))

    threads = [threading.Thread(target=claim, args=(store,)) for store in stores]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    for store in stores:
        store.close()
    assert sorted(results) == [False] * 7 + [True]


def test_one_winner_among_processes(tmp_path: Path) -> None:
    script = (
        "import sys; from pathlib import Path; from bot.state.store import open_state_store; "
        "s = open_state_store(Path(sys.argv[1])); "
        "print(sum(s.claim_event(f'Ev{i}') for i in range(200)))"
    )
    root = Path(__file__).resolve().parents[2]
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", script, str(tmp_path / "s.db")], cwd=root, stdout=subprocess.PIPE
        )
        for _ in range(3)
    ]
    wins = [int(proc.communicate(timeout=60)[0]) for proc in procs]
    assert all(proc.returncode == 0 for proc in procs)
    assert sum(wins) == 200


# -- digest runs ----------------------------------------------------------------------------

DAY, CHANNEL = "2026-10-14", "C0DIGEST"


def test_first_claim_creates_a_running_run(tmp_path: Path) -> None:
    clock = Clock()
    with open_state_store(tmp_path / "s.db", clock=clock) as store:
        run = store.claim_run(DAY, CHANNEL, "a", 120)
        assert run is not None
        assert (run.status, run.owner, run.attempts, run.plan, run.posted, run.inflight) == (
            "running",
            "a",
            1,
            None,
            {},
            None,
        )
        assert run.lease_until == clock.now + 120
        assert run.started_at == clock.now


@pytest.mark.parametrize(
    ("advance_s", "other_gets_it"),
    [(0, False), (119, False), (120, True), (500, True)],
)
def test_lease_keeps_others_out_until_it_expires(
    tmp_path: Path, advance_s: float, other_gets_it: bool
) -> None:
    clock = Clock()
    with open_state_store(tmp_path / "s.db", clock=clock) as store:
        assert store.claim_run(DAY, CHANNEL, "a", 120)
        clock.now += advance_s
        assert (store.claim_run(DAY, CHANNEL, "b", 120) is not None) is other_gets_it


def test_takeover_keeps_plan_posted_parts_and_inflight_mark(tmp_path: Path) -> None:
    clock = Clock()
    with open_state_store(tmp_path / "s.db", clock=clock) as store:
        store.claim_run(DAY, CHANNEL, "a", 120)
        store.set_plan(DAY, CHANNEL, "a", [{"text": "one"}, {"text": "two"}, {"text": "three"}])
        store.begin_part(DAY, CHANNEL, "a", 0, 120)
        store.record_part(DAY, CHANNEL, 0, "111.1")
        store.begin_part(DAY, CHANNEL, "a", 1, 120)
        clock.now += 121
        run = store.claim_run(DAY, CHANNEL, "b", 120)
        assert run is not None
        assert run.owner == "b" and run.attempts == 2
        assert run.plan == ({"text": "one"}, {"text": "two"}, {"text": "three"})
        assert run.posted == {0: "111.1"} and run.inflight == 1
        assert store.set_plan(DAY, CHANNEL, "b", [{"text": "other"}]) == run.plan
        with pytest.raises(LeaseLost):
            store.begin_part(DAY, CHANNEL, "a", 1, 120)
        with pytest.raises(LeaseLost):
            store.finish_run(DAY, CHANNEL, "a")


def test_done_run_is_never_claimed_again(tmp_path: Path) -> None:
    clock = Clock()
    with open_state_store(tmp_path / "s.db", clock=clock) as store:
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
def test_failed_run_backs_off(tmp_path: Path, advance_s: float, ignore_backoff: bool, claimed: bool) -> None:
    clock = Clock()
    with open_state_store(tmp_path / "s.db", clock=clock) as store:
        store.claim_run(DAY, CHANNEL, "a", 120)
        store.begin_part(DAY, CHANNEL, "a", 0, 120)
        store.fail_run(DAY, CHANNEL, "a", "Slack 500 fatal_error", 60)
        run = store.run(DAY, CHANNEL)
        assert run is not None
        assert (run.status, run.owner, run.error, run.inflight) == (
            "failed",
            None,
            "Slack 500 fatal_error",
            0,
        )
        assert [r.day for r in store.unfinished_runs("2026-10-01")] == [DAY]
        clock.now += advance_s
        assert (store.claim_run(DAY, CHANNEL, "b", 120, ignore_backoff=ignore_backoff) is not None) is claimed


def test_fail_run_of_someone_else_changes_nothing(tmp_path: Path) -> None:
    clock = Clock()
    with open_state_store(tmp_path / "s.db", clock=clock) as store:
        store.claim_run(DAY, CHANNEL, "a", 120)
        clock.now += 200
        store.claim_run(DAY, CHANNEL, "b", 120)
        store.fail_run(DAY, CHANNEL, "a", "late failure", 60)
        run = store.run(DAY, CHANNEL)
        assert run is not None and run.owner == "b" and run.status == "running" and run.error is None


def test_record_part_keeps_the_first_ts(tmp_path: Path) -> None:
    with open_state_store(tmp_path / "s.db") as store:
        store.claim_run(DAY, CHANNEL, "a", 120)
        store.begin_part(DAY, CHANNEL, "a", 0, 120)
        store.record_part(DAY, CHANNEL, 0, "111.1")
        store.record_part(DAY, CHANNEL, 0, "222.2")
        run = store.run(DAY, CHANNEL)
        assert run is not None and run.posted == {0: "111.1"} and run.inflight is None


def test_renew_lease_extends_it(tmp_path: Path) -> None:
    clock = Clock()
    with open_state_store(tmp_path / "s.db", clock=clock) as store:
        store.claim_run(DAY, CHANNEL, "a", 120)
        clock.now += 100
        store.renew_lease(DAY, CHANNEL, "a", 120)
        clock.now += 100
        assert store.claim_run(DAY, CHANNEL, "b", 120) is None


def test_one_process_claims_a_run(tmp_path: Path) -> None:
    script = (
        "import sys; from pathlib import Path; from bot.state.store import open_state_store; "
        "s = open_state_store(Path(sys.argv[1])); "
        "print(sum(s.claim_run(f'2026-10-{d:02d}', 'C1', sys.argv[2], 600) is not None"
        " for d in range(1, 29)))"
    )
    root = Path(__file__).resolve().parents[2]
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", script, str(tmp_path / "s.db"), f"owner{i}"],
            cwd=root,
            stdout=subprocess.PIPE,
        )
        for i in range(3)
    ]
    wins = [int(proc.communicate(timeout=60)[0]) for proc in procs]
    assert sum(wins) == 28
