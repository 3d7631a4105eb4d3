"""The SQLite state file: one connection, WAL, and one short write transaction per call.

Every write is a ``BEGIN IMMEDIATE`` transaction, so two processes that ask at the same moment
are serialised by SQLite's file lock and exactly one of them wins a check-then-write. WAL lets
readers go on while a writer holds the lock. Calls are synchronous and may wait for another
process's lock (``busy_timeout``): coroutines go through `bot.state.store.AsyncStateStore`.

A file deleted (or replaced) under a running process would otherwise go on taking its writes, on
the deleted inode, and lose them all at the next start without a word: each call first checks
that the path still names the file it has open (one ``stat``), and when it does not, opens the
path anew, logs a warning and remembers when (`SqliteFile.reopened_at`, shown by ``/healthz``).
"""

from __future__ import annotations

import contextlib
import logging
import os
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from config.settings import SettingsError

log = logging.getLogger(__name__)

BUSY_TIMEOUT_S = 30.0
"""How long a call waits for another process's write lock before it fails."""
SET_UP_RETRY_S = 0.05


class SqliteFile:
    """The state file, created (with its parent folder) on first use; one store may be shared by
    threads (calls are serialised on one connection). A path that cannot be a writable SQLite
    file (a folder, a read-only file, a place that cannot be written) is a `SettingsError`
    naming ``STATE_DB`` at once, not a failure at the first write."""

    def __init__(self, path: Path, schema: str, *, clock: Callable[[], float] = time.time) -> None:
        self.path = Path(path)
        self._clock = clock
        self._schema = schema
        self._lock = threading.Lock()
        self._reopened_at: float | None = None
        self._db = self._open()
        self._identity = _identity(self.path)

    def reopened_at(self) -> float | None:
        """When the file was last found deleted or replaced and opened anew (None: never)."""
        return self._reopened_at

    def _follow_the_path(self) -> None:
        """Open the path anew when it no longer names the file open (called under the lock)."""
        identity = _identity(self.path)
        if identity == self._identity:
            return
        log.warning(
            "the state file %s was %s while in use: opened it anew (what was written before is not in it)",
            self.path,
            "deleted" if identity is None else "replaced",
        )
        with contextlib.suppress(sqlite3.Error):
            # Empty the old file's write-ahead log first: it is still at the path's name, and
            # the new file would otherwise be "recovered" from the old file's pages.
            self._db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        with contextlib.suppress(sqlite3.Error):
            self._db.close()
        self._db = self._open()
        self._identity = _identity(self.path)
        self._reopened_at = self._clock()

    def _open(self) -> sqlite3.Connection:
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            db = sqlite3.connect(
                self.path, timeout=BUSY_TIMEOUT_S, isolation_level=None, check_same_thread=False
            )
            try:
                db.execute(f"PRAGMA busy_timeout={int(BUSY_TIMEOUT_S * 1000)}")
                db.execute("PRAGMA synchronous=FULL")
                _set_up(db, self._schema)
                _check_writable(db)
            except BaseException:
                db.close()
                raise
        except (OSError, sqlite3.Error) as error:
            if "locked" in str(error):  # another process held the file for the whole busy timeout
                raise
            raise SettingsError(
                f"invalid setting STATE_DB: cannot keep the state in {self.path}: {error}"
            ) from None
        return db

    def close(self) -> None:
        with self._lock:
            self._db.close()

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        """One write transaction; ``BEGIN IMMEDIATE`` takes the write lock up front, so the
        check-then-write inside it cannot interleave with another process."""
        with self._lock:
            self._follow_the_path()
            self._db.execute("BEGIN IMMEDIATE")
            try:
                yield self._db
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")

    @contextmanager
    def _reading(self) -> Iterator[sqlite3.Connection]:
        """The connection for a read (WAL: never waits for a writer)."""
        with self._lock:
            self._follow_the_path()
            yield self._db


def _identity(path: Path) -> tuple[int, int] | None:
    """The device and inode ``path`` names (None when nothing is there, or it cannot be seen)."""
    try:
        status = os.stat(path)
    except OSError:
        return None
    return status.st_dev, status.st_ino


def _set_up(db: sqlite3.Connection, schema: str) -> None:
    """WAL and the tables. Two processes opening a new file at once can be told "database is
    locked" at once, without the busy timeout (SQLite does not wait while another connection is
    switching the file to WAL or recovering it), so this step alone is tried again."""
    deadline = time.monotonic() + BUSY_TIMEOUT_S
    while True:
        try:
            db.execute("PRAGMA journal_mode=WAL")
            db.executescript(schema)
            return
        except sqlite3.OperationalError as error:
            if "locked" not in str(error) or time.monotonic() > deadline:
                raise
            time.sleep(SET_UP_RETRY_S)


def _check_writable(db: sqlite3.Connection) -> None:
    """Write once, and take it back: a read-only file opens, and answers reads, without a word."""
    db.execute("BEGIN IMMEDIATE")
    try:
        (version,) = db.execute("PRAGMA user_version").fetchone()
        db.execute(f"PRAGMA user_version = {int(version)}")
    finally:
        db.execute("ROLLBACK")
