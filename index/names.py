"""Names: normalisation and entity resolution (``/entity NAME``, ``sakuin lookup``).

A name table maps normalised names (titles, file names, aliases, source short titles, link display
names) to pages. Resolution never goes through full-text search, and it goes by levels:

1. exact: the name as written, NFKC + casefold (spacing collapsed), is a page's title, file stem,
   alias or source short title;
2. loose: equal once separators, punctuation and legal suffixes are folded away
   (``bytedance-seed`` = ``ByteDance Seed``), and link display names;
3. typo: within an edit distance small for the name's length.

A match at a higher level always wins. Within a level a title or stem beats an alias, which beats
a short title, which beats a display name, and a full page beats a stub; two pages still equal
after that are a tie, answered as ``ambiguous`` with both as candidates, whatever their types.
Names that are linked but have no page are answers too ("no page yet").
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Iterable
from dataclasses import dataclass
from itertools import islice

from rapidfuzz import fuzz, process
from rapidfuzz.distance import DamerauLevenshtein, Levenshtein

from index.analysis import fold
from index.format import CONCEPT, ENTITY, NOTE, SOURCE

_LEGAL_WORDS = frozenset(
    {
        "inc",
        "incorporated",
        "corp",
        "corporation",
        "co",
        "ltd",
        "limited",
        "llc",
        "plc",
        "gmbh",
        "ag",
        "kk",
        "sa",
    }
)
_LEGAL_JA = re.compile(r"株式会社|有限会社|合同会社|\(株\)|（株）|㈱|\(有\)|㈲")
_SEPARATORS = re.compile(r"[\W_]+")
_LATIN_WORD = re.compile(r"[a-z0-9]+")
MAX_NAME_WORDS = 4
_TYPE_RANK = {ENTITY: 0, CONCEPT: 1, NOTE: 2, "question": 3, "survey": 3, "thesis": 3, SOURCE: 4}
"""Orders candidates that tie (an entity is listed before a source of the same name); never
decides a tie. Types of a team's own folders list like notes."""
_KIND_RANK = {"title": 0, "stem": 0, "alias": 1, "short": 2, "display": 3}
"""``short``: a source's short title (``MegaScale`` for ``@2024__NSDI__MegaScale - Scaling…``);
``display``: the text of a link to the page (``[[University of Chinese Academy of Sciences|UCAS]]``)."""
_OWN_NAMES = frozenset({"title", "stem", "alias", "short"})
EXACT_SCORE = 100.0
LOOSE_SCORE = 96.0
"""Scores of the first two levels, less one per kind rank; typos score below 90."""


def normalize_name(name: str) -> str:
    """Fold case and width, drop legal suffixes (Inc., 株式会社 …), spacing and punctuation."""
    return "".join(_name_words(fold(name)))


def exact_name(name: str) -> str:
    """The name as written, NFKC + casefold, with runs of spaces collapsed: the exact level."""
    return " ".join(fold(name).split())


def _name_words(folded: str) -> list[str]:
    """The words of a folded name, without a trailing legal suffix."""
    words = [word for word in _SEPARATORS.split(_LEGAL_JA.sub(" ", folded)) if word]
    while len(words) > 1 and words[-1] in _LEGAL_WORDS:
        words.pop()
    return words


def typo_budget(key: str) -> int:
    """How many edits a name of this length may carry and still be the same name."""
    if len(key) <= 3:
        return 0
    if len(key) <= 5:
        return 1
    if len(key) <= 12:
        return 2
    return 3


@dataclass(frozen=True)
class NamedPage:
    path: str
    title: str
    type: str
    tier: str


@dataclass(frozen=True)
class NameSpan:
    """A page's name found in a text: ``start``/``end`` index the folded text."""

    start: int
    end: int
    page: NamedPage


@dataclass(frozen=True)
class NameHit:
    page: NamedPage
    name: str
    kind: str
    score: float

    @property
    def rank(self) -> tuple[float, int, int, int, str]:
        """Sort key; its first three items decide, the rest only order a tie's candidates."""
        return (
            -self.score,
            _KIND_RANK[self.kind],
            0 if self.page.tier == "full" else 1,
            _TYPE_RANK.get(self.page.type, _TYPE_RANK[NOTE]),
            self.page.path,
        )


@dataclass(frozen=True)
class Resolution:
    match: NameHit | None
    candidates: tuple[NameHit, ...]
    unresolved: tuple[str, tuple[str, ...]] | None = None
    """(the name as linked, paths of the pages that mention it)."""
    ambiguous: bool = False
    """Several pages are known by the name equally well: the caller should let the user choose."""


