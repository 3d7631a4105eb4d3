"""The full-text store: every whoosh call of the project lives in this module.

Pages are indexed as chunks (a section, or a part of a long one) so that a hit carries its best
passage. Callers hand in plain `Chunk` values and a `QueryPlan` and get back plain `ChunkMatch`
values; no whoosh object leaves this module, so the engine can be replaced behind it.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from whoosh import scoring
from whoosh.analysis import Token as WhooshToken
from whoosh.analysis import Tokenizer
from whoosh.fields import ID, KEYWORD, STORED, TEXT, Schema
from whoosh.filedb.filestore import FileStorage
from whoosh.query import And, Or, Phrase, Query, Term

from index.analysis import tokenize

INDEX_NAME = "sakuin"
LINKED_TO_ALL_BOOST = 12.0
NAMED_PAGE_BOOST = 2.0


class CJKTokenizer(Tokenizer):
    """whoosh adapter for `index.analysis.tokenize` (Latin words + CJK bigrams, folded)."""

    def __eq__(self, other: object) -> bool:
        return self.__class__ is other.__class__

    def __hash__(self) -> int:
        return hash(self.__class__)

    def __call__(  # type: ignore[override]
        self,
        value: str,
        positions: bool = False,
        chars: bool = False,
        keeporiginal: bool = False,
        removestops: bool = True,
        start_pos: int = 0,
        start_char: int = 0,
        tokenize: bool = True,
        mode: str = "",
        **kwargs: object,
    ) -> Iterator[WhooshToken]:
        token = WhooshToken(positions, chars, removestops=removestops, mode=mode, **kwargs)
        pieces = _tokens(value) if tokenize else [(value, 0, 0, len(value))]
        for text, position, start, end in pieces:
            token.text = text
            token.boost = 1.0
            token.stopped = False
            if keeporiginal:
                token.original = text
            if positions:
                token.pos = start_pos + position
            if chars:
                token.startchar = start_char + start
                token.endchar = start_char + end
            yield token


def _tokens(value: str) -> Iterator[tuple[str, int, int, int]]:
    for token in tokenize(value):
        yield token.text, token.position, token.start, token.end


def _schema() -> Schema:
    analyzer = CJKTokenizer()
    return Schema(
        id=ID(unique=True, stored=True),
        path=ID(stored=True),
        ordinal=STORED(),
        heading=STORED(),
        text=STORED(),
        title=TEXT(analyzer=analyzer, field_boost=4.0, phrase=False),
        names=TEXT(analyzer=analyzer, field_boost=3.0, phrase=False),
        body=TEXT(analyzer=analyzer, phrase=True),
        links=KEYWORD(scorable=True, lowercase=False, commas=True),
    )


@dataclass(frozen=True)
class Chunk:
    path: str
    ordinal: int
    heading: str
    text: str
    title: str = ""
    names: str = ""
    links: tuple[str, ...] = ()


@dataclass(frozen=True)
class QueryPlan:
    """What to look for: single terms (at a weight other than 1 when ``term_weights`` says so),
    phrases (runs of terms), and the pages the question names (``linked_paths``): their own
    passages and the pages linking to them rank higher."""

    terms: tuple[str, ...]
    phrases: tuple[tuple[str, ...], ...] = ()
    linked_paths: tuple[str, ...] = ()
    term_weights: Mapping[str, float] = field(default_factory=dict)


@dataclass(frozen=True)
class ChunkMatch:
    path: str
    ordinal: int
    heading: str
    text: str
    score: float


class SearchStore:
    """A whoosh index in one directory. One writer at a time; readers per thread."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self._index = None
        self._local = threading.local()

    def create(self) -> None:
        self.directory.mkdir(parents=True, exist_ok=True)
        self._index = self._storage().create_index(_schema(), indexname=INDEX_NAME)

    def open(self) -> None:
        """Open the index; raises when it is missing or unreadable (the caller rebuilds)."""
        self._index = self._storage().open_index(indexname=INDEX_NAME)
        with self._index.searcher() as searcher:
            searcher.doc_count()

    def _storage(self) -> FileStorage:
        """Segment files are read, not memory-mapped: at 10,000 pages mapping them doubled the
        serving process's memory (336 MB against 147 MB) for no measurable speed (p99 133 against
        139 ms; docs/benchmarks.md)."""
        return FileStorage(str(self.directory), supports_mmap=False)

    @contextmanager
    def writing(self, *, workers: int = 1) -> Iterator[StoreBatch]:
        """A batch of deletions and additions, committed (and merged) on success only.

        ``workers`` > 1 indexes in that many processes, each writing its own segment (for full
        builds; an incremental update is too small to gain from it).
        """
        if self._index is None:
            raise RuntimeError("store is not open")
        if workers > 1:
            writer = self._index.writer(procs=workers, multisegment=True, limitmb=96)
        else:
            writer = self._index.writer(limitmb=128)
        try:
            yield StoreBatch(writer)
        except BaseException:
            writer.cancel()
            raise
        writer.commit()

    def search(self, plan: QueryPlan, limit: int) -> list[ChunkMatch]:
        query = _build_query(plan)
        if query is None:
            return []
        searcher = self._searcher()
        results = searcher.search(query, limit=limit)
        return [
            ChunkMatch(hit["path"], hit["ordinal"], hit["heading"], hit["text"], float(hit.score))
            for hit in results
        ]

    def page_chunks(self, path: str) -> list[ChunkMatch]:
        """Every passage of one page, in page order (score 0: nothing was asked)."""
        searcher = self._searcher()
        chunks = [
            ChunkMatch(fields["path"], fields["ordinal"], fields["heading"], fields["text"], 0.0)
            for fields in searcher.documents(path=path)
        ]
        return sorted(chunks, key=lambda chunk: chunk.ordinal)

    def document_frequencies(self, terms: Iterable[str]) -> tuple[int, dict[str, int]]:
        """How many chunks there are, and how many contain each body term."""
        searcher = self._searcher()
        return searcher.doc_count(), {term: searcher.doc_frequency("body", term) for term in terms}

    def _searcher(self):
        if self._index is None:
            raise RuntimeError("store is not open")
        searcher = getattr(self._local, "searcher", None)
        if searcher is None:
            searcher = self._index.searcher(weighting=scoring.BM25F(B=0.75, K1=1.2))
        elif not searcher.up_to_date():
            searcher = searcher.refresh()
        self._local.searcher = searcher
        return searcher


