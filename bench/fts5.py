"""The baseline: SQLite FTS5 with the trigram tokenizer over the same pages.

A fair, plain use of SQLite: text NFKC-normalised and casefolded; one row per knowledge page with a ``names``
column (file stem, title, aliases) weighted 10x over ``body`` in bm25; a name table for exact lookups.

Queries are split into words the way a trigram index needs: Latin/digit runs, kanji runs and katakana
runs (hiragana runs are particles and okurigana, dropped), English stop words dropped. Words of 3+ characters
go to ``MATCH`` (OR-ed, ranked by bm25). Trigram cannot match 1-2 character words (``訓練``), so those use
the ``LIKE`` fallback: they re-rank the MATCH rows by how many of them a row contains, or, when a query has
only short words, are the whole query (a scan of every row).
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
CREATE TABLE paths(id INTEGER PRIMARY KEY, path TEXT NOT NULL UNIQUE);
"""
BM25 = "bm25(docs, 0.0, 10.0, 1.0)"
Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


@dataclass(frozen=True)
class Document:
    path: str
    names: tuple[str, ...]
    body: str


def normalise(text: str) -> str:
    return unicodedata.normalize("NFKC", text).casefold()


def read_document(vault: Path, path: str) -> Document:
    text = (vault / path).read_text(encoding="utf-8")
    meta: dict = {}
    body = text
    if text.startswith("---\n"):
        end = text.find("\n---\n", 4)
        if end != -1:
            loaded = yaml.load(text[4:end], Loader=Loader)
            meta = loaded if isinstance(loaded, dict) else {}
            body = text[end + 5 :]
    aliases = meta.get("aliases") or []
    if isinstance(aliases, str):
        aliases = [part.strip() for part in aliases.split(",")]
    stem = path.rsplit("/", 1)[-1].removesuffix(".md")
    names = [stem, str(meta.get("title") or stem), *(str(alias) for alias in aliases)]
    return Document(path=path, names=tuple(dict.fromkeys(names)), body=body)


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
    def build(cls, vault: Path, db_path: Path) -> Fts5Index:
        if db_path.exists():
            db_path.unlink()
        index = cls(db_path)
        index._db.executescript(SCHEMA)
        with index._db:
            for document in read_documents(vault):
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
        cursor = self._db.execute("INSERT INTO paths(path) VALUES (?)", (document.path,))
        self._db.execute(
            "INSERT INTO docs(rowid, path, names, body) VALUES (?, ?, ?, ?)",
            (cursor.lastrowid, document.path, "\n".join(names), normalise(document.body)),
        )
        self._db.executemany(
            "INSERT INTO names(name, path) VALUES (?, ?)", [(n, document.path) for n in names]
        )

    def search(self, query: str, limit: int = 5) -> list[str]:
        words = query_words(query)
        long = [word for word in words if len(word) >= 3]
        short = [word for word in words if len(word) < 3]
        short_score = " + ".join(["(instr(names, ?) > 0) * 2 + (instr(body, ?) > 0)"] * len(short))
        short_args = [word for word in short for _ in (0, 1)]
        if long:
            order = f"{short_score} DESC, {BM25}" if short else BM25
            sql = f"SELECT path FROM docs WHERE docs MATCH ? ORDER BY {order} LIMIT ?"
            args = [_any_of(long), *short_args, limit]
        elif short:
            where = " OR ".join(["names LIKE ? OR body LIKE ?"] * len(short))
            sql = f"SELECT path FROM docs WHERE {where} ORDER BY {short_score} DESC LIMIT ?"
            args = [f"%{word}%" for word in short for _ in (0, 1)] + short_args + [limit]
        else:
            return []
        return [path for (path,) in self._db.execute(sql, args)]

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


def _any_of(words: Iterable[str]) -> str:
    return " OR ".join('"' + word.replace('"', '""') + '"' for word in words)
