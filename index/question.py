"""Reading a question: its words, the pages it names, and the kind of answer it asks for.

One reading serves retrieval (`index.search`) and the answer step (`index.answer`):

- **terms and phrases** for the full-text store. Whatever was typed is text, never syntax.
  Function bigrams (hiragana only: した, のは) and English stop words are dropped unless nothing
  else is left.
- **the pages it names**: titles, aliases and sources' short names, also typed with other case,
  width, spacing or a legal suffix, as `/entity` reads names (`index.names`).
- **the wiki's aliases as a bilingual dictionary**: a page named in one script adds the terms of
  its names in the other (``root cause analysis`` → 根本原因分析, 異常検知 → ``anomaly detection``),
  so an English question finds Japanese prose and the reverse.
- **its shape and the relation it asks for** (`index.asking`: a number, a name, a definition, a
  difference; 開発元, 共同研究先 …).
- **keywords** for choosing sentences: Latin words, and CJK bigrams taken inside words (a bigram
  across a particle, like の本 in の本番, says nothing about an answer), a lone kanji as itself.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

from index.analysis import fold, is_function_bigram, tokenize
from index.asking import STOPWORDS, Relation, Shape, gloss, relations_asked, shape_of, singular
from index.model import Page
from index.names import NameSpan, NameTable
from index.store import QueryPlan

MAX_QUERY_CHARS = 1000
"""The longest question answered. The edge refuses longer text politely; the domain never cuts."""
MAX_TERMS = 48
MAX_PHRASES = 6
MAX_LINKED = 5
DICTIONARY_TYPES = frozenset({"entity", "concept"})
"""Pages whose names translate: a source's aliases are citations (``Cui+, arXiv2025``), not names."""
LATIN_NAMED_TYPES = frozenset({"entity"})
"""Pages the prose names in Latin letters (ByteDance, not バイトダンス): typed in Latin, their other
names add nothing; typed in kana or kanji, their Latin names are what the prose says."""


@dataclass(frozen=True)
class Keyword:
    """A unit of the question a sentence can contain. ``name`` is the path of the page whose name
    it is part of (a sentence on that page, or naming it, contains it)."""

    text: str
    start: int
    name: str | None = None
    word: int = 0
    """Where the word it was taken from starts (手動 and 診断 both come from 手動診断)."""
    glosses: tuple[str, ...] = ()
    """How Japanese prose says this English word (``reduce`` → 削減, 短縮 …), from `GLOSSES`."""

    @property
    def lone(self) -> bool:
        """A single kanji or kana: says less than a word or bigram (短 of 短くなった)."""
        return len(self.text) == 1 and not self.text.isascii()


@dataclass(frozen=True)
class Question:
    text: str
    language: str
    """``ja`` when anything but the names is written in Japanese, else ``en``."""
    terms: tuple[str, ...]
    phrases: tuple[tuple[str, ...], ...]
    named: tuple[str, ...]
    """Pages named in the question, in the order they occur."""
    names: tuple[NameSpan, ...]
    expansions: tuple[tuple[str, float], ...]
    """Terms the bilingual dictionary added, with their weight."""
    shape: Shape
    unit: str | None
    """What the asked number counts (何 GPU → ``gpu``), when the question says."""
    cues: tuple[str, ...]
    """Words an answer of this shape contains (``which team`` → チーム, team …)."""
    wants: str | None
    """The type of page that answers (``which paper`` → ``source``), when the question says."""
    relations: tuple[Relation, ...]
    keywords: tuple[Keyword, ...]
    too_long: bool = False

    @property
    def folded(self) -> str:
        return fold(self.text)

    def plan(self, extra_linked: tuple[str, ...] = ()) -> QueryPlan:
        """The store query: terms (expansions at their weight), phrases, pages named."""
        weights = {term: weight for term, weight in self.expansions if term not in self.terms}
        linked = tuple(dict.fromkeys((*self.named, *extra_linked)))[:MAX_LINKED]
        return QueryPlan(
            terms=(*self.terms, *weights)[:MAX_TERMS],
            phrases=self.phrases,
            linked_paths=linked,
            term_weights=weights,
        )


def read_question(text: str, names: NameTable, pages: Mapping[str, Page]) -> Question:
    """Everything the search and the answer step need to know about ``text``."""
    text = " ".join(text.split())
    if len(text) > MAX_QUERY_CHARS:
        return Question(text, "en", (), (), (), (), (), Shape.OPEN, None, (), None, (), (), too_long=True)
    folded = fold(text)
    spans = tuple(_papers_named(folded, names.name_spans(text), names))
    named = tuple(dict.fromkeys(span.page.path for span in spans if span.page.path in pages))
    terms, phrases = _terms_and_phrases(text)
    shaped = shape_of(folded)
    relations, relation_spans = relations_asked(folded, shaped.shape)
    return Question(
        text=text,
        language=_language(folded, spans),
        terms=terms,
        phrases=phrases,
        named=named,
        names=spans,
        expansions=_expansions(folded, spans, pages),
        shape=shaped.shape,
        unit=shaped.unit,
        cues=shaped.cues,
        wants=shaped.wants,
        relations=relations,
        keywords=_keywords(folded, spans, [*shaped.asking, *relation_spans]),
    )


