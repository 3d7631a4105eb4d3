"""The catalog: every file the index has seen, every page, its links and its names, in SQLite.

An index directory holds generations: ``CURRENT`` names the live one (``gen-0001`` …), which
holds the whoosh files and ``catalog.sqlite3``. A rebuild writes a new generation and switches
``CURRENT`` atomically, so readers in other processes never see a half-built index; an update
changes the live generation in place, one transaction for the rows of the pages that changed.

Nothing is loaded whole: a page is read when it is asked for (and kept in a small cache), links
and backlinks are queries. Readers use one read-only connection per thread (WAL: they never wait
for the writer, nor it for them); `CatalogWriter` is the single writer's connection.

Tables (``TABLES``): ``files`` (fingerprint, when first seen, why skipped), ``pages`` (the columns
lookups need), ``records`` (the parsed page without its text, which the search store holds), ``links``
(each link of a knowledge page in order, with what it resolves to), ``names`` (every name a page is
known by, its own and the display names of links to it, worked out once: `index.names.name_row`).
"""

from __future__ import annotations

import gc
import os
import pickle
import shutil
import sqlite3
import threading
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import quote

from index.model import FileProblem, Page
from index.names import Entry, NamedPage, entry_order, mention_order

if TYPE_CHECKING:
    from index.graph import Graph

SCHEMA_VERSION = 7
CATALOG_FILE = "catalog.sqlite3"
CURRENT_FILE = "CURRENT"
PAGE_CACHE = 1024
"""Pages kept decoded per generation state: a card reads its page and every page it links to."""
TABLES = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value) WITHOUT ROWID;
CREATE TABLE files (
    path TEXT PRIMARY KEY, mtime_ns INTEGER NOT NULL, size INTEGER NOT NULL,
    first_seen TEXT, skipped TEXT, warning TEXT
) WITHOUT ROWID;
CREATE TABLE pages (
    path TEXT PRIMARY KEY, type TEXT NOT NULL, knowledge INTEGER NOT NULL, title TEXT NOT NULL,
    tier TEXT NOT NULL, aliases TEXT NOT NULL, token TEXT NOT NULL, year INTEGER
) WITHOUT ROWID;
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
Stamp = tuple[str, int]
"""Which commit of which catalog a state was read at: (generation directory, serial)."""


class CatalogError(Exception):
    """The catalog is missing, damaged or of another schema: the index is rebuilt."""


@contextmanager
def collector_paused() -> Iterator[None]:
    """Pause Python's cyclic garbage collector. Loading the name table or building a generation
    allocates millions of objects and no cycles, and the collector would rescan all of them again
    and again (docs/benchmarks.md)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


# -- generations ------------------------------------------------------------------------------


def current_generation(index_dir: Path) -> Path | None:
    try:
        name = (index_dir / CURRENT_FILE).read_text(encoding="utf-8").strip()
    except OSError:
        return None
    generation = index_dir / name
    return generation if name.startswith("gen-") and generation.is_dir() else None


def new_generation(index_dir: Path) -> Path:
    index_dir.mkdir(parents=True, exist_ok=True)
    numbers = [int(p.name[4:]) for p in index_dir.glob("gen-*") if p.name[4:].isdigit()]
    generation = index_dir / f"gen-{max(numbers, default=0) + 1:04d}"
    generation.mkdir()
    return generation


def publish_generation(index_dir: Path, generation: Path) -> None:
    """Point CURRENT at ``generation`` atomically, then remove generations older than the one it
    replaces. That one stays until the next rebuild: readers in other processes may still be
    searching it until they notice the switch."""
    previous = current_generation(index_dir)
    temporary = index_dir / f".{CURRENT_FILE}.{os.getpid()}.tmp"
    with temporary.open("wb") as handle:
        handle.write(generation.name.encode())
        handle.flush()
        os.fsync(handle.fileno())
    os.replace(temporary, index_dir / CURRENT_FILE)
    for old in index_dir.glob("gen-*"):
        if old not in (generation, previous) and old.is_dir():
            shutil.rmtree(old, ignore_errors=True)


def catalog_stamp(generation: Path) -> Stamp | None:
    """The serial of the last commit to a generation's catalog (None when it cannot be read)."""
    rows = _read_once(generation, "SELECT value FROM meta WHERE key = 'serial'")
    return (str(generation), int(rows[0][0])) if rows else None


