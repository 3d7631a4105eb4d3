"""Questions → ranked pages, each with the sentence of it that best answers the question.

The question is read once (`index.asking.question`); its terms go to the store with the pages it names,
which rank higher together with the pages linking to them. The rarest terms find passages, as many
as a postings budget allows (whoosh's cost is the postings it walks); the commoner ones then rank
what was found. When every word of the question is common, its exact phrase is searched instead.
A question that names exactly one page is about that page: it is the first hit. Each hit shows the
sentence of its matching passages that answers most of the question (`index.asking.sentences`), not
merely its best-scoring passage.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace

from index.analysis import tokenize
from index.asking.acronyms import expansion_spans
from index.asking.inflections import inflections_held
from index.asking.mentions import folded_names
from index.asking.quantities import COUNTERS, find_measured, writes_unit
from index.asking.question import MAX_TERMS, Question, read_question
from index.asking.sentences import Scored, SentenceScorer
from index.asking.splitting import Sentence, split_sentences
from index.asking.vocabulary import Shape
from index.asking.weights import bigrams, keyword_weights, name_terms, name_weight
from index.asking.wordforms import spellings
from index.catalog.names import NameTable
from index.model import Candidate, Hit, Page, SearchResult
from index.reading.prose import shorten
from index.store.values import ChunkMatch, PassageStore, QueryPlan

COMMON_SHARE = 0.03
"""A term in more than this share of passages tells little alone: when every word of a question is
that common, only their order can find the passage (`common_phrase`)."""
KEEP_RAREST = 2
MIN_COMMON_CHUNKS = 200
"""Below this many passages every term is searched: small wikis lose nothing."""
POSTINGS_BUDGET = 15_000
"""How many postings the terms that find passages may have together, rarest first. The store scores
about one posting every 2.7 µs on the benchmark machine (docs/benchmarks.md): this keeps finding
under ~40 ms whatever the wiki's size and the question's length. The terms left out rank the
passages found (`index.store.values.QueryPlan.ranking_terms`), so they still count."""
SNIPPET_CHARS = 220
GLOSSES_SEARCHED = 2
"""English renderings searched for a Japanese word the wiki never writes: the dictionary's first
two, its first senses first."""
CHUNKS_PER_HIT = 8
"""Passages retrieved per hit asked for: enough for every page shown to bring its matching passages."""
MIN_CHUNKS = 40


@dataclass(frozen=True)
class Ranked:
    """One page of a retrieval: its score and the passages of it that matched."""

    path: str
    score: float
    chunks: tuple[ChunkMatch, ...]


@dataclass(frozen=True)
class Retrieval:
    question: Question
    pages: tuple[Ranked, ...]
    total: int
    """How many passages the wiki has (for IDF)."""
    frequencies: Mapping[str, int]
    """In how many passages each term and keyword of the question occurs."""


def search_pages(
    store: PassageStore,
    pages: dict[str, Page],
    names: NameTable,
    text: str,
    limit: int,
    url_for: Callable[[str], str | None],
) -> SearchResult:
    question = read_question(text, names, pages)
    if question.too_long:
        return SearchResult(text, (), too_long=True)
    retrieval = retrieve(store, pages, question, limit, names)
    read = [sentences_of(ranked.chunks, rank) for rank, ranked in enumerate(retrieval.pages)]
    scorer = scorer_for(retrieval, pages, names, [s for sentences in read for s in sentences])
    hits = tuple(
        page_hit(pages[ranked.path], ranked, scorer.best(sentences), url_for)
        for ranked, sentences in zip(retrieval.pages, read, strict=True)
    )
    entities = tuple(
        Candidate(path, pages[path].title, pages[path].type, 100.0, url_for(path)) for path in question.named
    )
    return SearchResult(text, hits, entities)


def retrieve(
    store: PassageStore,
    pages: Mapping[str, Page],
    question: Question,
    limit: int,
    names: NameTable,
    *,
    subject: str | None = None,
    kind: str = "",
) -> Retrieval:
    """The ``limit`` best pages for the question. ``subject`` (a page a follow-up is about) counts
    as named when the question names no page. ``kind``: search the passages of pages searched
    apart of that type (the log, `index.store.values.Chunk.kind`) instead of the knowledge pages';
    nothing named ranks them (they link to nothing)."""
    about = () if kind else question.named or ((subject,) if subject in pages else ())
    plan = question.plan(about)
    if kind:
        plan = replace(plan, linked_paths=(), kind=kind)
    keywords = {
        term
        for keyword in question.keywords
        for text in (keyword.text, *keyword.glosses, *((keyword.whole,) if keyword.whole else ()))
        for term in (text, *bigrams(text))
    }
    subject_terms = [
        term for path in about if path not in question.named for term in name_terms(pages[path].title)
    ]
    total, frequencies = store.document_frequencies({*plan.terms, *keywords, *subject_terms}, kind)
    written = renderings_written(question, frequencies, plan.terms)
    if written:
        plan = replace(plan, terms=(*plan.terms, *written)[:MAX_TERMS])
    plan = replace(plan, variants=inflections_held(store, plan.terms, kind))
    if not plan.terms and not about:
        return Retrieval(question, (), total, frequencies)
    matches = _search(store, plan, question, total, frequencies, max(MIN_CHUNKS, limit * CHUNKS_PER_HIT))
    known = {path for path in {match.path for match in matches} if path in pages}  # a page read once
    by_page: dict[str, list[ChunkMatch]] = {}
    for match in matches:
        if match.path in known:
            by_page.setdefault(match.path, []).append(match)
    ranked = [Ranked(path, _page_score(chunks), tuple(chunks)) for path, chunks in by_page.items()]
    ranked.sort(key=lambda page: (-page.score, page.path))  # ties by path: not by where a build put them
    if not about:
        # A question that names no page has only its words: the page that says them in one
        # sentence answers it. (Pages it names are found through the graph: their own pages, the
        # pages linking to all of them, which their sentences need not say.)
        ranked = _by_answer(Retrieval(question, tuple(ranked), total, frequencies), pages, names)
    wanted = question.answered_by
    if wanted is not None:
        # "which paper …" is answered by a paper: the concept it names is its topic, not its answer.
        ranked.sort(key=lambda page: pages[page.path].type != wanted)
    if question.shape is Shape.DIFFERENCE:
        for path in reversed(about[:2]):  # the things compared answer a difference
            ranked = _first(path, ranked, store)
    elif len(about) == 1 and question.wants in (None, pages[about[0]].type):
        # The page a question names holds the relation it asks for (its ソース line lists the
        # papers): first, unless the question asks for another kind of page itself (which paper).
        ranked = _first(about[0], ranked, store)
    return Retrieval(question, tuple(ranked[:limit]), total, frequencies)


def renderings_written(
    question: Question, frequencies: Mapping[str, int], terms: tuple[str, ...]
) -> list[str]:
    """How the wiki writes the words it never writes as the question does: a Japanese word no
    passage contains (パスワード over English pages) is searched by its English renderings that
    passages do contain (``password``), its first senses only. A word the wiki writes is searched
    as typed, and its renderings only weigh sentences (`index.asking.weights`)."""
    found: list[str] = []
    for keyword in question.keywords:
        if (
            keyword.text.isascii()
            or keyword.name is not None
            or keyword.lone
            or frequencies.get(keyword.text)
        ):
            continue
        for english in keyword.glosses[:GLOSSES_SEARCHED]:
            if frequencies.get(english) and english not in terms and english not in found:
                found.append(english)
    return found


def _by_answer(retrieval: Retrieval, pages: Mapping[str, Page], names: NameTable) -> list[Ranked]:
    """The pages in the order of the best sentence of their matching passages (`index.asking.sentences`:
    the share of the question's weight it says, halved when it lacks what the question asks for),
    the retrieval's order among equals. A passage's score adds up its words wherever they stand; a
    sentence that says them together, with the number asked for, is the answer."""
    read = [sentences_of(ranked.chunks, rank) for rank, ranked in enumerate(retrieval.pages)]
    scorer = scorer_for(retrieval, pages, names, [s for found in read for s in found])
    best = [max((scorer.score(s).score for s in found), default=0.0) for found in read]
    order = sorted(range(len(read)), key=lambda index: (-round(best[index], 3), index))
    return [retrieval.pages[index] for index in order]


def scorer_for(
    retrieval: Retrieval,
    pages: Mapping[str, Page],
    names: NameTable,
    sentences: list[Sentence],
    subject: str | None = None,
) -> SentenceScorer:
    """A scorer for the question of ``retrieval``, weighing its keywords against ``sentences``."""
    said = [sentence.folded for sentence in sentences]
    titles = [
        name for path in {s.path for s in sentences} if path in pages for name in folded_names(pages[path])
    ]
    weights = keyword_weights(retrieval.question, retrieval.total, retrieval.frequencies, said, titles)
    units = unit_renderings(retrieval.question)
    written = any(writes_unit(sentence.folded, unit) for sentence in sentences for unit in units)
    if not written and not _kept(units):
        units = ()  # how many interruptions: the passages count 中断 in Japanese; any number may answer
    # how long, what width: answered by a number in a unit of a measure asked, those the passages write.
    measures = tuple(
        m for m in retrieval.question.measures if any(find_measured(sentence, m) for sentence in said)
    )
    subject_weight = (
        name_weight(pages[subject].title, retrieval.total, retrieval.frequencies) if subject else 0.0
    )
    acronym = retrieval.question.expands
    if acronym and not any(expansion_spans(acronym, sentence.text) for sentence in sentences):
        acronym = None  # no passage spells it out as the acronyms module reads one: the shape decides
    return SentenceScorer(
        retrieval.question,
        weights,
        pages,
        names,
        subject=subject,
        subject_weight=subject_weight,
        units=units,
        measures=measures,
        expands=acronym,
    )


def _kept(units: tuple[str, ...]) -> bool:
    """A unit the passages must say even when none does: a kanji noun (何議席) is what Japanese
    prose counts with; when no passage says it, no number answers. An English unit may be said in
    Japanese (interruptions: 中断), a katakana one in Latin letters (フレーム: 5F), a counter (何人:
    13 名) in many ways."""
    return bool(units) and _KANJI.fullmatch(units[0]) is not None and units[0] not in COUNTERS


def unit_renderings(question: Question) -> tuple[str, ...]:
    """The unit the question counts, its noun first (how many H100 GPUs: gpu, h100), and how the
    other language says them (file → ファイル)."""
    if question.unit is None:
        return ()
    glosses = {k.text: k.glosses for k in question.keywords}
    words = reversed(question.unit.split())
    said = (form for word in words for said in (word, *glosses.get(word, ())) for form in spellings(said))
    units = tuple(dict.fromkeys(said))
    return (*units, "%", "％") if any(u in _PERCENT for u in units) else units


_KANJI = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff]+")
_PERCENT = frozenset({"パーセント", "percent", "percentage"})


def sentences_of(chunks: tuple[ChunkMatch, ...], rank: int) -> list[Sentence]:
    return [
        sentence
        for chunk in chunks
        for sentence in split_sentences(
            chunk.text, path=chunk.path, section=chunk.heading, ordinal=chunk.ordinal, rank=rank
        )
    ]


def page_hit(page: Page, ranked: Ranked, best: list[Scored], url_for: Callable[[str], str | None]) -> Hit:
    """A page as a hit: its best sentence (with the next one when it is short) and its section."""
    if not best:
        chunk = ranked.chunks[0]
        return Hit(
            page.path,
            page.title,
            page.type,
            round(ranked.score, 3),
            shorten(chunk.text, SNIPPET_CHARS),
            chunk.heading or None,
            url_for(page.path),
        )
    top = best[0].sentence
    snippet = top.text
    if len(snippet) < SNIPPET_CHARS // 2:
        following = [
            s.sentence
            for s in best
            if s.sentence.ordinal == top.ordinal and s.sentence.index == top.index + 1
        ]
        if following:
            snippet = f"{snippet} {following[0].text}"
    return Hit(
        path=page.path,
        title=page.title,
        type=page.type,
        score=round(ranked.score, 3),
        snippet=shorten(snippet, SNIPPET_CHARS),
        section=top.section or None,
        url=url_for(page.path),
    )


def within_budget(plan: QueryPlan, total: int, postings: Mapping[str, int]) -> QueryPlan:
    """The terms that find passages, within `POSTINGS_BUDGET`: first each word's rarest term,
    rarest word first (any term of a word finds its passages, the rarest at the least cost: 団指
    for 集団指標), then the words' other terms, rarest first; always the rarest `KEEP_RAREST`.
    The others only rank the passages these found. ``postings``: how many each term walks
    (`PassageStore.postings`)."""
    if total <= MIN_COMMON_CHUNKS:
        return plan

    def cost(term: str) -> int:
        return postings.get(term, 0)

    words = _words(plan.terms)
    first = sorted((min(word, key=cost) for word in words), key=cost)
    rest = sorted((term for term in plan.terms if term not in first), key=cost)
    kept: set[str] = set()
    walked = 0
    for term in (*first, *rest):
        walked += cost(term)
        if len(kept) >= KEEP_RAREST and walked > POSTINGS_BUDGET:
            break
        kept.add(term)
    return replace(
        plan,
        terms=tuple(term for term in plan.terms if term in kept),
        ranking_terms=(*(term for term in plan.terms if term not in kept), *plan.ranking_terms),
    )


def _words(terms: tuple[str, ...]) -> list[list[str]]:
    """Terms grouped by the word they come from: CJK bigrams that chain (アー, ーキ, キテ …) are
    one word; a Latin word is its own."""
    words: list[list[str]] = []
    for term in terms:
        last = words[-1][-1] if words else ""
        chains = len(term) == 2 and len(last) == 2 and not term.isascii() and last[1] == term[0]
        if chains:
            words[-1].append(term)
        else:
            words.append([term])
    return words


def common_phrase(question: Question, total: int, frequencies: Mapping[str, int]) -> tuple[str, ...] | None:
    """The question as one phrase, when every word of it is too common to search for alone
    (``driven by a consistent``): then only the order of its words can find the passage."""
    limit = _common_limit(total)
    if not question.terms or any(frequencies.get(term, 0) <= limit for term in question.terms):
        return None
    words = tuple(token.text for token in tokenize(question.text))
    return words[:MAX_TERMS] if len(words) > 1 else None


def _search(
    store: PassageStore,
    plan: QueryPlan,
    question: Question,
    total: int,
    frequencies: Mapping[str, int],
    limit: int,
) -> list[ChunkMatch]:
    phrase = common_phrase(question, total, frequencies)
    if phrase is not None:
        matches = store.search(replace(plan, terms=(), phrases=(phrase,)), limit=limit)
        if matches:
            return matches
    return store.search(within_budget(plan, total, store.postings(plan.terms, plan.kind)), limit=limit)


def _common_limit(total: int) -> float:
    return max(COMMON_SHARE * total, MIN_COMMON_CHUNKS)


def _first(path: str, ranked: list[Ranked], store: PassageStore) -> list[Ranked]:
    """The page the question is about, first (read from the store when no passage of it matched)."""
    own = next((page for page in ranked if page.path == path), None)
    if own is None:
        chunks = tuple(store.page_chunks(path))
        if not chunks:
            return ranked
        own = Ranked(path, 0.0, chunks)
    top = max((page.score for page in ranked), default=own.score)
    return [replace(own, score=max(own.score, top)), *(page for page in ranked if page.path != path)]


def _page_score(matches: list[ChunkMatch]) -> float:
    scores = sorted((match.score for match in matches), reverse=True)
    return scores[0] + 0.25 * sum(scores[1:3])
