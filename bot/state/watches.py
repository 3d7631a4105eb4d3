"""Pages a channel watches (``/wiki watch NAME``), and the changes not yet told.

A watch keeps the page as the channel was last told of it (its snapshot, the domain's
`index.page_changes.PageSnapshot` as JSON), so what a message says changed is worked out against
that, however many edits came in between. A change marks the watch (``changed_at``, the first
change not told yet); once the coalescing window after it has passed, one process leases the watch,
posts one message and stores the new snapshot. Channel ids are kept (where to post); no user id.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass, fields
from typing import Protocol

from bot.state.sqlite import SqliteFile

SCHEMA = """
CREATE TABLE IF NOT EXISTS page_watches (
    channel     TEXT NOT NULL,
    path        TEXT NOT NULL,
    title       TEXT NOT NULL,
    snapshot    TEXT NOT NULL,
    watched_at  REAL NOT NULL,
    changed_at  REAL,
    owner       TEXT,
    lease_until REAL NOT NULL DEFAULT 0,
    PRIMARY KEY (channel, path)
);
CREATE INDEX IF NOT EXISTS page_watches_path ON page_watches (path);
CREATE INDEX IF NOT EXISTS page_watches_changed ON page_watches (changed_at);
"""


@dataclass(frozen=True)
class PageWatch:
    channel: str
    path: str
    title: str
    snapshot: str
    """The page as the channel was last told of it (JSON)."""
    watched_at: float
    changed_at: float | None = None
    """The first change not told yet (seconds since the epoch), if any."""


COLUMNS = ", ".join(field.name for field in fields(PageWatch))


class PageWatches(Protocol):
    def watch_page(self, channel: str, path: str, title: str, snapshot: str) -> bool:
        """``channel`` watches the page at ``path``; False when it did already."""
        ...

    def unwatch_page(self, channel: str, path: str) -> bool:
        """End the watch; False when there was none."""
        ...

    def page_watches(self, channel: str | None = None) -> tuple[PageWatch, ...]:
        """The watches (of one channel), by channel and title."""
        ...

    def note_page_changes(self, paths: Sequence[str]) -> int:
        """The pages at ``paths`` changed: their watches are marked (the first change not told
        keeps its time; a change while a message is being posted starts a new window). How many
        watches are marked."""
        ...

    def claim_page_changes(self, owner: str, changed_before: float, lease_s: float) -> tuple[PageWatch, ...]:
        """The watches changed before ``changed_before`` and not leased to another process, now
        leased to ``owner``."""
        ...

    def finish_page_change(
        self, watch: PageWatch, owner: str, *, path_now: str | None, title: str, snapshot: str
    ) -> None:
        """The change of ``watch`` (as claimed) was told, or found to be nothing to tell: the watch
        follows the page to ``path_now`` (None: the page is gone, and so is the watch) with its new
        snapshot, unmarked unless the page changed again meanwhile."""
        ...

    def release_page_change(self, watch: PageWatch, owner: str) -> None:
        """The message could not be posted: the change stays marked for a later try."""
        ...

    def next_page_change(self) -> float | None:
        """The earliest change not told yet, or None."""
        ...


class SqlitePageWatches(SqliteFile):
    def watch_page(self, channel: str, path: str, title: str, snapshot: str) -> bool:
        with self._transaction() as db:
            cursor = db.execute(
                "INSERT INTO page_watches (channel, path, title, snapshot, watched_at) VALUES (?, ?, ?, ?, ?)"
                " ON CONFLICT (channel, path) DO NOTHING",
                (channel, path, title, snapshot, self._clock()),
            )
            return cursor.rowcount == 1

    def unwatch_page(self, channel: str, path: str) -> bool:
        with self._transaction() as db:
            cursor = db.execute("DELETE FROM page_watches WHERE channel = ? AND path = ?", (channel, path))
            return cursor.rowcount == 1

    def page_watches(self, channel: str | None = None) -> tuple[PageWatch, ...]:
        with self._reading() as db:
            rows = db.execute(
                f"SELECT {COLUMNS} FROM page_watches WHERE ? IS NULL OR channel = ? ORDER BY channel, title",
                (channel, channel),
            ).fetchall()
        return tuple(PageWatch(*row) for row in rows)

    def note_page_changes(self, paths: Sequence[str]) -> int:
        now = self._clock()
        marked = 0
        with self._transaction() as db:
            for path in dict.fromkeys(paths):
                marked += db.execute(
                    "UPDATE page_watches SET changed_at = CASE WHEN changed_at IS NULL OR lease_until > ?"
                    " THEN ? ELSE changed_at END WHERE path = ?",
                    (now, now, path),
                ).rowcount
        return marked

    def claim_page_changes(self, owner: str, changed_before: float, lease_s: float) -> tuple[PageWatch, ...]:
        now = self._clock()
        with self._transaction() as db:
            rows = db.execute(
                f"SELECT {COLUMNS} FROM page_watches WHERE changed_at IS NOT NULL AND changed_at <= ?"
                " AND (lease_until <= ? OR owner = ?) ORDER BY changed_at, channel, path",
                (changed_before, now, owner),
            ).fetchall()
            for row in rows:
                db.execute(
                    "UPDATE page_watches SET owner = ?, lease_until = ? WHERE channel = ? AND path = ?",
                    (owner, now + lease_s, row[0], row[1]),
                )
        return tuple(PageWatch(*row) for row in rows)

    def finish_page_change(
        self, watch: PageWatch, owner: str, *, path_now: str | None, title: str, snapshot: str
    ) -> None:
        channel, path = watch.channel, watch.path
        with self._transaction() as db:
            if not _owns(db, channel, path, owner):
                return
            if path_now is None or (
                path_now != path
                and db.execute(
                    "SELECT 1 FROM page_watches WHERE channel = ? AND path = ?", (channel, path_now)
                ).fetchone()
            ):
                db.execute("DELETE FROM page_watches WHERE channel = ? AND path = ?", (channel, path))
                return
            db.execute(
                "UPDATE page_watches SET path = ?, title = ?, snapshot = ?,"
                " changed_at = CASE WHEN changed_at = ? THEN NULL ELSE changed_at END, owner = NULL,"
                " lease_until = 0 WHERE channel = ? AND path = ?",
                (path_now, title, snapshot, watch.changed_at, channel, path),
            )

    def release_page_change(self, watch: PageWatch, owner: str) -> None:
        with self._transaction() as db:
            db.execute(
                "UPDATE page_watches SET owner = NULL, lease_until = 0"
                " WHERE channel = ? AND path = ? AND owner = ?",
                (watch.channel, watch.path, owner),
            )

    def next_page_change(self) -> float | None:
        with self._reading() as db:
            row = db.execute("SELECT min(changed_at) FROM page_watches").fetchone()
        return row[0] if row else None


def _owns(db: sqlite3.Connection, channel: str, path: str, owner: str) -> bool:
    row = db.execute(
        "SELECT owner FROM page_watches WHERE channel = ? AND path = ?", (channel, path)
    ).fetchone()
    return row is not None and row[0] == owner
