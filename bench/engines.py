"""The two engines under test, behind one small interface the worker drives.

``sakuin`` is the project's own domain facade (`index.wiki.Wiki`, whoosh underneath); ``fts5`` is the SQLite
baseline (`bench.fts5`). Both answer with vault-relative paths, best first, and both answer a question with
Slack blocks: sakuin with the reply a mention gets (`bot.answering.replies.reply_for_text`), FTS5 with a
plain results list, one section per hit holding its title and its snippet.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from bench.fts5 import Fts5Index

if TYPE_CHECKING:
    from config.settings import Settings
    from index.wiki import Wiki

REPLY_HITS = 5
"""Hits in the baseline's results list: as many as sakuin's search shows."""


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
    def reply(self, question: str) -> list[dict]: ...


class SakuinEngine:
    def __init__(self, vault: Path, index: Path) -> None:
        from index.wiki import Wiki  # imported here: the baseline's worker never pays for it

        self._vault, self._index = vault, index
        self._wiki = Wiki.open(vault, index)
        self._settings: Settings | None = None

    def build(self) -> None:
        from bot.cli.fresh_index import build_workers

        self._wiki.update(rebuild=True, workers=build_workers())  # as `sakuin index` builds

    def refresh(self, changed: Sequence[str]) -> None:
        """Told the changed files, as the bot's file watcher tells it (`bot.serve.freshness`); the first
        update of the process compares every file anyway."""
        self._wiki.update(paths=changed)

    def lookup(self, name: str) -> Answer:
        result = self._wiki.lookup(name)
        paths = [candidate.path for candidate in result.candidates]
        if result.match is not None:
            paths = [result.match.path, *(path for path in paths if path != result.match.path)]
        return Answer(paths, result.match is not None)

    def search(self, query: str, limit: int) -> list[str]:
        return [hit.path for hit in self._wiki.search(query, limit).hits]

    @property
    def wiki(self) -> Wiki:
        return self._wiki

    @property
    def settings(self) -> Settings:
        """The bot's settings for this vault and index, with no model configured."""
        from config.settings import Settings

        if self._settings is None:
            self._settings = Settings(
                _env_file=None,
                wiki_dir=self._vault,
                index_dir=self._index,
                state_db=self._index / "bench-state.sqlite3",
                llm_base_url=None,
                llm_model=None,
            )
        return self._settings

    def reply(self, question: str) -> list[dict]:
        """The blocks a mention of the bot gets, composed by the bot's own code (no LLM configured)."""
        from bot.answering.replies import reply_for_text

        return list(reply_for_text(question, self._wiki, self.settings, private=False).blocks)


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

    def reply(self, question: str) -> list[dict]:
        return [
            {"type": "section", "text": {"type": "plain_text", "text": f"{result.title}\n{result.snippet}"}}
            for result in self._ready().results(question, REPLY_HITS)
        ]

    def _ready(self) -> Fts5Index:
        if self._index is None:
            raise RuntimeError(f"no FTS5 index at {self._db}")
        return self._index


ENGINES = {"sakuin": SakuinEngine, "fts5": Fts5Engine}


def open_engine(name: str, vault: Path, index: Path) -> Engine:
    return ENGINES[name](vault, index)
