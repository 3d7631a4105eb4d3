"""How the store scores passages for a question's plan: the query whoosh would run (`finding_query`),
the same BM25F computed a term at a time over each segment's postings (`scored`), and the ranking
terms' BM25 added on the passages' stored text (`rescored`). whoosh code, behind `index.store.engine`."""

from __future__ import annotations

import heapq
import math
import threading
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from functools import lru_cache
from typing import Any

from whoosh.codec.whoosh3 import W3LeafMatcher
from whoosh.matching import Matcher
from whoosh.matching.wrappers import FilterMatcher
from whoosh.query import And, DisjunctionMax, Or, Phrase, Query, Term
from whoosh.reading import IndexReader, TermNotFound
from whoosh.scoring import bm25
from whoosh.searching import Searcher
from whoosh.util.numeric import byte_to_length

from index.analysis import fold, latin_words
from index.store.values import QueryPlan

LINKED_TO_ALL_BOOST = 12.0
NAMED_PAGE_BOOST = 2.0
TERM_FIELDS = ("body", "title", "names")
BM25_B = 0.75
BM25_K1 = 1.2

Block = tuple[Sequence[int], Sequence[float]]
"""A block of a term's postings: passage numbers and their weights (term frequencies)."""


def finding_query(plan: QueryPlan) -> Query | None:
    parts: list[Query] = [_term(term, plan.term_weights.get(term, 1.0)) for term in plan.terms]
    parts.extend(Phrase("body", list(run)) for run in plan.phrases if len(run) > 1)
    parts.extend(Term("links", path, boost=1.0) for path in plan.linked_paths)
    if len(plan.linked_paths) > 1:
        # A page linked to every page the question names (an organisation *and* a concept) is
        # what such a question is about.
        parts.append(And([Term("links", path) for path in plan.linked_paths], boost=LINKED_TO_ALL_BOOST))
    parts.extend(Term("path", path, boost=NAMED_PAGE_BOOST) for path in plan.linked_paths)
    return Or(parts) if parts else None


def scored(searcher: Searcher, plan: QueryPlan, lengths: Lengths, limit: int) -> list[tuple[float, int]]:
    """The ``limit`` best passages for the query `finding_query` makes of a plan without phrases,
    with the scores whoosh gives them, computed a term at a time.

    whoosh scores one posting at a time through a tree of matchers, a few Python calls per node
    and a file read for each field length: about 50 µs a posting, which a question walking 10,000
    postings (a 100,000-page wiki) turns into half a second. Here each term's postings are read in
    one loop, with the field lengths read once per segment. A tie goes to the earlier passage, as
    whoosh's collector breaks it."""
    found: list[tuple[float, int]] = []  # (-score, passage): the best first, a tie to the earlier
    families = {
        (term, name): _family_idf(searcher, name, (term, *plan.variants[term]))
        for term in plan.terms
        if term in plan.variants
        for name in TERM_FIELDS
    }
    for reader, base in searcher.reader().leaf_readers():
        scores: dict[int, float] = {}
        for term in plan.terms:
            weight = plan.term_weights.get(term, 1.0)
            best: dict[int, float] = {}
            forms = (term, *plan.variants.get(term, ()))
            for name in TERM_FIELDS:  # DisjunctionMax: a term counts in its best field and form
                idf = families.get((term, name))
                for form in forms:
                    _keep_best(best, _term_scores(searcher, reader, lengths, name, form, weight, idf))
            _add(scores, best)
        linking = [_term_scores(searcher, reader, lengths, "links", path) for path in plan.linked_paths]
        for scored in linking:
            _add(scores, scored)
        if len(linking) > 1:
            for docnum in set.intersection(*(set(scored) for scored in linking)):
                scores[docnum] += LINKED_TO_ALL_BOOST * sum(scored[docnum] for scored in linking)
        for path in plan.linked_paths:
            _add(scores, _term_scores(searcher, reader, lengths, "path", path, NAMED_PAGE_BOOST))
        found.extend((-score, base + docnum) for docnum, score in scores.items())
    return [(-negated, docnum) for negated, docnum in heapq.nsmallest(limit, found)]


def _family_idf(searcher: Searcher, field: str, forms: tuple[str, ...]) -> float:
    """The idf of a term said in any of its ``forms`` (``port``, ``ports``), as whoosh computes a
    term's, from the passages holding each form counted together (at most the passages holding any,
    as a passage may hold two): a rarer form weighs no more than the term. Worked out once a question,
    not once a segment: each count looks in every segment."""
    held = sum(searcher.doc_frequency(field, form) for form in forms)
    count = searcher.doc_count_all()
    return math.log(count / (min(held, count) + 1)) + 1