def _read_once(generation: Path, query: str) -> list[tuple] | None:
    """The rows of one query on a connection of its own (None when the catalog cannot be read)."""
    try:
        db = connect(generation, read_only=True)
        try:
            return db.execute(query).fetchall()
        finally:
            db.close()
    except sqlite3.Error:
        return None


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


def catalog_first_seen(generation: Path) -> dict[str, str]:
    """When a catalog of another schema first saw each page ({} when unreadable): every schema so
    far has the same ``files`` table, and a rebuild for a new schema must not make old pages new."""
    rows = _read_once(generation, "SELECT path, first_seen FROM files WHERE first_seen IS NOT NULL") or []
    return {path: seen for path, seen in rows if isinstance(path, str) and isinstance(seen, str)}


LEGACY_CATALOG = "catalog.pickle"
"""What a generation held before the catalog moved to SQLite (schema 3 and earlier)."""


def legacy_first_seen(generation: Path) -> dict[str, str]:
    """When an index from before the SQLite catalog first saw each page, so that the rebuild an
    upgrade makes does not make every old source new in the next digest ({} when unreadable)."""
    try:
        with (generation / LEGACY_CATALOG).open("rb") as handle:
            catalog = _LegacyUnpickler(handle).load()
    except Exception:  # an old or damaged file, whatever it raises: nothing is known then
        return {}
    first_seen = getattr(catalog, "first_seen", None)
    if not isinstance(first_seen, dict):
        return {}
    return {
        path: seen for path, seen in first_seen.items() if isinstance(path, str) and isinstance(seen, str)
    }


class _Anything:
    """Stands in for each class of a legacy catalog: keeps whatever state it is given."""

    def __init__(self, *args: object, **kwargs: object) -> None:
        pass

    def __setstate__(self, state: object) -> None:
        parts = state if isinstance(state, tuple) else (state,)
        for part in parts:
            if isinstance(part, dict):
                self.__dict__.update(part)


class _LegacyUnpickler(pickle.Unpickler):
    def find_class(self, module: str, name: str) -> type:
        if module == "index" or module.startswith("index."):
            return _Anything
        return super().find_class(module, name)


# -- reading ----------------------------------------------------------------------------------


