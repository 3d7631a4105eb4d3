"""The search engine behind the full-text store: every whoosh call of the project lives here, in
`index.store.scoring` (how a plan's passages are scored) and in `index.store.building` (a build's writers).

Pages are indexed as chunks (a section, or a part of a long one) so that a hit carries its best
passage. Callers hand in the plain values of `index.store.values` (a `Chunk`, a `QueryPlan`) and
get plain `ChunkMatch` values back; no whoosh object leaves this module, so another engine can
replace it behind `index.store.values.PassageStore`.

The index's schema is pickled into its files by reference (`CJKTokenizer`, `_Text`, `_Frequencies`
and `_Positions` as ``index.store.engine.…``): an index whose classes cannot be found under those
names is unreadable, and rebuilt.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from functools import lru_cache
from itertools import islice, pairwise
from pathlib import Path
from typing import Any

from whoosh import scoring
from whoosh.analysis import Token as WhooshToken
from whoosh.analysis import Tokenizer
from whoosh.compat import dumps
from whoosh.fields import ID, KEYWORD, STORED, TEXT, Schema
from whoosh.filedb.filestore import FileStorage
from whoosh.formats import Format, Frequency, Positions
from whoosh.system import pack_uint

from index.analysis import token_positions, token_spans
from index.store.building import BuildWriter, SpawningWriter
from index.store.scoring import BM25_B, BM25_K1, TERM_FIELDS, Lengths, finding_query, rescored, scored
from index.store.values import Chunk, ChunkMatch, QueryPlan

INDEX_NAME = "sakuin"
APART_INDEX_NAME = "sakuin-apart"
"""The passages of pages searched apart (`Chunk.kind`: the log), in an index of their own beside
the knowledge pages': they neither take a place among the passages a question finds nor change
what a word weighs there (its IDF, a passage's average length)."""
POOL_MB = 24
"""Postings each writer process holds in memory before it writes a run to disk, and about what
merging the runs holds at the end (`index.store.postings.TermPool`; an update's writer counts as
whoosh does)."""
APART_POOL_MB = 8
"""The pool of the writer of the passages searched apart: a log is a few hundred of them."""
APART = "apart"
"""The searcher of the passages searched apart (`APART_INDEX_NAME`), among a thread's searchers."""
RESCORED = 4
"""Passages found per passage returned when a plan has ranking terms: the candidates they rescore."""
MAX_FREQUENCIES = 100_000
"""Term counts a thread remembers per searcher before it starts again (a few MB)."""
MAX_WORDS_FROM = 1024
"""Words read for a prefix (``port``: port, portable, portal, ports …), at most."""


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
        pieces = token_spans(value) if tokenize else [(value, 0, 0, len(value), False)]
        for text, position, start, end, _ in pieces:
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


class _Frequencies(Frequency):
    """whoosh's Frequency format, counting `token_positions` directly: a whoosh Token for each
    token, through the analyzer's generator chain, was about a twelfth of a build."""

    def postings(self, value: str) -> list[tuple[bytes, int, float, bytes]]:
        """What `word_values` gives, each word encoded (what `_Text.index` gives a writer)."""
        boost = self.field_boost
        return [
            (word.encode(), len(found), len(found) * boost, pack_uint(len(found)))
            for word, found in token_positions(value).items()
        ]

    def word_values(self, value, analyzer, **kwargs):
        return [(word.decode(), *rest) for word, *rest in self.postings(value)]


class _Positions(Positions):
    """whoosh's Positions format, reading `token_positions` directly (see `_Frequencies`), each
    word's positions encoded as whoosh's `Positions.encode` does (their count, the pickled gaps)."""

    def postings(self, value: str) -> list[tuple[bytes, int, float, bytes]]:
        """What `word_values` gives, each word encoded (what `_Text.index` gives a writer)."""
        boost = self.field_boost
        found_words = []
        for word, found in token_positions(value).items():
            if len(found) == 1:  # most words of a passage: their encoding is kept
                found_words.append((word.encode(), 1, boost, _one_position(found[0])))
                continue
            gaps = [found[0], *(later - earlier for earlier, later in pairwise(found))]
            count = len(found)
            found_words.append((word.encode(), count, count * boost, pack_uint(count) + dumps(gaps, 2)))
        return found_words

    def word_values(self, value, analyzer, **kwargs):
        return [(word.decode(), *rest) for word, *rest in self.postings(value)]


class _Text(TEXT):
    """whoosh's TEXT field, indexed through its format's ``postings``: whoosh's `TEXT.index` is a
    generator over the format's generator, a posting at a time, millions of times a build."""

    def index(self, value, **kwargs):
        return self.format.postings(value)


@lru_cache(maxsize=4096)
def _one_position(position: int) -> bytes:
    return pack_uint(1) + dumps([position], 2)


def _text(format_: Format) -> TEXT:
    field = _Text(analyzer=CJKTokenizer(), field_boost=format_.field_boost)
    field.format = format_
    return field


def _schema() -> Schema:
    return Schema(
        id=ID(unique=True, stored=True),
        path=ID(stored=True),
        ordinal=STORED(),
        heading=STORED(),
        text=STORED(),
        title=_text(_Frequencies(field_boost=4.0)),
        names=_text(_Frequencies(field_boost=3.0)),
        body=_text(_Positions()),
        links=KEYWORD(scorable=True, lowercase=False, commas=True),
    )


class SearchStore:
    """A whoosh index in one directory. One writer at a time; readers per thread."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self._index = None
        self._apart = None
        self._local = threading.local()
        self._lengths = Lengths()

    def create(self) -> None:
        self.directory.mkdir(parents=True, exist_ok=True)
        self._index = self._storage().create_index(_schema(), indexname=INDEX_NAME)
        self._apart = self._storage().create_index(_schema(), indexname=APART_INDEX_NAME)

    def open(self) -> None:
        """Open the index; raises when it is missing or unreadable (the caller rebuilds)."""
        self._index = self._storage().open_index(indexname=INDEX_NAME)
        self._apart = self._storage().open_index(indexname=APART_INDEX_NAME)
        for index in (self._index, self._apart):
            with index.searcher() as searcher:
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
        if self._index is None or self._apart is None:
            raise RuntimeError("store is not open")
        if workers > 1:
            writer = SpawningWriter(self._index, procs=workers, subargs={"limitmb": POOL_MB})
        else:
            writer = self._index.writer(limitmb=POOL_MB)
        batch = StoreBatch(writer, self._apart)
        try:
            yield batch
        except BaseException:
            writer.cancel()
            batch.cancel_apart()
            raise
        # The passages searched apart first: in a build the writer processes are still working
        # through their queue meanwhile, and finish their segments only once told to commit.
        batch.commit_apart()
        writer.commit()

    def search(self, plan: QueryPlan, limit: int) -> list[ChunkMatch]:
        """The ``limit`` best passages: found by the plan's terms, phrases and named pages; when it
        has ranking terms, `RESCORED` times as many are found and rescored with those too."""
        finding = finding_query(plan)
        if finding is None:
            return []
        searcher = self._searcher(plan.kind)
        wanted = limit * RESCORED if plan.ranking_terms else limit
        if plan.phrases:
            found = [(float(hit.score), hit.docnum) for hit in searcher.search(finding, limit=wanted)]
        else:
            found = scored(searcher, plan, self._lengths, wanted)
        matched = [(score, docnum, searcher.stored_fields(docnum)) for score, docnum in found]
        if plan.ranking_terms:
            matched = rescored(searcher, plan, matched)
        return [_match(fields, score) for score, _, fields in matched[:limit]]

    def page_chunks(self, path: str) -> list[ChunkMatch]:
        """Every passage of one page, in page order (score 0: nothing was asked)."""
        chunks = [
            ChunkMatch(fields["path"], fields["ordinal"], fields["heading"], fields["text"], 0.0)
            for fields in self._searcher().documents(path=path)
        ] or [
            ChunkMatch(fields["path"], fields["ordinal"], fields["heading"], fields["text"], 0.0)
            for fields in self._searcher(APART).documents(path=path)
        ]
        return sorted(chunks, key=lambda chunk: chunk.ordinal)

    def postings(self, terms: Iterable[str], kind: str = "") -> dict[str, int]:
        """How many postings searching each term walks: its passages in every field searched (an
        English word is in the body of few passages but in the titles of many sources)."""
        frequency = self._frequencies(kind)
        return {term: sum(frequency(name, term) for name in TERM_FIELDS) for term in terms}

    def words_from(self, prefix: str, kind: str = "") -> list[str]:
        """The body's words that begin with ``prefix``, in order, up to `MAX_WORDS_FROM`."""
        words = self._searcher(kind).reader().expand_prefix("body", prefix)
        return [word.decode("utf-8") for word in islice(words, MAX_WORDS_FROM)]

    def document_frequencies(self, terms: Iterable[str], kind: str = "") -> tuple[int, dict[str, int]]:
        """How many chunks there are, and how many contain each body term."""
        frequency = self._frequencies(kind)
        return self._searcher(kind).doc_count(), {term: frequency("body", term) for term in terms}

    def _frequencies(self, kind: str) -> Callable[[str, str], int]:
        """In how many passages of ``kind`` a field holds a term, remembered while the index stays as
        it is (as whoosh remembers a term's idf): a question asks for a term's count once to weigh
        it and again to plan its search, and each count is a lookup in every segment."""
        searcher = self._searcher(kind)
        memos = self._local.__dict__.setdefault("frequencies", {})
        which = APART if kind else ""
        opened, memo = memos.get(which, (None, {}))
        if opened is not searcher or len(memo) > MAX_FREQUENCIES:
            memo = {}
            memos[which] = (searcher, memo)

        def frequency(field: str, term: str) -> int:
            key = (field, term)
            if key not in memo:
                memo[key] = searcher.doc_frequency(field, term)
            return memo[key]

        return frequency

    def _searcher(self, kind: str = ""):
        """This thread's searcher of the passages of ``kind`` (any kind: those searched apart),
        opened again after a commit. Not `Searcher.refresh`: it reuses the reader of every segment
        whose id did not change, with that segment's deletions as they were, so an edited page's
        old passages kept matching beside its new ones."""
        index = self._apart if kind else self._index
        if index is None:
            raise RuntimeError("store is not open")
        searchers = self._local.__dict__.setdefault("searchers", {})
        which = APART if kind else ""
        searcher = searchers.get(which)
        if searcher is not None and not searcher.up_to_date():
            searcher.close()
            searcher = None
        if searcher is None:
            searcher = searchers[which] = index.searcher(weighting=scoring.BM25F(B=BM25_B, K1=BM25_K1))
            segments = {
                reader.segment().segment_id()
                for opened in searchers.values()
                for reader, _ in opened.reader().leaf_readers()
            }
            self._lengths.keep_only(segments)
        return searcher


class StoreBatch:
    """Deletions and additions: a knowledge page's passages to the store's index, the passages of
    pages searched apart to the index beside it (kept until the commit writes them)."""

    def __init__(self, writer, apart) -> None:
        self._writer = writer
        self._apart = apart
        self._apart_writer = None
        self._apart_added: list[dict[str, Any]] = []
        self._apart_held = apart.doc_count_all() > 0

    def delete_page(self, path: str) -> None:
        self._writer.delete_by_term("path", path)
        if self._apart_held:
            self._apart_writing().delete_by_term("path", path)

    def add(self, chunk: Chunk) -> None:
        fields = {
            "id": f"{chunk.path}#{chunk.ordinal}",
            "path": chunk.path,
            "ordinal": chunk.ordinal,
            "heading": chunk.heading,
            "text": chunk.text,
            "title": chunk.title,
            "names": chunk.names,
            "body": f"{chunk.heading}\n{chunk.text}",
            "links": ",".join(chunk.links),
        }
        if chunk.kind:
            self._apart_added.append(fields)  # written at the commit (`commit_apart`)
        else:
            self._writer.add_document(**fields)

    def _apart_writing(self):
        if self._apart_writer is None:
            if self._apart_held:
                self._apart_writer = self._apart.writer(limitmb=APART_POOL_MB)
            else:  # only adds, in order, to an empty index
                self._apart_writer = BuildWriter(self._apart, limitmb=APART_POOL_MB)
        return self._apart_writer

    def commit_apart(self) -> None:
        """Write the passages searched apart and commit them (in a build, while the writer processes
        still index the knowledge pages)."""
        if self._apart_added:
            writer = self._apart_writing()
            for fields in self._apart_added:
                writer.add_document(**fields)
        if self._apart_writer is not None:
            self._apart_writer.commit()

    def cancel_apart(self) -> None:
        if self._apart_writer is not None:
            self._apart_writer.cancel()


def _match(fields: Mapping[str, Any], score: float) -> ChunkMatch:
    return ChunkMatch(fields["path"], fields["ordinal"], fields["heading"], fields["text"], score)
