"""What only the SQLite store does (the contract both stores keep is test_state_contract.py)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from bot.state.store import open_state_store


def test_creates_parent_folder_and_uses_wal(tmp_path: Path) -> None:
    path = tmp_path / "deep" / "er" / "state.sqlite3"
    with open_state_store(path):
        pass
    assert path.exists()
    assert sqlite3.connect(path).execute("PRAGMA journal_mode").fetchone()[0] == "wal"