class CatalogRows:
    """The queries readers make, on one read-only connection per thread.

    Nothing here refers back to the objects built on it (`Catalog`, `PageMap`, the graph), so a
    state nobody uses any more is freed at once, without waiting for the cyclic collector (which
    the writer pauses).
    """

    def __init__(self, generation: Path) -> None:
        self.generation = generation
        self._local = threading.local()

    def db(self) -> sqlite3.Connection:
        db = getattr(self._local, "db", None)
        if db is None:
            db = self._local.db = connect(self.generation, read_only=True)
        return db

    def meta(self, key: str) -> object:
        row = self.db().execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return row[0] if row else None

    def fingerprints(self) -> dict[str, tuple[int, int]]:
        rows = self.db().execute("SELECT path, mtime_ns, size FROM files")
        return {path: (mtime, size) for path, mtime, size in rows}

    def page(self, path: str) -> Page | None:
        row = self.db().execute("SELECT record FROM records WHERE path = ?", (path,)).fetchone()
        return pickle.loads(row[0]) if row else None

    def linking_pages(self, path: str) -> list[tuple[str, str, str, int | None]]:
        """(path, title, type, year) of the knowledge pages linking to ``path``: a card lists them
        all, and an entity linked from thousands of pages must not unpickle each one."""
        rows = self.db().execute(
            "SELECT p.path, p.title, p.type, p.year FROM pages p WHERE p.path IN "
            "(SELECT source FROM links WHERE resolved = ? AND source != ?) ORDER BY p.path",
            (path, path),
        )
        return rows.fetchall()

    def backlinks(self, path: str) -> tuple[str, ...]:
        """The knowledge pages linking to ``path``, by path."""
        rows = self.db().execute(
            "SELECT DISTINCT source FROM links WHERE resolved = ? AND source != ? ORDER BY source",
            (path, path),
        )
        return tuple(row[0] for row in rows)

    def outlinks(self, path: str) -> tuple[str, ...]:
        """The pages ``path`` links to, in the order it first links them."""
        return outlinks(self.db(), path)

    def resolution(self, target: str) -> tuple[bool, str | None]:
        """(whether some page links ``target`` (cleaned), and the page it resolves to)."""
        row = self.db().execute("SELECT resolved FROM links WHERE target = ? LIMIT 1", (target,)).fetchone()
        return (row is not None, row[0] if row else None)

    def page_for_token(self, token: str) -> str | None:
        row = self.db().execute("SELECT path FROM pages WHERE token = ? LIMIT 1", (token,)).fetchone()
        return row[0] if row else None

    def most_linked(self, types: Iterable[str], limit: int) -> list[tuple[str, int]]:
        """(path, how many pages link to it) of the pages of ``types`` most linked, then by title."""
        wanted = sorted(set(types))
        marks = ",".join("?" * len(wanted))
        query = (
            "SELECT links.resolved, count(DISTINCT links.source) AS linking FROM links"
            " JOIN pages ON pages.path = links.resolved"
            f" WHERE pages.type IN ({marks}) AND links.source != links.resolved"
            " GROUP BY links.resolved ORDER BY linking DESC, pages.title LIMIT ?"
        )
        return list(self.db().execute(query, [*wanted, limit]))

    def link_targets(self) -> Iterator[tuple[str, str, tuple[str, ...]]]:
        """(path, title, aliases) of every knowledge page, for a `index.links.LinkResolver`."""
        rows = self.db().execute("SELECT path, title, aliases FROM pages WHERE knowledge = 1")
        for path, title, aliases in rows:
            yield path, title, tuple(aliases.split(ALIAS_SEPARATOR)) if aliases else ()

    # as an `index.names.NameSource` ------------------------------------------------------------

    def entries(self, key: str) -> list[Entry]:
        rows = self.db().execute(
            "SELECT n.path, p.title, p.type, p.tier, n.name, n.kind, n.exact "
            "FROM names n JOIN pages p ON p.path = n.path WHERE n.key = ?",
            (key,),
        )
        pages: dict[str, NamedPage] = {}
        found = []
        for path, title, type_, tier, name, kind, exact in rows:
            page = pages.get(path) or pages.setdefault(path, NamedPage(path, title, type_, tier))
            found.append((page, name, kind, exact))
        return sorted(found, key=entry_order)

    def starts_names(self, prefix: str) -> bool:
        query = "SELECT 1 FROM names WHERE substr(folded, 1, 2) = ? AND length(folded) >= 2 LIMIT 1"
        return self.db().execute(query, (prefix,)).fetchone() is not None

    def mentions(self, text: str) -> list[tuple[str, NamedPage]]:
        # A common first two characters ("th", "デー") start thousands of names, and only a few of
        # them begin the text: they are found by walking down the names' prefix index instead.
        # The greatest name not after the text either begins it, and is the longest that does,
        # or shares only a shorter beginning with it, and no longer name can begin the text.
        db = self.db()
        found: dict[tuple[str, str], NamedPage] = {}
        probe = text
        while len(probe) >= 2:
            row = db.execute(
                "SELECT folded FROM names WHERE substr(folded, 1, 2) = ? AND folded <= ? "
                "ORDER BY folded DESC LIMIT 1",
                (probe[:2], probe),
            ).fetchone()
            if row is None:
                break
            name = row[0]
            if not probe.startswith(name):
                probe = probe[: _shared_length(name, probe)]
                continue
            # BETWEEN, not =: SQLite would put the name into substr(folded, 1, 2) as well, and
            # that expression would no longer be the index's.
            rows = db.execute(
                "SELECT n.path, p.title, p.type, p.tier FROM names n JOIN pages p ON p.path = n.path "
                "WHERE substr(n.folded, 1, 2) = ?1 AND n.folded BETWEEN ?2 AND ?2",
                (name[:2], name),
            )
            for path, title, type_, tier in rows:
                found.setdefault((name, path), NamedPage(path, title, type_, tier))
            probe = name[:-1]
        return sorted(((name, page) for (name, _), page in found.items()), key=mention_order)

    def keys_from(self, key: str, count: int) -> list[str]:
        rows = self.db().execute(
            "SELECT DISTINCT key FROM names WHERE key >= ? AND key < ? ORDER BY key LIMIT ?",
            (key, key + "\U0010ffff", count),
        )
        return [row[0] for row in rows]

    def keys_with_word(self, word: str) -> list[str]:
        rows = self.db().execute("SELECT DISTINCT key FROM name_words WHERE word = ? ORDER BY key", (word,))
        return [row[0] for row in rows]

    def unresolved(self, key: str) -> tuple[str, tuple[str, ...]] | None:
        return unresolved_name(self.db(), key)

    def unresolved_keys(self) -> list[str]:
        rows = self.db().execute(
            "SELECT DISTINCT name_key FROM links WHERE resolved IS NULL AND name_key IS NOT NULL "
            "AND name_key NOT IN (SELECT key FROM names) ORDER BY name_key"
        )
        return [row[0] for row in rows]

    def all_keys(self) -> list[str]:
        return [row[0] for row in self.db().execute("SELECT DISTINCT key FROM names ORDER BY key")]


