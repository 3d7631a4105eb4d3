"""Short transactions on the SQLite state file (``STATE_DB``) for the conversation stores.

Each call opens its own connection, runs one short transaction and closes it: there is no
connection to keep, share between threads or close at shutdown, and opening a local SQLite file
costs well under a millisecond against the seconds between two Slack events of one team. Writes
take the write lock up front (``BEGIN IMMEDIATE``), so a check-then-write cannot interleave with
another process; the file is in WAL mode, so readers never wait for a writer.

Callers run these functions off the event loop (``asyncio.to_thread``).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import closing, contextmanager
from pathlib import Path

BUSY_TIMEOUT_MS = 30_000


def create_schema(path: Path, schema: str) -> None:
    """Create the file (and its folder) and the tables of ``schema`` when they are missing."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with closing(_connect(path)) as db:
        db.execute("PRAGMA journal_mode=WAL")
        db.executescript(schema)


@contextmanager
def write_transaction(path: Path) -> Iterator[sqlite3.Connection]:
    """One ``BEGIN IMMEDIATE`` transaction: committed when the block ends, rolled back if it raises."""
    with closing(_connect(path)) as db:
        db.execute("BEGIN IMMEDIATE")
        try:
            yield db
        except BaseException:
            db.execute("ROLLBACK")
            raise
        db.execute("COMMIT")


@contextmanager
def read_snapshot(path: Path) -> Iterator[sqlite3.Connection]:
    """A read transaction: every query inside it sees the same committed state."""
    with closing(_connect(path)) as db:
        db.execute("BEGIN")
        try:
            yield db
        finally:
            db.execute("ROLLBACK")


def _connect(path: Path) -> sqlite3.Connection:
    db = sqlite3.connect(path, timeout=BUSY_TIMEOUT_MS / 1000, isolation_level=None)
    db.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
    db.execute("PRAGMA synchronous=FULL")
    return db
