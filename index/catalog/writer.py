"""The single writer's connection to a generation's catalog (`index.catalog.reader`): every change of
one update, or of a whole build, in one transaction.

Rows are written as `index.indexer` and `index.catalog.linking` work them out; nothing here decides what a
page, a link or a name is.
"""

from __future__ import annotations

import pickle
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import astuple, replace
from pathlib import Path

from index.catalog.names import NamedPage, NameRow, distinct_rows, many_words
from index.catalog.schema import ALIAS_SEPARATOR, INDEXES, SCHEMA_VERSION, TABLES, LinkRow, connect, outlinks
from index.model import Page
from index.reading.wiki_log import LogEntry


class CatalogWriter:
    """The single writer's connection to a generation's catalog; every change in one transaction."""

    def __init__(self, generation: Path, *, create: bool = False) -> None:
        self.generation = generation
        self.db = connect(generation, read_only=False)
        if create:
            # A new generation is not published until it is complete: nothing to protect yet.
            self.db.executescript("PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF;" + TABLES)
            self.db.executemany(
                "INSERT INTO meta VALUES (?, ?)",
                [
                    ("version", SCHEMA_VERSION),
                    ("serial", 0),
                    ("updated_at", ""),
                    ("log_entries", _pickled(())),
                    ("log_pages", _pickled(())),
                ],
            )
        self.db.execute("BEGIN IMMEDIATE")

    def finish(
        self,
        *,
        updated_at: str,
        log_entries: Sequence[LogEntry] | None,
        log_fingerprint: str,
        removal_warning: str | None = None,
        log_pages: Sequence[Page] | None = None,
    ) -> int:
        """Commit, with a new serial (readers elsewhere notice it); returns the serial.
        ``log_entries`` None: the log did not change (it is not written again). ``removal_warning``:
        the vault lost most of its files (`index.indexer.warn_of_removal`), None when it did not.
        ``log_pages``: the logs read as pages (`index.indexer.log_pages`), kept without their text
        (the search store holds it); None: they did not change."""
        serial = self.db.execute("SELECT value FROM meta WHERE key = 'serial'").fetchone()[0] + 1
        values: dict[str, object] = {
            "serial": serial,
            "updated_at": updated_at,
            "log_print": log_fingerprint,
            "removal_warning": removal_warning,
        }
        if log_entries is not None:
            # As tuples: unpickled every digest, a dataclass apiece took ten times as long.
            values["log_entries"] = _pickled([astuple(entry) for entry in log_entries])
        if log_pages is not None:
            values["log_pages"] = _pickled([replace(page, sections=()) for page in log_pages])
        self.db.executemany("INSERT OR REPLACE INTO meta VALUES (?, ?)", values.items())
        self.db.execute("COMMIT")
        return serial

    def index(self) -> None:
        """The indexes of a new generation, once a build has written its rows (`INDEXES`)."""
        for statement in INDEXES.strip().split(";"):
            if statement.strip():
                self.db.execute(statement)

    def publishable(self) -> None:
        """A new generation's catalog as readers will use it (WAL: they never block the writer)."""
        self.db.execute("PRAGMA journal_mode = WAL")
        self.db.execute("PRAGMA synchronous = NORMAL")

    def close(self) -> None:
        if self.db.in_transaction:
            self.db.execute("ROLLBACK")
        self.db.close()

    # files ------------------------------------------------------------------------------------

    def put_file(
        self,
        path: str,
        fingerprint: tuple[int, int],
        first_seen: str | None,
        skipped: str | None,
        warning: str | None,
    ) -> None:
        """The file's row; an earlier ``first_seen`` is kept."""
        self.db.execute(
            "INSERT INTO files VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (path) DO UPDATE SET "
            "mtime_ns = excluded.mtime_ns, size = excluded.size, "
            "first_seen = coalesce(files.first_seen, excluded.first_seen), "
            "skipped = excluded.skipped, warning = excluded.warning",
            (path, *fingerprint, first_seen, skipped, warning),
        )

    def first_seen_of(self, path: str) -> str | None:
        row = self.db.execute("SELECT first_seen FROM files WHERE path = ?", (path,)).fetchone()
        return row[0] if row else None

    def title_of(self, path: str) -> str | None:
        row = self.db.execute("SELECT title FROM pages WHERE path = ?", (path,)).fetchone()
        return row[0] if row else None

    def remove_file(self, path: str) -> None:
        self.db.execute("DELETE FROM files WHERE path = ?", (path,))

    # pages ------------------------------------------------------------------------------------

    def put_page(self, page: Page, *, knowledge: bool, token: str, born: tuple[str, str] | None) -> None:
        """The page's rows; ``born``: the frontmatter field that dates it and its value."""
        self.db.execute(
            "INSERT OR REPLACE INTO pages VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                page.path,
                page.type,
                int(knowledge),
                page.title,
                page.tier,
                ALIAS_SEPARATOR.join(page.aliases),
                token,
                page.year,
                *(born or (None, None)),
                page.companion_of,
            ),
        )
        self.db.execute(
            "INSERT OR REPLACE INTO records VALUES (?, ?)",
            (page.path, pickle.dumps(page, protocol=pickle.HIGHEST_PROTOCOL)),
        )

    def remove_page(self, path: str) -> None:
        self.db.execute("DELETE FROM links WHERE source = ?", (path,))
        for table in ("pages", "records", "names", "name_words"):
            self.db.execute(f"DELETE FROM {table} WHERE path = ?", (path,))

    def named_page(self, path: str) -> NamedPage | None:
        row = self.db.execute(
            "SELECT title, type, tier FROM pages WHERE path = ? AND knowledge = 1", (path,)
        ).fetchone()
        return NamedPage(path, *row) if row else None

    def page_record(self, path: str) -> tuple[str, bool] | None:
        """(type, whether a knowledge page) of a page in the catalog."""
        row = self.db.execute("SELECT type, knowledge FROM pages WHERE path = ?", (path,)).fetchone()
        return (row[0], bool(row[1])) if row else None

    # links ------------------------------------------------------------------------------------

    def add_links(self, rows: Iterable[LinkRow]) -> None:
        self.db.executemany("INSERT INTO links VALUES (?, ?, ?, ?, ?, ?, ?)", rows)

    def links_of(self, path: str) -> list[LinkRow]:
        return self.db.execute("SELECT * FROM links WHERE source = ? ORDER BY ord", (path,)).fetchall()

    def links_read_as(self, folded: Iterable[str]) -> list[LinkRow]:
        """Links whose target reads as one of ``folded`` (`index.reading.wikilinks.link_key`)."""
        found: list[LinkRow] = []
        for key in sorted(set(folded)):
            found.extend(self.db.execute("SELECT * FROM links WHERE folded = ?", (key,)))
        return found

    def resolve_link(self, source: str, ord_: int, resolved: str | None) -> None:
        self.db.execute(
            "UPDATE links SET resolved = ? WHERE source = ? AND ord = ?", (resolved, source, ord_)
        )

    def link_targets(self) -> list[str]:
        return [row[0] for row in self.db.execute("SELECT DISTINCT target FROM links")]

    def resolve_all(self, resolved: Iterable[tuple[str, str | None]]) -> None:
        """Set what every link resolves to from (target, page) pairs, in one statement."""
        self.db.execute("CREATE TEMP TABLE resolutions (target TEXT PRIMARY KEY, path TEXT) WITHOUT ROWID")
        self.db.executemany("INSERT INTO resolutions VALUES (?, ?)", resolved)
        self.db.execute(
            "UPDATE links SET resolved = (SELECT path FROM resolutions r WHERE r.target = links.target)"
        )
        self.db.execute("DROP TABLE resolutions")

    def outlinks(self, path: str) -> tuple[str, ...]:
        return outlinks(self.db, path)

    def display_names(self, path: str) -> list[str]:
        """The display texts of links from other pages to ``path``."""
        rows = self.db.execute(
            "SELECT DISTINCT display FROM links WHERE resolved = ? AND source != ? AND display IS NOT NULL",
            (path, path),
        )
        return [row[0] for row in rows]

    def displayed_pages(self) -> list[tuple[str, str]]:
        """(page, display text) of every link from another page that has one."""
        rows = self.db.execute(
            "SELECT DISTINCT resolved, display FROM links "
            "WHERE resolved IS NOT NULL AND resolved != source AND display IS NOT NULL"
        )
        return rows.fetchall()

    # names ------------------------------------------------------------------------------------

    def set_names(self, path: str, rows: Iterable[NameRow], *, kinds: tuple[str, ...]) -> None:
        """Replace the names of ``path`` of the given kinds (and the words of the many-word ones)."""
        marks = ",".join("?" * len(kinds))
        for table in ("names", "name_words"):
            self.db.execute(f"DELETE FROM {table} WHERE path = ? AND kind IN ({marks})", (path, *kinds))
        kept = distinct_rows(rows)
        self.db.executemany("INSERT INTO names VALUES (?, ?, ?, ?, ?, ?, ?)", ((path, *row) for row in kept))
        self.db.executemany(
            "INSERT INTO name_words VALUES (?, ?, ?, ?)",
            ((path, row[1], word, row[2]) for row in kept for word in dict.fromkeys(many_words(row))),
        )

    def has_key(self, key: str) -> bool:
        return self.db.execute("SELECT 1 FROM names WHERE key = ? LIMIT 1", (key,)).fetchone() is not None

    def names_of(self, path: str) -> list[NameRow]:
        rows = self.db.execute(
            "SELECT name, kind, key, exact, folded, words FROM names WHERE path = ?", (path,)
        )
        return [tuple(row) for row in rows]  # type: ignore[misc]

    # the text of a build in progress -------------------------------------------------------------

    def keep_text(self, path: str, pieces: bytes) -> None:
        """A page's first passage, kept while a build resolves every link (see `index.indexer`)."""
        if not getattr(self, "_texts", False):
            self.db.execute("CREATE TEMP TABLE texts (path TEXT PRIMARY KEY, pieces BLOB) WITHOUT ROWID")
            self._texts = True
        self.db.execute("INSERT INTO texts VALUES (?, ?)", (path, pieces))

    def kept_texts(self) -> Iterator[tuple[str, bytes]]:
        if not getattr(self, "_texts", False):
            return iter(())
        return iter(self.db.execute("SELECT path, pieces FROM texts ORDER BY path"))

    def drop_texts(self) -> None:
        if getattr(self, "_texts", False):
            self.db.execute("DROP TABLE texts")
            self._texts = False


def _pickled(value: object) -> bytes:
    return pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
