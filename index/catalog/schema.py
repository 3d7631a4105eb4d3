"""The catalog's schema: its tables, its version, and the connection and query both sides share.

Tables (``TABLES``): ``files`` (fingerprint, when first seen, why skipped), ``pages`` (the columns
lookups and the digest need), ``records`` (the parsed page without its text, which the search store
holds), ``links`` (each link of a knowledge page in order, with what it resolves to), ``names``
(every name a page is known by, its own and the display names of links to it, worked out once:
`index.catalog.names.name_row`).
A catalog of another ``SCHEMA_VERSION`` is not read: the index is rebuilt.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path
from urllib.parse import quote

SCHEMA_VERSION = 9
"""9: the wiki's log is a page, and the search store's passages have a kind (`index.store.values.Chunk`)."""
CATALOG_FILE = "catalog.sqlite3"
TABLES = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value) WITHOUT ROWID;
CREATE TABLE files (
    path TEXT PRIMARY KEY, mtime_ns INTEGER NOT NULL, size INTEGER NOT NULL,
    first_seen TEXT, skipped TEXT, warning TEXT
) WITHOUT ROWID;
CREATE TABLE pages (
    path TEXT PRIMARY KEY, type TEXT NOT NULL, knowledge INTEGER NOT NULL, title TEXT NOT NULL,
    tier TEXT NOT NULL, aliases TEXT NOT NULL, token TEXT NOT NULL, year INTEGER,
    born_field TEXT, born TEXT, companion TEXT
) WITHOUT ROWID;
-- born_field, born: the frontmatter field that dates the page and its value; companion: a brief's
-- source. The digest reads them for every page, and no page's record (`index.digest.Dated`).
-- Apart from the columns lookups join: in the same rows, a parsed page (1.3 KB) made the pages
-- table 22 times as large (437 MB at 100,000 pages), read from disk after a build. With a rowid:
-- rows that size overflow a WITHOUT ROWID table's 4 KB pages, which then stand two thirds empty.
CREATE TABLE records (path TEXT PRIMARY KEY, record BLOB NOT NULL);
CREATE TABLE links (
    source TEXT NOT NULL, ord INTEGER NOT NULL, target TEXT NOT NULL, display TEXT,
    folded TEXT NOT NULL, name_key TEXT, resolved TEXT, PRIMARY KEY (source, ord)
) WITHOUT ROWID;
-- In key order: a lookup reads the rows of one key, and names that start alike, side by side.
CREATE TABLE names (
    path TEXT NOT NULL, name TEXT NOT NULL, kind TEXT NOT NULL, key TEXT NOT NULL,
    exact TEXT NOT NULL, folded TEXT NOT NULL, words TEXT NOT NULL, PRIMARY KEY (key, path, kind, name)
) WITHOUT ROWID;
CREATE TABLE name_words (path TEXT NOT NULL, kind TEXT NOT NULL, word TEXT NOT NULL, key TEXT NOT NULL);
-- From the start: a build replaces each page's names and words by path as it writes them (without
-- it, each page scanned every word written before it: a 100,000-page build read 1.8 TB).
CREATE INDEX names_path ON names (path, kind);
CREATE INDEX name_words_path ON name_words (path);
"""
INDEXES = """
CREATE INDEX pages_token ON pages (token);
CREATE INDEX links_target ON links (target);
CREATE INDEX links_folded ON links (folded);
CREATE INDEX links_resolved ON links (resolved, source);
CREATE INDEX links_unresolved ON links (name_key) WHERE resolved IS NULL;
CREATE INDEX names_prefix ON names (substr(folded, 1, 2), folded);
CREATE INDEX name_words_word ON name_words (word);
"""
"""Created once a build has written every row: sorting them once is faster than keeping them up."""
ALIAS_SEPARATOR = "\x1f"
LinkRow = tuple[str, int, str, str | None, str, str | None, str | None]
"""(source, ord, target, display, folded target, name key when it may be a name without a page, resolved)."""


def connect(generation: Path, *, read_only: bool) -> sqlite3.Connection:
    path = generation / CATALOG_FILE
    if read_only:
        if not path.exists():
            raise sqlite3.OperationalError(f"no catalog at {path}")
        # In a URI, "#", "?" and "%" in the folder's name would end or escape the path.
        db = sqlite3.connect(f"file:{quote(str(path))}?mode=ro", uri=True, check_same_thread=False)
    else:
        db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    db.execute("PRAGMA busy_timeout = 30000")
    return db


def outlinks(db: sqlite3.Connection, path: str) -> tuple[str, ...]:
    """The pages ``path`` links to, in the order it first links them."""
    rows = db.execute(
        "SELECT resolved FROM links WHERE source = ? AND resolved IS NOT NULL AND resolved != ? ORDER BY ord",
        (path, path),
    )
    return tuple(dict.fromkeys(row[0] for row in rows))
