"""The catalog as readers see it: every file the index has seen, every page, its links and its names.

Nothing is loaded whole: a page is read when it is asked for (and kept in a small cache), links
and backlinks are queries. Readers use one read-only connection per thread (WAL: they never wait
for the writer, nor it for them); `index.catalog.writer.CatalogWriter` is the single writer's
connection, and `index.catalog.schema` the tables both agree on. Also here: what a catalog of an
older schema, or an index from before the SQLite catalog, knew of when each page was first seen.
"""

from __future__ import annotations

import json
import pickle
import sqlite3
import threading
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from index.catalog.names import Entry, NamedPage, entry_order, mention_order
from index.catalog.schema import ALIAS_SEPARATOR, SCHEMA_VERSION, connect, outlinks
from index.model import FileProblem, Page
from index.reading.wiki_log import LogEntry


@dataclass(frozen=True, slots=True)
class Dated:
    """What the digest reads of every page: the catalog keeps it, so no page is read to find the
    day's new ones."""

    path: str
    title: str
    type: str
    knowledge: bool = True
    field: str | None = None
    """The frontmatter field that dates the page (`birth_field`), and its value as written."""
    value: str | None = None
    first_seen: str | None = None
    companion: str | None = None
    """A brief's ``companion_of``: the source it introduces."""


PAGE_CACHE = 1024
"""Pages kept decoded per generation state: a card reads its page and every page it links to."""
Stamp = tuple[str, int]
"""Which commit of which catalog a state was read at: (generation directory, serial)."""


class CatalogError(Exception):
    """The catalog is missing, damaged or of another schema: the index is rebuilt."""


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

    def record(self, path: str) -> bytes | None:
        """A page as stored (pickled)."""
        row = self.db().execute("SELECT record FROM records WHERE path = ?", (path,)).fetchone()
        return row[0] if row else None

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

    def dated_pages(self) -> list[Dated]:
        """Every page as the digest reads it, with when the index first saw it."""
        return self._dated("")

    def dated_candidates(self, low: str, high: str, paths: Iterable[str]) -> list[Dated]:
        """The pages that may be new on a day: dated (by their field or first sighting) between
        ``low`` and ``high`` (ISO dates, a day either side of it: time zones), or among ``paths``."""
        return self._dated(
            " WHERE substr(p.born, 1, 10) BETWEEN ?1 AND ?2 OR substr(f.first_seen, 1, 10) BETWEEN ?1 AND ?2"
            " OR p.path IN (SELECT value FROM json_each(?3))",
            (low, high, json.dumps(sorted(set(paths)))),
        )

    def dated_of(self, paths: Iterable[str]) -> list[Dated]:
        return self._dated(
            " WHERE p.path IN (SELECT value FROM json_each(?))", (json.dumps(sorted(set(paths))),)
        )

    def dated_of_type(self, kind: str) -> list[Dated]:
        return self._dated(" WHERE p.type = ?", (kind,))

    def has_type(self, kind: str) -> bool:
        """Whether some knowledge page is of type ``kind``."""
        query = "SELECT 1 FROM pages WHERE type = ? AND knowledge = 1 LIMIT 1"
        return self.db().execute(query, (kind,)).fetchone() is not None

    def _dated(self, where: str, parameters: tuple = ()) -> list[Dated]:
        rows = self.db().execute(
            "SELECT p.path, p.title, p.type, p.knowledge, p.born_field, p.born, f.first_seen, p.companion"
            " FROM pages p LEFT JOIN files f ON f.path = p.path" + where,
            parameters,
        )
        return [
            Dated(path, title, type_, bool(knowledge), field, value, seen, companion)
            for path, title, type_, knowledge, field, value, seen, companion in rows
        ]

    def resolutions(self, targets: Iterable[str]) -> dict[str, str | None]:
        """What each of ``targets`` (cleaned) resolves to, for those some page links."""
        rows = self.db().execute(
            "SELECT j.value, (SELECT resolved FROM links WHERE target = j.value LIMIT 1) FROM json_each(?) j"
            " WHERE EXISTS (SELECT 1 FROM links WHERE target = j.value)",
            (json.dumps(sorted(set(targets))),),
        )
        return dict(rows.fetchall())

    def link_counts(self, paths: Iterable[str]) -> dict[str, int]:
        """How many other pages link to each of ``paths`` (those linked at all)."""
        rows = self.db().execute(
            "SELECT resolved, count(DISTINCT source) FROM links"
            " WHERE resolved IN (SELECT value FROM json_each(?)) AND source != resolved GROUP BY resolved",
            (json.dumps(list(paths)),),
        )
        return dict(rows.fetchall())

    def link_targets(self) -> Iterator[tuple[str, str, tuple[str, ...]]]:
        """(path, title, aliases) of every knowledge page, for a `index.reading.wikilinks.LinkResolver`."""
        rows = self.db().execute("SELECT path, title, aliases FROM pages WHERE knowledge = 1")
        for path, title, aliases in rows:
            yield path, title, tuple(aliases.split(ALIAS_SEPARATOR)) if aliases else ()

    # as an `index.catalog.names.NameSource` ------------------------------------------------------------

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


class Catalog:
    """One generation's catalog as readers see it (`CatalogRows`), with its pages, when each was
    first seen, and the files that could not be read (the link graph of the same state is read
    from its rows: `index.generation.LiveGeneration`)."""

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
        self.removal_warning: str | None = (
            str(meta["removal_warning"]) if meta.get("removal_warning") else None
        )
        """Set by an update that removed most of the vault's files, until one changes it again."""
        self.pages = PageMap(self.rows)
        stored = meta.get("log_pages")
        self.log_pages: dict[str, Page] = (
            {page.path: page for page in pickle.loads(stored)} if isinstance(stored, bytes) else {}
        )
        """The wiki's logs read as pages, without their text (`index.reading.log_page`): no pages of
        the vault, not in ``pages``; their passages are searched apart."""
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
    def log_entries(self) -> tuple[LogEntry, ...]:
        """The wiki's log, parsed when it changed (`index.reading.wiki_log`): a digest reads it every day."""
        stored = self.rows.meta("log_entries")
        return (
            tuple(LogEntry(*fields) for fields in pickle.loads(stored)) if isinstance(stored, bytes) else ()
        )

    @property
    def log_fingerprint(self) -> str:
        """`index.reading.vault.log_fingerprint` of the log the catalog holds."""
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
        self._record = lru_cache(maxsize=PAGE_CACHE)(rows.record)
        self._read = lru_cache(maxsize=PAGE_CACHE)(self._decode)

    def __getitem__(self, path: str) -> Page:
        page = self._read(path)
        if page is None:
            raise KeyError(path)
        return page

    def __contains__(self, path: object) -> bool:
        """Its record read and kept, not decoded: a search asks of every page it found and reads
        a few, and a page found here is still there when asked for next, whatever an update writes
        in between (a query of the row alone let a search find a page an update then took away)."""
        return isinstance(path, str) and self._record(path) is not None

    def _decode(self, path: str) -> Page | None:
        record = self._record(path)
        return pickle.loads(record) if record is not None else None

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
