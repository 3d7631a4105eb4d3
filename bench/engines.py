"""The two engines under test, behind one small interface the worker drives.

``sakuin`` is the project's own domain facade (`index.wiki.Wiki`, whoosh underneath); ``fts5`` is the SQLite
baseline (`bench.fts5`). Both answer with vault-relative paths, best first.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from bench.fts5 import Fts5Index


@dataclass(frozen=True)
class Answer:
    paths: list[str]
    decided: bool
    """For lookups: the engine named one page as the match (rather than only offering candidates)."""


class Engine(Protocol):
    def build(self) -> None: ...
    def refresh(self, changed: Sequence[str]) -> None: ...
    def lookup(self, name: str) -> Answer: ...
    def search(self, query: str, limit: int) -> list[str]: ...


class SakuinEngine:
    def __init__(self, vault: Path, index: Path) -> None:
        from index.wiki import Wiki  # imported here: the baseline's worker never pays for it

        self._wiki = Wiki.open(vault, index)

    def build(self) -> None:
        from bot.cli import build_workers

        self._wiki.update(rebuild=True, workers=build_workers())  # as `sakuin index` builds

    def refresh(self, changed: Sequence[str]) -> None:
        """The facade finds changed files itself (fingerprints); ``changed`` is not needed."""
        self._wiki.update()

    def lookup(self, name: str) -> Answer:
        result = self._wiki.lookup(name)
        paths = [candidate.path for candidate in result.candidates]
        if result.match is not None:
            paths = [result.match.path, *(path for path in paths if path != result.match.path)]
        return Answer(paths, result.match is not None)

    def search(self, query: str, limit: int) -> list[str]:
        return [hit.path for hit in self._wiki.search(query, limit).hits]


class Fts5Engine:
    def __init__(self, vault: Path, index: Path) -> None:
        self._vault = vault
        self._db = index / "fts5.sqlite3"
        self._index = Fts5Index(self._db) if self._db.exists() else None

    def build(self) -> None:
        self._db.parent.mkdir(parents=True, exist_ok=True)
        self._index = Fts5Index.build(self._vault, self._db)

    def refresh(self, changed: Sequence[str]) -> None:
        self._ready().refresh(self._vault, changed)

    def lookup(self, name: str) -> Answer:
        paths, exact = self._ready().lookup(name)
        return Answer(paths, exact)

    def search(self, query: str, limit: int) -> list[str]:
        return self._ready().search(query, limit)

    def _ready(self) -> Fts5Index:
        if self._index is None:
            raise RuntimeError(f"no FTS5 index at {self._db}")
        return self._index


ENGINES = {"sakuin": SakuinEngine, "fts5": Fts5Engine}


def open_engine(name: str, vault: Path, index: Path) -> Engine:
    return ENGINES[name](vault, index)
