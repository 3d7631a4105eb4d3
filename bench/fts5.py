"""The baseline: SQLite FTS5 with the trigram tokenizer over the same pages.

A fair, plain use of SQLite: text NFKC-normalised and casefolded; one row per knowledge page with a ``names``
column (file stem, title, aliases) weighted 10x over ``body`` in bm25; a name table for exact lookups.

Queries are split into words the way a trigram index needs: Latin/digit runs, kanji runs and katakana
runs (hiragana runs are particles and okurigana, dropped), English stop words dropped. Words of 3+ characters
go to ``MATCH`` (OR-ed, ranked by bm25). Trigram cannot match 1-2 character words (``訓練``), so those use
the ``LIKE`` fallback: they re-rank the MATCH rows by how many of them a row contains, or, when a query has
only short words, are the whole query (a scan of every row).

What a results list would show (`Fts5Index.results`): each hit's title and FTS5's own ``snippet()`` of the
body around the matched words (64 tokens, its maximum; a trigram token is about one character), or, for a
query of only short words, the same width of body around the first of them.
"""

from __future__ import annotations

import re
import sqlite3
import unicodedata
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

import yaml

KNOWLEDGE_DIRS = ("sources", "entities", "concepts", "questions", "surveys")
WORD = re.compile(r"[0-9a-z][0-9a-z+.\-]*[0-9a-z+]|[0-9a-z]|[\u3400-\u9fff\u3005]+|[\u30a1-\u30ff]+")
STOP_WORDS = frozenset(
    re.findall(
        r"\S+",
        "a an the of for in on at to and or is are was were be what which who whom whose how why when where "
        "does did do paper papers about with by that this it its from as",
    )
)
SCHEMA = """
CREATE VIRTUAL TABLE docs USING fts5(path UNINDEXED, names, body, tokenize='trigram');
CREATE TABLE names(name TEXT NOT NULL, path TEXT NOT NULL);
CREATE INDEX names_by_name ON names(name);
CREATE TABLE paths(id INTEGER PRIMARY KEY, path TEXT NOT NULL UNIQUE, title TEXT NOT NULL);
"""
BM25 = "bm25(docs, 0.0, 10.0, 1.0)"
SNIPPET_TOKENS = 64
SNIPPET = f"snippet(docs, 2, '', '', '…', {SNIPPET_TOKENS})"
Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


@dataclass(frozen=True)
class Document:
    path: str
    title: str
    names: tuple[str, ...]
    body: str


@dataclass(frozen=True)
class Result:
    """One hit as a results list shows it."""

    path: str
    title: str
    snippet: str


def normalise(text: str) -> str:
    return unicodedata.normalize("NFKC", text).casefold()


def read_document(vault: Path, path: str) -> Document:
    text = (vault / path).read_text(encoding="utf-8", errors="replace")
    meta: dict = {}
    body = text
    if text.startswith("---\n"):
        end = text.find("\n---\n", 4)
        if end != -1:
            try:
                loaded = yaml.load(text[4:end], Loader=Loader)
            except yaml.YAMLError:  # a real wiki's page may have broken frontmatter: its body still counts
                loaded = None
            meta = loaded if isinstance(loaded, dict) else {}
            body = text[end + 5 :]
    aliases = meta.get("aliases") or []
    if isinstance(aliases, str):
        aliases = [part.strip() for part in aliases.split(",")]
    stem = path.rsplit("/", 1)[-1].removesuffix(".md")
    title = str(meta.get("title") or stem)
    names = [stem, title, *(str(alias) for alias in aliases)]
    return Document(path=path, title=title, names=tuple(dict.fromkeys(names)), body=body)


def read_documents(vault: Path) -> Iterator[Document]:
    for folder in KNOWLEDGE_DIRS:
        directory = vault / "wiki" / folder
        if not directory.is_dir():
            continue
        for file in sorted(directory.glob("*.md")):
            if not file.name.startswith("_"):
                yield read_document(vault, file.relative_to(vault).as_posix())


def query_words(query: str) -> list[str]:
    words = [word for word in WORD.findall(normalise(query)) if word not in STOP_WORDS]
    return list(dict.fromkeys(words))