class NameTable:
    """Every name a page is known by, and every linked name that has no page."""

    def __init__(self) -> None:
        self._entries: dict[str, list[tuple[NamedPage, str, str, str]]] = {}
        """Loose key → (page, name as written, kind, exact form)."""
        self._unresolved: dict[str, tuple[str, set[str]]] = {}
        self._mentions: dict[str, list[tuple[str, NamedPage]]] = {}
        self._words: dict[str, set[str]] = {}
        self._added: set[tuple[str, str, str]] = set()

    def add(self, page: NamedPage, name: str, kind: str) -> None:
        if (name, page.path, kind) in self._added:  # display names repeat once per linking page
            return
        self._added.add((name, page.path, kind))
        folded = fold(name).strip()
        words = _name_words(folded)
        key = "".join(words)
        if not key:
            return
        entries = self._entries.setdefault(key, [])
        exact = exact_name(name)
        if not any(other.path == page.path and k == kind and e == exact for other, _, k, e in entries):
            entries.append((page, name, kind, exact))
        if len(words) > 1:
            for word in words:
                if len(word) >= 2:
                    self._words.setdefault(word, set()).add(key)
        if len(folded) >= 2:
            self._mentions.setdefault(folded[:2], []).append((folded, page))

    def add_unresolved(self, name: str, mentioned_in: str) -> None:
        key = normalize_name(name)
        if key and key not in self._entries:
            self._unresolved.setdefault(key, (name, set()))[1].add(mentioned_in)

    def finish(self) -> None:
        """Drop unresolved names that turned out to have a page, and index keys for fuzzy search."""
        for key in [key for key in self._unresolved if key in self._entries]:
            del self._unresolved[key]
        self._added.clear()
        self._keys = list(self._entries)
        self._sorted_keys = sorted(self._keys)
        for bucket in self._mentions.values():
            bucket.sort(key=lambda item: -len(item[0]))

    def resolve(self, name: str, limit: int = 8) -> Resolution:
        key = normalize_name(name)
        if not key:
            return Resolution(None, ())
        named = sorted(self._named(key, exact_name(name)), key=lambda hit: hit.rank)
        if named:
            winner = _clear_winner(named)
            nearby = self._longer_names(key, limit) if winner else self._suggestions(key, limit)
            return Resolution(winner, _unique(named + nearby, limit), ambiguous=winner is None)
        if key in self._unresolved:
            linked, paths = self._unresolved[key]
            return Resolution(
                None, _unique(self._suggestions(key, limit), limit), (linked, tuple(sorted(paths)))
            )
        typos = self._typos(key)
        if typos:
            winner = _clear_winner(typos)
            candidates = _unique(typos + self._suggestions(key, limit), limit)
            return Resolution(winner, candidates, ambiguous=winner is None)
        return Resolution(None, _unique(self._suggestions(key, limit), limit), self._unresolved_typo(key))

    def names_in(self, text: str) -> list[NamedPage]:
        """Pages whose names occur in ``text`` as whole words, longest names first."""
        found: list[NamedPage] = []
        for span in self.name_spans(text):
            if span.page not in found:
                found.append(span.page)
        return found

    def name_spans(self, text: str) -> list[NameSpan]:
        """Where names occur in ``fold(text)``: as written (NFKC + casefold), then runs of Latin
        words typed with other spacing, hyphens or a legal suffix (``XPU Timer``, ``CCL D``) as
        `resolve` reads them."""
        folded = fold(text)
        spans: list[NameSpan] = []
        for start in range(len(folded) - 1):
            found: NameSpan | None = None
            for name, page in self._mentions.get(folded[start : start + 2], ()):  # longest first
                end = start + len(name)
                if found is not None and end < found.end:
                    break
                if not folded.startswith(name, start) or not _word_bounded(folded, start, end):
                    continue
                if found is None or _page_rank(page) < _page_rank(found.page):
                    found = NameSpan(start, end, page)
            if found is not None and not any(s.start <= start and found.end <= s.end for s in spans):
                spans.append(found)
        words = list(_LATIN_WORD.finditer(folded))
        for first in range(len(words)):
            for last in range(min(len(words), first + MAX_NAME_WORDS) - 1, first - 1, -1):
                start, end = words[first].start(), words[last].end()
                if any(s.start < end and start < s.end for s in spans):
                    continue
                pages = [entry[0] for entry in self._entries.get(normalize_name(folded[start:end]), ())]
                if pages:
                    spans.append(NameSpan(start, end, min(pages, key=_page_rank)))
                    break
        return sorted(spans, key=lambda span: span.start)

    def _named(self, key: str, exact: str) -> list[NameHit]:
        """The names equal to the one asked for: exact (a page's own name as written) or loose."""
        hits = []
        for page, name, kind, written in self._entries.get(key, ()):
            level = EXACT_SCORE if written == exact and kind in _OWN_NAMES else LOOSE_SCORE
            hits.append(NameHit(page, name, kind, level - _KIND_RANK[kind]))
        return hits

    def _hits(self, key: str, score: float) -> list[NameHit]:
        return [NameHit(page, name, kind, score) for page, name, kind, _ in self._entries.get(key, ())]

    def _typos(self, key: str) -> list[NameHit]:
        """Names within the typo budget (a transposition counts as one edit).

        Plain Levenshtein (bit-parallel, fast) preselects with twice the budget, since a
        transposition costs it two edits; Damerau-Levenshtein then decides on the few left.
        """
        budget = typo_budget(key)
        if not budget:
            return []
        close = process.extract(
            key, self._keys, scorer=Levenshtein.distance, score_cutoff=2 * budget, limit=50
        )
        hits: list[NameHit] = []
        for other, _, _ in close:
            distance = DamerauLevenshtein.distance(key, other)
            if distance <= min(budget, typo_budget(other)):
                hits.extend(self._hits(other, round(90.0 * (1 - distance / max(len(key), len(other))), 1)))
        return sorted(hits, key=lambda hit: hit.rank)

    def _longer_names(self, key: str, limit: int) -> list[NameHit]:
        """Names that start with ``key`` (``ByteDance`` → ``ByteDance Seed``): a sorted-list range."""
        start = bisect_left(self._sorted_keys, key)
        hits: list[NameHit] = []
        for other in islice(self._sorted_keys, start, start + limit + 1):
            if not other.startswith(key):
                break
            if other != key:
                hits.extend(self._hits(other, round(fuzz.ratio(key, other) * 0.8, 1)))
        return hits

    def _suggestions(self, key: str, limit: int) -> list[NameHit]:
        """The nearest names when nothing matches well: names that start with or contain the word
        asked for (``Lin`` → ``Haibin Lin``), then similar spellings."""
        similar = process.extract(key, self._keys, scorer=fuzz.ratio, score_cutoff=60, limit=limit)
        hits = self._longer_names(key, limit)
        for other in sorted(self._words.get(key, ()))[:limit]:
            hits.extend(self._hits(other, round(fuzz.ratio(key, other) * 0.8, 1)))
        for other, score, _ in similar:
            if other != key:
                hits.extend(self._hits(other, round(min(score, 89.0) * 0.8, 1)))
        return sorted(hits, key=lambda hit: hit.rank)

    def _unresolved_typo(self, key: str) -> tuple[str, tuple[str, ...]] | None:
        budget = typo_budget(key)
        if not budget or not self._unresolved:
            return None
        best = process.extractOne(
            key, list(self._unresolved), scorer=DamerauLevenshtein.distance, score_cutoff=budget
        )
        if not best:
            return None
        linked, paths = self._unresolved[best[0]]
        return linked, tuple(sorted(paths))


def _page_rank(page: NamedPage) -> tuple[int, int]:
    """Which of several pages known by one name a text most likely means: an entity before a
    concept before a source, a full page before a stub."""
    return _TYPE_RANK.get(page.type, _TYPE_RANK[NOTE]), 0 if page.tier == "full" else 1


def _clear_winner(ranked: list[NameHit]) -> NameHit | None:
    """The first hit, unless the next different page ties with it (same score, kind and tier)."""
    best = ranked[0]
    for other in ranked[1:]:
        if other.page.path == best.page.path:
            continue
        return None if other.rank[:3] == best.rank[:3] else best
    return best


def _unique(hits: Iterable[NameHit], limit: int) -> tuple[NameHit, ...]:
    seen: set[str] = set()
    kept: list[NameHit] = []
    for hit in hits:
        if hit.page.path not in seen:
            seen.add(hit.page.path)
            kept.append(hit)
    return tuple(kept[:limit])


def _word_bounded(text: str, start: int, end: int) -> bool:
    def latin(char: str) -> bool:
        return char.isascii() and char.isalnum()

    before = text[start - 1] if start > 0 else " "
    after = text[end] if end < len(text) else " "
    return not (latin(text[start]) and latin(before)) and not (latin(text[end - 1]) and latin(after))