def _term_scores(
    searcher: Searcher,
    reader: IndexReader,
    lengths: Lengths,
    field: str,
    text: str,
    boost: float = 1.0,
    idf: float | None = None,
) -> dict[int, float]:
    """A term's score in each passage of one segment that has it in ``field``: BM25F as whoosh
    computes it (its idf, unless given, and average length are the whole index's), times the
    clause's boost."""
    try:
        blocks = _posting_blocks(reader, field, text)
    except TermNotFound:
        return {}
    deleted = reader.deleted_docs_set if reader.has_deletions() else frozenset()
    scores: dict[int, float] = {}
    if not searcher.schema[field].scorable:  # whoosh scores such a field by the posting's weight
        for ids, weights in blocks:
            scores.update(
                (docnum, tf * boost) for docnum, tf in zip(ids, weights, strict=True) if docnum not in deleted
            )
        return scores
    if idf is None:
        idf = searcher.idf(field, text)
    norms = _norms(searcher.avg_field_length(field) or 1)
    column = lengths.of(reader, field)
    k1_plus_one = BM25_K1 + 1
    for ids, weights in blocks:
        scores.update(
            (docnum, idf * ((tf * k1_plus_one) / (tf + norms[column[docnum]])) * boost)
            for docnum, tf in zip(ids, weights, strict=True)
            if docnum not in deleted
        )
    return scores


def _posting_blocks(reader: IndexReader, field: str, text: str) -> Iterator[Block]:
    """A term's postings in one segment (deleted passages included), a block of ids and weights at
    a time. Raises TermNotFound at once, not when iterated.

    whoosh's matcher interface is a few Python calls a posting, and as many again through the filter
    of deleted passages: most of a question's time at 10,000 pages. Its on-disk matcher decodes a
    whole block (up to 128 postings) at once, so each block is taken as decoded; postings inlined in
    the term's entry (a term of one passage) come through the interface."""
    matcher = reader.postings(field, text)
    if isinstance(matcher, FilterMatcher):  # the deleted passages' filter: the caller skips them
        matcher = matcher.child
    return _blocks_of(matcher)


def _blocks_of(matcher: Matcher) -> Iterator[Block]:
    if not isinstance(matcher, W3LeafMatcher):
        while matcher.is_active():
            yield (matcher.id(),), (matcher.weight(),)
            matcher.next()
        return
    while matcher.is_active():
        start = matcher._i  # a filter may have stepped over deleted passages of the first block
        matcher._read_ids()
        matcher._read_weights()
        yield matcher._ids[start:], matcher._weights[start:]
        matcher._next_block()


@lru_cache(maxsize=64)
def _norms(average: float) -> tuple[float, ...]:
    """bm25()'s length part for each of the 256 length bytes, at a field's average length: the same
    for every term of the field until the index changes."""
    return tuple(BM25_K1 * ((1 - BM25_B) + BM25_B * byte_to_length(byte) / average) for byte in range(256))


def _add(scores: dict[int, float], more: Mapping[int, float]) -> None:
    if not scores:
        scores.update(more)
        return
    for docnum, score in more.items():
        scores[docnum] = scores.get(docnum, 0.0) + score


def _keep_best(best: dict[int, float], more: Mapping[int, float]) -> None:
    """Each passage's higher score of ``best`` and ``more`` (a score of 0 counts as none)."""
    if not best:
        best.update((docnum, score) for docnum, score in more.items() if score > 0.0)
        return
    for docnum, score in more.items():
        if score > best.get(docnum, 0.0):
            best[docnum] = score


class Lengths:
    """Each segment's field lengths, one byte a passage as whoosh stores them, read whole on first
    use and kept while the segment exists (a segment never changes; deletions leave its lengths)."""

    def __init__(self) -> None:
        self._columns: dict[tuple[str, str], bytes] = {}
        self._lock = threading.Lock()

    def of(self, reader: IndexReader, field: str) -> bytes:
        key = (reader.segment().segment_id(), field)
        column = self._columns.get(key)
        if column is None:
            storage = reader.storage()
            name = reader.codec().column_filename(reader.segment(), f"_{field}_len")
            column = b""
            if storage.file_exists(name):
                with storage.open_file(name) as file:
                    column = file.read()
            with self._lock:
                self._columns[key] = column
        return column

    def keep_only(self, segment_ids: set[str]) -> None:
        with self._lock:
            self._columns = {key: value for key, value in self._columns.items() if key[0] in segment_ids}


def _term(term: str, weight: float) -> Query:
    """A term scored once, in its best field: a word in a page's title and in its text is one
    match of the question's word, not two (as BM25F saturates a term across fields)."""
    return DisjunctionMax([Term(name, term, boost=weight) for name in TERM_FIELDS])


def rescored(
    searcher: Searcher, plan: QueryPlan, scored: list[tuple[float, int, dict[str, Any]]]
) -> list[tuple[float, int, dict[str, Any]]]:
    """The found passages with the ranking terms' BM25 added, best first.

    The same formula, statistics and field lengths whoosh scores the body with, on the passages'
    stored text: walking those terms' postings to reach a few passages costs more than reading
    the passages (they are the commonest terms)."""
    average = searcher.avg_field_length("body") or 1
    idf = {term: searcher.idf("body", term) for term in plan.ranking_terms}
    rescored = []
    for score, docnum, fields in scored:
        said = fold(f"{fields['heading']}\n{fields['text']}")
        words = Counter(latin_words(said))
        length = searcher.doc_field_length(docnum, "body", 1)
        for term in plan.ranking_terms:
            count = words[term] if term.isascii() else said.count(term)
            if count:
                weight = plan.term_weights.get(term, 1.0)
                score += weight * bm25(idf[term], count, length, average, BM25_B, BM25_K1)
        rescored.append((score, docnum, fields))
    return sorted(rescored, key=lambda item: -item[0])