def unresolved_name(db: sqlite3.Connection, key: str) -> tuple[str, tuple[str, ...]] | None:
    """How ``key`` is linked without a page (by the first page, in path order), and by whom."""
    rows = db.execute(
        "SELECT source, target FROM links WHERE resolved IS NULL AND name_key = ? ORDER BY source, ord",
        (key,),
    ).fetchall()
    return (rows[0][1], tuple(dict.fromkeys(source for source, _ in rows))) if rows else None


def outlinks(db: sqlite3.Connection, path: str) -> tuple[str, ...]:
    rows = db.execute(
        "SELECT resolved FROM links WHERE source = ? AND resolved IS NOT NULL AND resolved != ? ORDER BY ord",
        (path, path),
    )
    return tuple(dict.fromkeys(row[0] for row in rows))


class Catalog:
    """One generation's catalog as readers see it (`CatalogRows`), with its pages, when each was
    first seen, the files that could not be read, and the link graph of the same state (set by
    whoever opened it: `index.indexer`)."""

    graph: Graph

    def __init__(self, generation: Path) -> None:
        self.generation = generation
        self.rows = CatalogRows(generation)
        try:
            meta = dict(self.rows.db().execute("SELECT key, value FROM meta").fetchall())
        except sqlite3.Error as error:
            raise CatalogError(f"catalog at {generation} is unreadable: {error}") from error
        if meta.get("version") != SCHEMA_VERSION:
            raise CatalogError(f"catalog at {generation} has schema {meta.get('version')}")
        self.serial: int = int(meta.get("serial") or 0)
        self.updated_at: str = str(meta.get("updated_at") or "")
        self.pages = PageMap(self.rows)
        self.first_seen = FirstSeen(self.rows)
        problems = self.rows.db().execute(
            "SELECT path, skipped, warning FROM files WHERE skipped IS NOT NULL OR warning IS NOT NULL"
        )
        self.skipped: dict[str, str] = {}
        self.warnings: dict[str, str] = {}
        for path, skipped, warning in problems:
            if skipped is not None:
                self.skipped[path] = skipped
            if warning is not None:
                self.warnings[path] = warning

    @property
    def stamp(self) -> Stamp:
        return (str(self.generation), self.serial)

    def latest_stamp(self) -> Stamp | None:
        """The stamp of the last commit to this catalog, by this process or another."""
        try:
            serial = self.rows.meta("serial")
        except sqlite3.Error:
            return None
        return (str(self.generation), int(serial)) if serial is not None else None  # type: ignore[call-overload]

    @property
    def log_text(self) -> str:
        return str(self.rows.meta("log_text") or "")

    @property
    def log_fingerprint(self) -> str:
        """`index.vault.log_fingerprint` of the log the catalog holds."""
        return str(self.rows.meta("log_print") or "")

    @property
    def skipped_list(self) -> tuple[FileProblem, ...]:
        return tuple(FileProblem(path, reason) for path, reason in sorted(self.skipped.items()))

    @property
    def warning_list(self) -> tuple[FileProblem, ...]:
        return tuple(FileProblem(path, reason) for path, reason in sorted(self.warnings.items()))


