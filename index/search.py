"""Questions → ranked pages with their best passage.

Whatever the user typed is text, never query syntax: it is tokenised like the pages and turned
into a `QueryPlan` of terms and phrases. Function bigrams (hiragana only: した, のは) and English
stop words are dropped unless nothing else is left; names of pages found in the question boost
those pages and the pages linking to them.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, replace

from index.analysis import is_function_bigram, tokenize
from index.model import Candidate, Hit, Page, SearchResult
from index.names import NameTable
from index.prose import shorten, strip_citations
from index.store import ChunkMatch, QueryPlan, SearchStore

MAX_QUERY_CHARS = 500
MAX_TERMS = 48
MAX_PHRASES = 6
COMMON_SHARE = 0.03
"""A term in more than this share of passages is left to phrases: it costs the most (whoosh walks
its whole posting list) and tells the least (measured in docs/benchmarks.md)."""
KEEP_RAREST = 2
MIN_COMMON_CHUNKS = 200
"""Below this many passages a term is never too common to search for: small wikis lose no recall."""
SNIPPET_CHARS = 220
STOPWORDS = frozenset(
    [
        "a",
        "an",
        "and",
        "are",
        "as",
        "at",
        "be",
        "by",
        "can",
        "could",
        "did",
        "do",
        "does",
        "for",
        "from",
        "has",
        "have",
        "how",
        "i",
        "in",
        "is",
        "it",
        "its",
        "me",
        "of",
        "on",
        "or",
        "our",
        "so",
        "than",
        "that",
        "the",
        "their",
        "them",
        "there",
        "these",
        "they",
        "this",
        "to",
        "was",
        "we",
        "were",
        "what",
        "when",
        "where",
        "which",
        "who",
        "whom",
        "whose",
        "why",
        "will",
        "with",
        "would",
        "you",
        "your",
        "about",
        "into",
        "any",
        "all",
        "also",
        "not",
        "no",
        "yes",
        "please",
        "tell",
        "show",
        "find",
    ]
)
_SENTENCES = re.compile(r"[^。！？!?\n]+[。！？!?]?|\n")


@dataclass(frozen=True)
class Question:
    text: str
    plan: QueryPlan
    named: tuple[str, ...]


def plan_question(text: str, names: NameTable) -> Question:
    """Turn free text into terms, phrases and the pages it names."""
    text = " ".join(text.split())[:MAX_QUERY_CHARS]
    tokens = list(tokenize(text))
    content = [t for t in tokens if not (is_function_bigram(t.text) if t.cjk else t.text in STOPWORDS)]
    chosen = content or tokens
    terms: list[str] = []
    for token in chosen:
        if token.text not in terms:
            terms.append(token.text)
    phrases: list[tuple[str, ...]] = []
    run: list[str] = []
    last_position = -2
    for token in chosen:
        if token.position != last_position + 1 and len(run) > 1:
            phrases.append(tuple(run))
        if token.position != last_position + 1:
            run = []
        run.append(token.text)
        last_position = token.position
    if len(run) > 1:
        phrases.append(tuple(run))
    named = tuple(page.path for page in names.names_in(text))
    plan = QueryPlan(
        terms=tuple(terms[:MAX_TERMS]),
        phrases=tuple(phrases[:MAX_PHRASES]),
        linked_paths=named[:5],
        pages=named[:5],
    )
    return Question(text, plan, named)


def without_common_terms(plan: QueryPlan, store: SearchStore) -> QueryPlan:
    """Drop single terms found in most passages, keeping the rarest few whatever their spread."""
    total, frequencies = store.document_frequencies(plan.terms)
    if not total:
        return plan
    by_rarity = sorted(plan.terms, key=lambda term: frequencies.get(term, 0))
    kept = set(by_rarity[:KEEP_RAREST])
    limit = max(COMMON_SHARE * total, MIN_COMMON_CHUNKS)
    kept.update(term for term in plan.terms if frequencies.get(term, 0) <= limit)
    return replace(plan, terms=tuple(term for term in plan.terms if term in kept))


def search_pages(
    store: SearchStore,
    pages: dict[str, Page],
    names: NameTable,
    text: str,
    limit: int,
    url_for: Callable[[str], str | None],
) -> SearchResult:
    question = plan_question(text, names)
    if not question.plan.terms and not question.named:
        return SearchResult(text, ())
    matches = store.search(without_common_terms(question.plan, store), limit=max(40, limit * 8))
    by_page: dict[str, list[ChunkMatch]] = {}
    for match in matches:
        if match.path in pages:
            by_page.setdefault(match.path, []).append(match)
    ranked = sorted(by_page.items(), key=lambda item: -_page_score(item[1]))
    hits = tuple(
        _hit(pages[path], chunk_matches, question, url_for) for path, chunk_matches in ranked[:limit]
    )
    entities = tuple(
        Candidate(path, pages[path].title, pages[path].type, 100.0, url_for(path))
        for path in question.named
        if path in pages
    )
    return SearchResult(text, hits, entities)


def _page_score(matches: list[ChunkMatch]) -> float:
    scores = sorted((match.score for match in matches), reverse=True)
    return scores[0] + 0.25 * sum(scores[1:3])


def _hit(
    page: Page, matches: list[ChunkMatch], question: Question, url_for: Callable[[str], str | None]
) -> Hit:
    best = max(matches, key=lambda match: match.score)
    return Hit(
        path=page.path,
        title=page.title,
        type=page.type,
        score=round(_page_score(matches), 3),
        snippet=best_passage(strip_citations(best.text), question.plan.terms),
        section=best.heading or None,
        url=url_for(page.path),
    )


def best_passage(text: str, terms: tuple[str, ...]) -> str:
    """The sentence holding the most query terms, with its neighbour when short."""
    sentences = [s.strip() for s in _SENTENCES.findall(text) if s.strip()]
    if not sentences:
        return shorten(text, SNIPPET_CHARS)
    wanted = set(terms)

    def coverage(sentence: str) -> int:
        return len(wanted & {token.text for token in tokenize(sentence)})

    scores = [coverage(sentence) for sentence in sentences]
    best = max(range(len(sentences)), key=lambda index: (scores[index], -index))
    passage = sentences[best]
    if len(passage) < SNIPPET_CHARS // 2 and best + 1 < len(sentences):
        passage = f"{passage} {sentences[best + 1]}"
    return shorten(passage, SNIPPET_CHARS)
