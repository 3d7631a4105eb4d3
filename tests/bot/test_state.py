"""The state store on a real SQLite file: event claims across TTLs, instances and processes."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from bot.state import StateStore


class Clock:
    def __init__(self, now: float = 1_000_000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


def test_creates_parent_folder_and_uses_wal(tmp_path: Path) -> None:
    path = tmp_path / "deep" / "er" / "state.sqlite3"
    with StateStore(path):
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
    with StateStore(tmp_path / "s.db", clock=clock) as store:
        assert store.claim_event("Ev1", ttl_s=ttl_s) is True
        clock.now += advance_s
        assert store.claim_event("Ev1", ttl_s=ttl_s) is second_claim
        assert store.claim_event("Ev2", ttl_s=ttl_s) is True


def test_claim_event_refuses_short_ttl(tmp_path: Path) -> None:
    with StateStore(tmp_path / "s.db") as store, pytest.raises(ValueError, match="at least 600"):
        store.claim_event("Ev1", ttl_s=60)


def test_claim_survives_reopen(tmp_path: Path) -> None:
    with StateStore(tmp_path / "s.db") as store:
        assert store.claim_event("Ev1")
    with StateStore(tmp_path / "s.db") as store:
        assert not store.claim_event("Ev1")


def test_one_winner_among_threads_with_their_own_connections(tmp_path: Path) -> None:
    stores = [StateStore(tmp_path / "s.db") for _ in range(8)]
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
        "import sys; from pathlib import Path; from bot.state import StateStore; "
        "s = StateStore(Path(sys.argv[1])); "
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
