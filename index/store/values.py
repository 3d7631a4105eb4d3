"""What the full-text store is handed and gives back, engine-free: the passages a page is indexed
as (`Chunk`), what a question looks for (`QueryPlan`), what is found (`ChunkMatch`), and what
the asking side needs of an engine (`PassageStore`; `index.store.engine.SearchStore` is one)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Protocol


@dataclass(frozen=True)
class Chunk:
    path: str
    ordinal: int
    heading: str
    text: str
    title: str = ""
    names: str = ""
    links: tuple[str, ...] = ()
    kind: str = ""
    """Empty for a knowledge page's passage; else the type of a page searched apart (the log)."""


@dataclass(frozen=True)
class QueryPlan:
    """What to look for: single terms (at a weight other than 1 when ``term_weights`` says so),
    phrases (runs of terms), and the pages the question names (``linked_paths``): their own
    passages and the pages linking to them rank higher.

    ``ranking_terms`` are terms too common to find passages by (the engine would walk most of the
    index for each): like the phrases, they only add to the score of passages the other clauses
    found, so that among those the passage with more of the question ranks first.
    """

    terms: tuple[str, ...]
    phrases: tuple[tuple[str, ...], ...] = ()
    linked_paths: tuple[str, ...] = ()
    term_weights: Mapping[str, float] = field(default_factory=dict)
    ranking_terms: tuple[str, ...] = ()
    variants: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    """Other inflections of a term that the index holds (``port``: ``ports``, ``ported``): a passage
    saying one of them says the term, scored in its best form as a term is in its best field."""
    kind: str = ""
    """Which passages are searched: those of this `Chunk.kind` only (empty: the knowledge pages')."""


@dataclass(frozen=True)
class ChunkMatch:
    path: str
    ordinal: int
    heading: str
    text: str
    score: float


class PassageStore(Protocol):
    """The reading side of a full-text store, as questions are searched and answered."""

    def search(self, plan: QueryPlan, limit: int) -> list[ChunkMatch]:
        """The ``limit`` best passages for ``plan``."""
        ...

    def page_chunks(self, path: str) -> list[ChunkMatch]:
        """Every passage of one page, in page order."""
        ...

    def postings(self, terms: Iterable[str], kind: str = "") -> dict[str, int]:
        """How many postings searching each term walks (among the passages of ``kind``)."""
        ...

    def words_from(self, prefix: str, kind: str = "") -> list[str]:
        """The words of the passages (of ``kind``) that begin with ``prefix``, in order, a bounded few."""
        ...

    def document_frequencies(self, terms: Iterable[str], kind: str = "") -> tuple[int, dict[str, int]]:
        """How many passages (of ``kind``) there are, and how many contain each term."""
        ...
