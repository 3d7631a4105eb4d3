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

import math
import re
import threading
from bisect import bisect_left
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Generic, Protocol, TypeVar

from rapidfuzz import fuzz, process
from rapidfuzz.distance import DamerauLevenshtein, Indel

from index.analysis import fold
from index.reading.format import CONCEPT, ENTITY, NOTE, SOURCE, SYNTHESIS_TYPES

V = TypeVar("V")
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
_TYPE_RANK = {ENTITY: 0, CONCEPT: 1, NOTE: 2, **dict.fromkeys(SYNTHESIS_TYPES, 3), SOURCE: 4}
"""Orders candidates that tie (an entity is listed before a source of the same name); never
decides a tie. Types of a team's own folders list like notes."""
_KIND_RANK = {"title": 0, "stem": 0, "alias": 1, "short": 2, "display": 3}
"""``short``: a source's short title (``MegaScale`` for ``@2024__NSDI__MegaScale - Scaling…``);
``display``: the text of a link to the page (``[[University of Chinese Academy of Sciences|UCAS]]``)."""
_OWN_NAMES = frozenset({"title", "stem", "alias", "short"})
_SCRIPT_LIMITS = ((0, 0), (1, 3), (4, 10**9))
"""How many characters that are not ASCII the keys of each script have (`_script`)."""
_SCRIPTS = range(len(_SCRIPT_LIMITS))
CACHE_SIZE = 4096
"""Keys (and name prefixes) whose rows a table keeps once read."""
SIMILAR_CUTOFF = 60
"""The `fuzz.ratio` from which a name is suggested as nearby."""
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


@dataclass(frozen=True, slots=True)
class NamedPage:
    path: str
    title: str
    type: str
    tier: str


@dataclass(frozen=True, slots=True)
class NameSpan:
    """A page's name found in a text: ``start``/``end`` index the folded text."""

    start: int
    end: int
    page: NamedPage


@dataclass(frozen=True, slots=True)
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


NameRow = tuple[str, str, str, str, str, str]
"""One name of a page, worked out once when the page is written: (name as written, kind, loose key,
exact form, folded form, its words joined by spaces)."""
Entry = tuple[NamedPage, str, str, str]
"""Loose key → (page, name as written, kind, exact form)."""


def name_row(name: str, kind: str) -> NameRow | None:
    """The row of a name, or None for a name with no letters or digits at all."""
    folded = fold(name).strip()
    words = _name_words(folded)
    key = "".join(words)
    if not key:
        return None
    return (name, kind, key, exact_name(name), folded, " ".join(words))


class NameSource(Protocol):
    """Where a `NameTable` reads names from (`index.catalog.reader.CatalogRows`, the catalog's tables)."""

    def entries(self, key: str) -> list[Entry]:
        """The names with this loose key, in `_entry_order`."""
        ...

    def starts_names(self, prefix: str) -> bool:
        """Whether some name's folded form starts with these two characters."""
        ...

    def mentions(self, text: str) -> list[tuple[str, NamedPage]]:
        """(folded name, page) of the names (two characters or more) ``text`` begins with, longest first."""
        ...

    def keys_from(self, key: str, count: int) -> list[str]:
        """Up to ``count`` keys that start with ``key`` (itself included), in order."""
        ...

    def keys_with_word(self, word: str) -> list[str]:
        """The keys of names of several words, one of them ``word``, in order."""
        ...

    def unresolved(self, key: str) -> tuple[str, tuple[str, ...]] | None:
        """(the name as first linked, paths linking it) of a name linked without a page."""
        ...

    def unresolved_keys(self) -> list[str]:
        """Every name linked without a page (and without a name of a page reading the same)."""
        ...

    def all_keys(self) -> list[str]:
        """Every key, in order."""
        ...


class _NoNames:
    def entries(self, key: str) -> list[Entry]:
        return []

    def starts_names(self, prefix: str) -> bool:
        return False

    def mentions(self, text: str) -> list[tuple[str, NamedPage]]:
        return []

    def keys_from(self, key: str, count: int) -> list[str]:
        return []

    def keys_with_word(self, word: str) -> list[str]:
        return []

    def unresolved(self, key: str) -> tuple[str, tuple[str, ...]] | None:
        return None

    def unresolved_keys(self) -> list[str]:
        return []

    def all_keys(self) -> list[str]:
        return []


class _Read(Generic[V]):
    """``source``'s answers by argument, kept (up to `CACHE_SIZE`) for the life of one table."""

    def __init__(self, read: Callable[[str], V]) -> None:
        self._read = read
        self._kept: dict[str, V] = {}

    def get(self, key: str) -> V:
        found = self._kept.get(key)
        if found is None:
            found = self._read(key)
            if len(self._kept) >= CACHE_SIZE:
                self._kept.clear()
            self._kept[key] = found
        return found