class StoreBatch:
    def __init__(self, writer) -> None:
        self._writer = writer

    def delete_page(self, path: str) -> None:
        self._writer.delete_by_term("path", path)

    def add(self, chunk: Chunk) -> None:
        self._writer.add_document(
            id=f"{chunk.path}#{chunk.ordinal}",
            path=chunk.path,
            ordinal=chunk.ordinal,
            heading=chunk.heading,
            text=chunk.text,
            title=chunk.title,
            names=chunk.names,
            body=f"{chunk.heading}\n{chunk.text}",
            links=",".join(chunk.links),
        )


def _build_query(plan: QueryPlan) -> Query | None:
    parts: list[Query] = []
    for term in plan.terms:
        weight = plan.term_weights.get(term, 1.0)
        parts.append(Term("body", term, boost=weight))
        parts.append(Term("title", term, boost=weight))
        parts.append(Term("names", term, boost=weight))
    for run in plan.phrases:
        if len(run) > 1:
            parts.append(Phrase("body", list(run), boost=float(len(run))))
    parts.extend(Term("links", path, boost=1.0) for path in plan.linked_paths)
    if len(plan.linked_paths) > 1:
        # A page linked to every page the question names (an organisation *and* a concept) is
        # what such a question is about.
        parts.append(And([Term("links", path) for path in plan.linked_paths], boost=LINKED_TO_ALL_BOOST))
    parts.extend(Term("path", path, boost=NAMED_PAGE_BOOST) for path in plan.linked_paths)
    return Or(parts) if parts else None