class PageMap(Mapping[str, Page]):
    """Path → `Page`, read from the catalog when asked for (the last `PAGE_CACHE` kept decoded)."""

    def __init__(self, rows: CatalogRows) -> None:
        self._rows = rows
        self._count: int | None = None
        self._read = lru_cache(maxsize=PAGE_CACHE)(rows.page)

    def __getitem__(self, path: str) -> Page:
        page = self._read(path)
        if page is None:
            raise KeyError(path)
        return page

    def __contains__(self, path: object) -> bool:
        return isinstance(path, str) and self._read(path) is not None

    def __len__(self) -> int:
        if self._count is None:
            self._count = self._rows.db().execute("SELECT count(*) FROM pages").fetchone()[0]
        return self._count

    def __iter__(self) -> Iterator[str]:
        rows = self._rows.db().execute("SELECT path FROM pages ORDER BY path").fetchall()
        return iter([row[0] for row in rows])

    def values(self) -> list[Page]:  # type: ignore[override]
        """Every page, by path (one query rather than one per page)."""
        rows = self._rows.db().execute("SELECT record FROM records ORDER BY path")
        return [pickle.loads(row[0]) for row in rows]

    def of_types(self, types: Iterable[str]) -> list[Page]:
        """The pages of the given types, by path (the digest reads sources and their companions)."""
        wanted = sorted(set(types))
        marks = ",".join("?" * len(wanted))
        query = (
            "SELECT r.record FROM pages p JOIN records r ON r.path = p.path "
            f"WHERE p.type IN ({marks}) ORDER BY p.path"
        )
        return [pickle.loads(row[0]) for row in self._rows.db().execute(query, wanted)]


class FirstSeen(Mapping[str, str]):
    """Path → when the index first saw the page (ISO timestamp)."""

    def __init__(self, rows: CatalogRows) -> None:
        self._rows = rows

    def __getitem__(self, path: str) -> str:
        row = self._rows.db().execute("SELECT first_seen FROM files WHERE path = ?", (path,)).fetchone()
        if row is None or row[0] is None:
            raise KeyError(path)
        return row[0]

    def __len__(self) -> int:
        return self._rows.db().execute("SELECT count(first_seen) FROM files").fetchone()[0]

    def __iter__(self) -> Iterator[str]:
        query = "SELECT path FROM files WHERE first_seen IS NOT NULL ORDER BY path"
        return iter([row[0] for row in self._rows.db().execute(query).fetchall()])

    def as_dict(self) -> dict[str, str]:
        """Every path's first sighting in one query (a rebuild carries them over), not one per path."""
        query = "SELECT path, first_seen FROM files WHERE first_seen IS NOT NULL"
        return dict(self._rows.db().execute(query).fetchall())


def _shared_length(one: str, other: str) -> int:
    """How many characters two strings begin with alike."""
    return next(
        (at for at, (a, b) in enumerate(zip(one, other, strict=False)) if a != b), min(len(one), len(other))
    )