class NameTable:
    """Every name a page is known by, and every linked name that has no page: read from the
    catalog's rows when a lookup asks (a quarter of a million names at 100,000 pages are never all
    in memory), except the list of keys the fuzzy levels scan, loaded on first use.

    One table answers for one state of the index; the writer hands the next state's table the
    key list it kept up to date (`with_keys`), so an edit never reloads it.
    """

    def __init__(self, source: NameSource | None = None, by_length: list[str] | None = None) -> None:
        self._source: NameSource = source or _NoNames()
        self._entries = _Read(self._source.entries)
        self._starts_names = _Read(self._source.starts_names)
        self._length_list = by_length
        self._unresolved_list: list[str] | None = None
        self._lock = threading.Lock()

    @property
    def _by_length(self) -> list[str]:
        """The keys by script (`_script`), then length, then in order: those a typo can reach are
        a slice of it in one or two scripts."""
        if self._length_list is None:
            with self._lock:
                if self._length_list is None:
                    # Fresh copies, allocated one after another in this order: a lookup reads a
                    # slice of tens of thousands of keys, and keys scattered over the heap (as
                    # reading rows leaves them) made that up to twice as slow.
                    keys = sorted(self._source.all_keys(), key=_scan_order)
                    self._length_list = [key.encode().decode() for key in keys]
        return self._length_list

    def with_keys(self, source: NameSource, changed: dict[str, bool]) -> NameTable:
        """The table of the next state: ``changed`` says of each key whether it is a key now."""
        if self._length_list is None:
            return NameTable(source)
        return NameTable(source, _changed(self._length_list, changed))

    def resolve(self, name: str, limit: int = 8) -> Resolution:
        key = normalize_name(name)
        if not key:
            return Resolution(None, ())
        named = sorted(self._named(key, exact_name(name)), key=lambda hit: hit.rank)
        if named:
            winner = _clear_winner(named)
            nearby = self._longer_names(key, limit) if winner else self._suggestions(key, limit)
            return Resolution(winner, _unique(named + nearby, limit), ambiguous=winner is None)
        unresolved = self._source.unresolved(key)
        if unresolved is not None:
            return Resolution(None, _unique(self._suggestions(key, limit), limit), unresolved)
        typos = self._typos(key)
        if typos:
            # As for a name matched as written: similar spellings only when no page clearly won.
            winner = _clear_winner(typos)
            nearby = self._longer_names(key, limit) if winner else self._suggestions(key, limit)
            return Resolution(winner, _unique(typos + nearby, limit), ambiguous=winner is None)
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
            if start and _latin(folded[start]) and _latin(folded[start - 1]):
                continue  # inside a word: no name starts here
            if not self._starts_names.get(folded[start : start + 2]):
                continue
            for name, page in self._source.mentions(folded[start:]):  # longest first
                end = start + len(name)
                if found is not None and end < found.end:
                    break
                if not _word_bounded(folded, start, end):
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
                pages = [entry[0] for entry in self._entries.get(normalize_name(folded[start:end]))]
                if pages:
                    spans.append(NameSpan(start, end, min(pages, key=_page_rank)))
                    break
        return sorted(spans, key=lambda span: span.start)

    def _named(self, key: str, exact: str) -> list[NameHit]:
        """The names equal to the one asked for: exact (a page's own name as written) or loose."""
        hits = []
        for page, name, kind, written in self._entries.get(key):
            level = EXACT_SCORE if written == exact and kind in _OWN_NAMES else LOOSE_SCORE
            hits.append(NameHit(page, name, kind, level - _KIND_RANK[kind]))
        return hits

    def _hits(self, key: str, score: float) -> list[NameHit]:
        return [NameHit(page, name, kind, score) for page, name, kind, _ in self._entries.get(key)]

    def _typos(self, key: str) -> list[NameHit]:
        """Names within the typo budget (a transposition counts as one edit).

        Only keys whose length is within the budget of the name's can be that close: a slice of the
        keys by length (a fifth of them, at 100,000 pages). The insertions and deletions distance
        (bit-parallel, the fastest rapidfuzz has) preselects there with twice the budget, since a
        substitution or a transposition costs it two; Damerau-Levenshtein then decides on the few
        left. No limit: a name in a crowded stretch of keys could have more than any limit close.
        """
        budget = typo_budget(key)
        if not budget:
            return []
        close = process.extract(
            key,
            self._of_length(len(key) - budget, len(key) + budget, _scripts_within(key, budget)),
            scorer=Indel.distance,
            score_cutoff=2 * budget,
            limit=None,
        )
        hits: list[NameHit] = []
        for other, _, _ in close:
            distance = DamerauLevenshtein.distance(key, other)
            if distance <= min(budget, typo_budget(other)):
                hits.extend(self._hits(other, round(90.0 * (1 - distance / max(len(key), len(other))), 1)))
        return sorted(hits, key=lambda hit: hit.rank)

    def _of_length(self, shortest: int, longest: int, scripts: Iterable[int] = _SCRIPTS) -> list[str]:
        """The names of ``shortest`` to ``longest`` characters in these scripts: no other can be
        within an edit budget or a similarity of a query of about that length (most names are long
        titles)."""
        keys = self._by_length
        found: list[str] = []
        for script in scripts:
            start = bisect_left(keys, (script, shortest, ""), key=_scan_order)
            found += keys[start : bisect_left(keys, (script, longest + 1, ""), key=_scan_order)]
        return found

    def _longer_names(self, key: str, limit: int) -> list[NameHit]:
        """Names that start with ``key`` (``ByteDance`` → ``ByteDance Seed``): a sorted-list range."""
        hits: list[NameHit] = []
        for other in self._source.keys_from(key, limit + 1):
            if other != key:
                hits.extend(self._hits(other, round(fuzz.ratio(key, other) * 0.8, 1)))
        return hits

    def _suggestions(self, key: str, limit: int) -> list[NameHit]:
        """The nearest names when nothing matches well: names that start with or contain the word
        asked for (``Lin`` → ``Haibin Lin``), then similar spellings."""
        # fuzz.ratio is 1 - indel / (a + b) and indel >= |a - b|: only names between 3/7 and 7/3
        # of the query's length can reach SIMILAR_CUTOFF.
        share = SIMILAR_CUTOFF / 100
        shortest = math.ceil(len(key) * share / (2 - share))
        longest = math.floor(len(key) * (2 - share) / share)
        similar = process.extract(
            key,
            self._of_length(shortest, longest),
            scorer=fuzz.ratio,
            score_cutoff=SIMILAR_CUTOFF,
            limit=limit,
        )
        hits = self._longer_names(key, limit)
        for other in self._source.keys_with_word(key)[:limit]:
            hits.extend(self._hits(other, round(fuzz.ratio(key, other) * 0.8, 1)))
        for other, score, _ in similar:
            if other != key:
                hits.extend(self._hits(other, round(min(score, 89.0) * 0.8, 1)))
        return sorted(hits, key=lambda hit: hit.rank)

    def _unresolved_typo(self, key: str) -> tuple[str, tuple[str, ...]] | None:
        budget = typo_budget(key)
        if budget and self._unresolved_list is None:
            self._unresolved_list = self._source.unresolved_keys()  # two threads may both read it
        linked_only = self._unresolved_list if budget else []
        if not linked_only:
            return None
        best = process.extractOne(key, linked_only, scorer=DamerauLevenshtein.distance, score_cutoff=budget)
        return self._source.unresolved(best[0]) if best else None