class Fts5Index:
    def __init__(self, db_path: Path) -> None:
        self._db = sqlite3.connect(db_path, check_same_thread=False)

    @classmethod
    def build(cls, vault: Path, db_path: Path, paths: Iterable[str] | None = None) -> Fts5Index:
        """Index the knowledge pages of the harness's layout, or exactly ``paths`` (vault-relative) when
        given: the real-wiki benchmark indexes the pages sakuin indexes, whatever the vault's layout."""
        if db_path.exists():
            db_path.unlink()
        index = cls(db_path)
        index._db.executescript(SCHEMA)
        documents = read_documents(vault) if paths is None else (read_document(vault, p) for p in paths)
        with index._db:
            for document in documents:
                index._insert(document)
            index._db.execute("INSERT INTO docs(docs) VALUES ('optimize')")
        return index

    def refresh(self, vault: Path, paths: Iterable[str]) -> None:
        """Re-read the given pages (the baseline has no change detection; it is told what changed)."""
        with self._db:
            for path in paths:
                row = self._db.execute("SELECT id FROM paths WHERE path = ?", (path,)).fetchone()
                if row is not None:
                    self._db.execute("DELETE FROM docs WHERE rowid = ?", row)
                    self._db.execute("DELETE FROM names WHERE path = ?", (path,))
                    self._db.execute("DELETE FROM paths WHERE id = ?", row)
                if (vault / path).is_file():
                    self._insert(read_document(vault, path))

    def _insert(self, document: Document) -> None:
        names = [normalise(name) for name in document.names]
        cursor = self._db.execute(
            "INSERT INTO paths(path, title) VALUES (?, ?)", (document.path, document.title)
        )
        self._db.execute(
            "INSERT INTO docs(rowid, path, names, body) VALUES (?, ?, ?, ?)",
            (cursor.lastrowid, document.path, "\n".join(names), normalise(document.body)),
        )
        self._db.executemany(
            "INSERT INTO names(name, path) VALUES (?, ?)", [(n, document.path) for n in names]
        )

    def search(self, query: str, limit: int = 5) -> list[str]:
        return [path for path, _ in self._rows(query, limit, "NULL")]

    def results(self, query: str, limit: int = 5) -> list[Result]:
        """The same hits as `search`, each with its title and snippet."""
        rows = self._rows(query, limit, SNIPPET)
        short = [word for word in query_words(query) if len(word) < 3]
        results = []
        for path, snippet in rows:
            title, body = self._db.execute(
                "SELECT paths.title, docs.body FROM paths JOIN docs ON docs.rowid = paths.id "
                "WHERE paths.path = ?",
                (path,),
            ).fetchone()
            text = snippet if snippet is not None else _window(body, short)
            results.append(Result(path, title, " ".join(text.split())))
        return results

    def _rows(self, query: str, limit: int, extra: str) -> list[tuple[str, str | None]]:
        """(path, ``extra``) of the best rows; ``extra`` is NULL on the LIKE path (no MATCH, no snippet)."""
        words = query_words(query)
        long = [word for word in words if len(word) >= 3]
        short = [word for word in words if len(word) < 3]
        short_score = " + ".join(["(instr(names, ?) > 0) * 2 + (instr(body, ?) > 0)"] * len(short))
        short_args = [word for word in short for _ in (0, 1)]
        if long:
            order = f"{short_score} DESC, {BM25}" if short else BM25
            sql = f"SELECT path, {extra} FROM docs WHERE docs MATCH ? ORDER BY {order} LIMIT ?"
            args = [_any_of(long), *short_args, limit]
        elif short:
            where = " OR ".join(["names LIKE ? OR body LIKE ?"] * len(short))
            sql = f"SELECT path, NULL FROM docs WHERE {where} ORDER BY {short_score} DESC LIMIT ?"
            args = [f"%{word}%" for word in short for _ in (0, 1)] + short_args + [limit]
        else:
            return []
        return self._db.execute(sql, args).fetchall()

    def lookup(self, name: str, limit: int = 8) -> tuple[list[str], bool]:
        """Exact name first (then ``True``: an exact match); otherwise the names column ranked by shared
        trigrams, which catches most typos."""
        key = normalise(name).strip()
        sql = "SELECT DISTINCT path FROM names WHERE name = ? LIMIT ?"
        rows = self._db.execute(sql, (key, limit)).fetchall()
        if rows:
            return [path for (path,) in rows], True
        grams = list(dict.fromkeys(key[i : i + 3] for i in range(len(key) - 2)))
        if grams:
            sql = "SELECT path FROM docs WHERE docs MATCH ? ORDER BY bm25(docs, 0.0, 1.0, 0.0) LIMIT ?"
            rows = self._db.execute(sql, (f"names : ({_any_of(grams)})", limit)).fetchall()
        else:
            sql = "SELECT DISTINCT path FROM names WHERE name LIKE ? LIMIT ?"
            rows = self._db.execute(sql, (f"%{key}%", limit)).fetchall()
        return [path for (path,) in rows], False

    def close(self) -> None:
        self._db.close()


def _window(body: str, words: list[str]) -> str:
    """About ``SNIPPET_TOKENS`` characters of ``body`` around the first of ``words`` it contains."""
    at = min((found for word in words if (found := body.find(word)) >= 0), default=0)
    start = max(0, at - SNIPPET_TOKENS // 2)
    piece = body[start : start + SNIPPET_TOKENS]
    return ("…" if start else "") + piece + ("…" if start + SNIPPET_TOKENS < len(body) else "")


def _any_of(words: Iterable[str]) -> str:
    return " OR ".join('"' + word.replace('"', '""') + '"' for word in words)