def _papers_named(folded: str, spans: list[NameSpan], names: NameTable) -> list[NameSpan]:
    """``Minder の論文``, ``the Minder paper``: a name a product and its paper share means the paper
    when the question says so."""
    found = []
    for span in spans:
        after = folded[span.end : span.end + 8]
        if span.page.type != SOURCE and _PAPER_AFTER.match(after):
            sources = [hit.page for hit in names.resolve(folded[span.start : span.end]).candidates]
            paper = next((page for page in sources if page.type == SOURCE), None)
            if paper is not None:
                span = NameSpan(span.start, span.end, paper)
        found.append(span)
    return found


_PAPER_AFTER = re.compile(r"\s*(?:の\s*)?(?:論文|paper)")
SOURCE = "source"


def _terms_and_phrases(text: str) -> tuple[tuple[str, ...], tuple[tuple[str, ...], ...]]:
    tokens = list(tokenize(text))
    content = [t for t in tokens if not (is_function_bigram(t.text) if t.cjk else t.text in STOPWORDS)]
    chosen = content or tokens
    terms = tuple(dict.fromkeys(token.text for token in chosen))
    phrases: list[tuple[str, ...]] = []
    run: list[str] = []
    last_position = -2
    for token in chosen:
        if token.position != last_position + 1:
            if len(run) > 1:
                phrases.append(tuple(run))
            run = []
        run.append(token.text)
        last_position = token.position
    if len(run) > 1:
        phrases.append(tuple(run))
    return terms[:MAX_TERMS], tuple(phrases[:MAX_PHRASES])


def _language(folded: str, spans: tuple[NameSpan, ...]) -> str:
    rest = list(folded)
    for span in spans:
        rest[span.start : span.end] = [" "] * (span.end - span.start)
    return "ja" if any(_is_cjk(char) for char in rest) else "en"


def _expansions(
    folded: str, spans: tuple[NameSpan, ...], pages: Mapping[str, Page]
) -> tuple[tuple[str, float], ...]:
    """Terms of a named page's names in the other script, weighted so the name counts once."""
    added: dict[str, float] = {}
    for span in spans:
        page = pages.get(span.page.path)
        if page is None or page.type not in DICTIONARY_TYPES:
            continue
        written = folded[span.start : span.end]
        latin = not any(_is_cjk(char) for char in written)
        if latin and page.type in LATIN_NAMED_TYPES:
            continue
        size = sum(1 for _ in tokenize(written))
        for name in (page.title, *page.aliases):
            if latin == (not any(_is_cjk(char) for char in fold(name))):
                continue
            terms = [
                t.text for t in tokenize(name) if not is_function_bigram(t.text) and t.text not in STOPWORDS
            ]
            for term in terms:  # the name weighs as much in the other script as where it was typed
                added[term] = max(added.get(term, 0.0), min(1.0, size / len(terms)))
    return tuple(added.items())


def _keywords(folded: str, spans: tuple[NameSpan, ...], asking: list[tuple[int, int]]) -> tuple[Keyword, ...]:
    """Latin words and in-word CJK bigrams (lone kanji as themselves), outside the asking words."""

    def asked(start: int, end: int) -> bool:
        return any(s < end and start < e for s, e in asking)

    def owner(start: int) -> str | None:
        return next((span.page.path for span in spans if span.start <= start < span.end), None)

    found: dict[str, Keyword] = {}
    for match in _WORD.finditer(folded):
        word = match.group()
        start = match.start()
        if word.isascii():
            if asked(start, match.end()):
                continue
            if word not in STOPWORDS or owner(start):
                text = singular(word)
                found.setdefault(
                    text, Keyword(text, start, owner(start), start, () if owner(start) else gloss(text))
                )
            continue
        for piece in _SCRIPT_RUN.finditer(word):
            text, offset = piece.group(), start + piece.start()
            grams = [text] if len(text) == 1 else [text[i : i + 2] for i in range(len(text) - 1)]
            for index, gram in enumerate(grams):
                at = offset + index
                if not asked(at, at + len(gram)) and not _HIRAGANA.fullmatch(gram):
                    found.setdefault(gram, Keyword(gram, at, owner(at), offset))
    return tuple(found.values())


_WORD = re.compile(r"[a-z0-9]+|[\u3005\u3007\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]+")
_SCRIPT_RUN = re.compile(r"[\u30a0-\u30ff]+|[\u3005\u3007\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]+")
"""Inside a CJK run, words are runs of one script: katakana, or kanji. Hiragana are particles and
endings, and a bigram across a script change (番ク of 本番クラスタ) spans two words."""
_HIRAGANA = re.compile(r"[\u3040-\u309f]+")


def _is_cjk(char: str) -> bool:
    return bool(_WORD.fullmatch(char)) and not char.isascii()
