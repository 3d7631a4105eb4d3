"""What only the SQLite store does (the contract both stores keep is test_state_contract.py)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from bot.state.store import open_state_store


def test_creates_parent_folder_and_uses_wal(tmp_path: Path) -> None:
    path = tmp_path / "deep" / "er" / "state.sqlite3"
    with open_state_store(path):
        pass
    assert path.exists()
    assert sqlite3.connect(path).execute("PRAGMA journal_mode").fetchone()[0] == "wal"


@pytest.mark.parametrize("pattern", ["state.sqlite3", "state.sqlite3*"], ids=["the file", "with its WAL"])
def test_a_state_file_deleted_while_open_is_opened_anew(tmp_path: Path, caplog, pattern: str) -> None:
    path = tmp_path / "state.sqlite3"
    with open_state_store(path) as store:
        assert store.claim_event("Ev1") and store.reopened_at() is None
        for deleted in tmp_path.glob(pattern):
            deleted.unlink()
        assert store.claim_event("Ev2")  # written to a file that is there, not the deleted one
        assert store.reopened_at() is not None
        assert store.claim_event("Ev1")  # the earlier claim went with the deleted file
    with open_state_store(path) as reopened:  # as the next start would see it
        assert not reopened.claim_event("Ev2") and not reopened.claim_event("Ev1")
    (warning,) = [r for r in caplog.records if "state file" in r.getMessage()]
    assert (
        warning.levelname == "WARNING" and "was deleted while in use: opened it anew" in warning.getMessage()
    )


def test_a_state_file_replaced_while_open_is_followed(tmp_path: Path) -> None:
    path = tmp_path / "state.sqlite3"
    with open_state_store(path) as store:
        store.claim_event("Ev-old")
        with open_state_store(tmp_path / "restored.sqlite3") as backup:
            backup.claim_event("Ev-restored")
        (tmp_path / "restored.sqlite3").replace(path)
        assert not store.claim_event("Ev-restored") and store.reopened_at() is not None
        assert store.claim_event("Ev-old")  # the new file only: nothing of the old one came along