def _others(key: str) -> int:
    """How many characters of ``key`` are not ASCII."""
    return len(key) - len(key.encode("ascii", "ignore"))


def _script(key: str) -> int:
    """0: ASCII only; 1: one to three other characters; 2: more (a Japanese name, mostly)."""
    others = _others(key)
    return next(script for script, (fewest, most) in enumerate(_SCRIPT_LIMITS) if fewest <= others <= most)


def _scripts_within(key: str, budget: int) -> list[int]:
    """The scripts of the keys ``budget`` edits can reach from ``key``: an edit changes how many
    characters are not ASCII by one at most, so a Latin name's typo never reads as a Japanese one
    (half of the keys of about its length, at 100,000 pages)."""
    others = _others(key)
    return [
        script
        for script, (fewest, most) in enumerate(_SCRIPT_LIMITS)
        if others - budget <= most and others + budget >= fewest
    ]


def _scan_order(key: str) -> tuple[int, int, str]:
    return (_script(key), len(key), key)


def _changed(keys: list[str], changes: dict[str, bool]) -> list[str]:
    """A copy of ``keys`` (in `_scan_order`) with each key of ``changes`` added (True) or
    removed (False)."""
    kept = list(keys)
    for key, present in sorted(changes.items()):
        at = bisect_left(kept, _scan_order(key), key=_scan_order)
        there = at < len(kept) and kept[at] == key
        if present and not there:
            kept.insert(at, key)
        elif there and not present:
            del kept[at]
    return kept


def distinct_rows(rows: Iterable[NameRow]) -> tuple[NameRow, ...]:
    """A page's names in canonical order, without a second name of one kind that reads the same
    (``Byte Dance`` and ``Byte  Dance``)."""
    kept: dict[tuple[str, str, str], NameRow] = {}
    for row in sorted(set(rows), key=lambda row: (_KIND_RANK[row[1]], row[0])):
        kept.setdefault((row[2], row[1], row[3]), row)
    return tuple(kept.values())


def many_words(row: NameRow) -> list[str]:
    """The words of a name of several words that `NameTable._suggestions` finds it by."""
    words = row[5].split(" ")
    return [word for word in words if len(word) >= 2] if len(words) > 1 else []


def entry_order(entry: Entry) -> tuple[str, int, str]:
    return (entry[0].path, _KIND_RANK[entry[2]], entry[1])


def mention_order(item: tuple[str, NamedPage]) -> tuple[int, str, str]:
    return (-len(item[0]), item[0], item[1].path)


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
    before = text[start - 1] if start > 0 else " "
    after = text[end] if end < len(text) else " "
    return not (_latin(text[start]) and _latin(before)) and not (_latin(text[end - 1]) and _latin(after))


def _latin(char: str) -> bool:
    return char.isascii() and char.isalnum()
