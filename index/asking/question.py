"""Reading a question: its words, the pages it names, and the kind of answer it asks for.

One reading serves retrieval (`index.asking.search`) and the answer step (`index.asking.answer`):

- **terms** for the full-text store. Whatever was typed is text, never syntax. The words that ask
  (何, how), English stop words, and bigrams of particles or of a word and its particle (のは,
  アは of ファームウェアは) are dropped unless nothing else is left.
- **the pages it names**: titles, aliases and sources' short names, also typed with other case,
  width, spacing or a legal suffix, as `/entity` reads names (`index.catalog.names`).
- **the wiki's aliases as a bilingual dictionary**: a page named in one script adds the terms of
  its names in the other (``root cause analysis`` → 根本原因分析, 異常検知 → ``anomaly detection``),
  so an English question finds Japanese prose and the reverse.
- **its shape and the relation it asks for** (`index.asking.vocabulary`: a number, a name, a definition, a
  difference; 開発元, 共同研究先 …).
- **keywords** for choosing sentences: Latin words, and CJK bigrams taken inside words (a bigram
  across a particle, like の本 in の本番, says nothing about an answer), a lone kanji as itself.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache

from index.analysis import Token, fold, is_function_bigram, tokenize
from index.asking.acronyms import acronym_in
from index.asking.bridge import Part, english_for, japanese_for, parts_of
from index.asking.relations import Relation, relations_asked
from index.asking.vocabulary import (
    STOPWORDS,
    Shape,
    clipped_or_whole,
    expansion_asked,
    gloss,
    is_clitic,
    is_stopword,
    says_a_change,
    shape_of,
)
from index.asking.wordforms import singular
from index.catalog.names import NameSpan, NameTable
from index.model import Page
from index.store.values import QueryPlan

MAX_QUERY_CHARS = 1000
"""The longest question answered. The edge refuses longer text politely; the domain never cuts."""
MAX_TERMS = 48
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
    """How the other language says this word: Japanese prose for an English word (``reduce`` →
    削減, 短縮 …), English for a Japanese one (ローカル → ``local``): `renderings`, `index.asking.bridge`."""
    whole: str | None = None
    """The katakana word a bigram comes from (メン of ラーメン): a katakana word is one loanword, so
    a text says the bigram only where it says the whole word (メン of メンテナンス is another word)."""

    @property
    def said_as(self) -> str:
        """What a text must contain to say this keyword: the whole katakana word (without a final
        long mark: コンピュータ is コンピューター), else the keyword itself."""
        return self.whole.rstrip("ー") if self.whole else self.text

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
    ranking: tuple[str, ...]
    """Terms that rank what the others find and find nothing: verbs, a word glued to its
    particle (害に) (`_terms`)."""
    named: tuple[str, ...]
    """Pages named in the question, in the order they occur."""
    names: tuple[NameSpan, ...]
    expansions: tuple[tuple[str, float], ...]
    """Terms the bilingual dictionary added, with their weight."""
    shape: Shape
    unit: str | None
    """What the asked number counts (何 GPU → ``gpu``; how many H100 GPUs → ``h100 gpu``, the noun
    last), when the question says."""
    cues: tuple[str, ...]
    """Words an answer of this shape contains (``which team`` → チーム, team …)."""
    wants: str | None
    """The type of page that answers (``which paper`` → ``source``), when the question says."""
    relations: tuple[Relation, ...]
    keywords: tuple[Keyword, ...]
    too_long: bool = False
    dated: bool = False
    """It asks when (`index.asking.vocabulary.Shaped.dated`)."""
    priced: bool = False
    """It asks for a sum of money (`index.asking.vocabulary.Shaped.priced`)."""
    measures: tuple[str, ...] = ()
    """The measures the number asked may be in (`index.asking.vocabulary.Shaped.measures`)."""
    proper: bool = False
    """It asks for a proper name (`index.asking.vocabulary.Shaped.proper`)."""
    expands: str | None = None
    """The acronym whose words it asks for, folded (what does OWASP stand for: ``owasp``)."""

    @property
    def answered_by(self) -> str | None:
        """The type of page that answers: the one the question names (which paper → a source),
        else the one its relation implies (…に関する研究は? → sources)."""
        if self.wants is not None:
            return self.wants
        return self.relations[0].answered_by if self.relations else None

    @property
    def folded(self) -> str:
        return fold(self.text)

    def plan(self, extra_linked: tuple[str, ...] = ()) -> QueryPlan:
        """The store query: terms (expansions at their weight), the pages named, and how Japanese
        prose says the question's English verbs (reduce → 削減, 短縮 …), which only rank what the
        terms find: each is one of several renderings, and none is what the question typed."""
        weights = {term: weight for term, weight in self.expansions if term not in self.terms}
        linked = tuple(dict.fromkeys((*self.named, *extra_linked)))[:MAX_LINKED]
        renderings = tuple(
            dict.fromkeys(
                gloss
                for keyword in self.keywords
                for gloss in keyword.glosses
                if len(gloss) == 2 and gloss not in self.terms and gloss not in weights
            )
        )
        return QueryPlan(
            terms=(*self.terms, *weights)[:MAX_TERMS],
            linked_paths=linked,
            term_weights=weights,
            ranking_terms=(*renderings, *(term for term in self.ranking if term not in renderings)),
        )


def read_question(text: str, names: NameTable, pages: Mapping[str, Page]) -> Question:
    """Everything the search and the answer step need to know about ``text``."""
    text = " ".join(text.split())
    if len(text) > MAX_QUERY_CHARS:
        return Question(text, "en", (), (), (), (), (), Shape.OPEN, None, (), None, (), (), too_long=True)
    folded = fold(text)
    spans = tuple(_papers_named(folded, names.name_spans(text), names))
    named = tuple(dict.fromkeys(span.page.path for span in spans if span.page.path in pages))
    shaped = shape_of(folded)
    expansion = expansion_asked(folded)
    acronym = acronym_in(text) if expansion else None
    asking = [*shaped.asking, *expansion] if acronym else shaped.asking
    asking = [*asking, *(aside.span() for aside in _ASIDES.finditer(folded))]
    terms, ranking = _terms(text, asking, spans, shaped.edges)
    relations, relation_spans = relations_asked(folded, shaped.shape)
    keywords = _keywords(folded, spans, [*asking, *relation_spans], shaped.edges)
    shape = shaped.shape
    japanese = _language(folded, spans) == "ja"
    if (
        shape is Shape.DEFINITION
        and japanese
        and named
        and any(k.name is None and not k.lone for k in keywords)
    ):
        shape = Shape.OPEN  # いどばたのライセンスって何?: a property of the page, not what it is
    return Question(
        text=text,
        language=_language(folded, spans),
        terms=terms,
        ranking=ranking,
        named=named,
        names=spans,
        expansions=_expansions(folded, spans, pages),
        shape=shape,
        unit=shaped.unit,
        cues=shaped.cues,
        wants=shaped.wants,
        relations=relations,
        keywords=keywords,
        dated=shaped.dated,
        priced=shaped.priced,
        measures=shaped.measures,
        proper=shaped.proper,
        expands=acronym,
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


def _terms(
    text: str, asking: list[tuple[int, int]], spans: tuple[NameSpan, ...], edges: tuple[int, ...] = ()
) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The terms that say what the question is about: not the words that ask (何 of 何 GPU: no
    passage says them), English stop words, or bigrams of particles (`_is_content`), except in a
    name, which is said as written (the kana of 石井さくら are not particles). Second, the terms
    that rank the passages the first find, and find none: the verbs of the vocabulary (`_verb`),
    and the bigrams that glue a word to its particle (害に of 障害に反応), which rank passages
    that say the words with the question's particles.

    No phrases: consecutive bigrams already say that characters stand together (動診 is only
    where 手動 and 診断 touch), a phrase of the question's English is its grammar more than the
    wiki's words (``paper proposes …``), and whoosh checks a phrase's positions in every passage
    holding all of its terms, which for the commonest costs more than the rest of the search."""
    folded = fold(text)
    tokens = [t for t in tokenize(text) if not any(t.start < edge < t.end for edge in edges)]
    content = [
        t
        for t in tokens
        if (
            any(span.start <= t.start and t.end <= span.end for span in spans)
            or (_is_content(t, folded) if t.cjk else not is_stopword(t.text))
        )
        and (t.cjk or not is_clitic(folded, t.start, t.end))  # Price's: its s is no part of the name
        and not any(start < t.end and t.start < end for start, end in asking)
    ]
    verbs = [t for t in content if _verb(t.text) and not any(s.start <= t.start < s.end for s in spans)]
    if len(verbs) < len(content):  # a question of verbs alone is found by them
        content = [t for t in content if t not in verbs]
    terms = tuple(dict.fromkeys(token.text for token in content or tokens))[:MAX_TERMS]
    glued = [
        t.text
        for t in tokens
        if t.cjk
        and t.text not in terms
        and not is_function_bigram(t.text)
        and not any(start < t.end and t.start < end for start, end in asking)
    ]
    ranking = [t.text for t in verbs if t.text not in terms] + glued
    return terms, tuple(dict.fromkeys(ranking))[:MAX_TERMS]


def _verb(text: str) -> bool:
    """An English verb of the vocabulary (reduce, runs: `index.asking.vocabulary.GLOSSES`), or a Japanese
    verb of change (短縮, 向上): how the question asks about its subject, which passages say in
    many ways. An English one over Japanese prose finds what it should not (reduce in
    all-reduce); its renderings rank (`Question.plan`)."""
    return bool(singular(text) and gloss(singular(text))) if text.isascii() else says_a_change(text)


def _is_content(token: Token, folded: str) -> bool:
    """A CJK bigram that says what the question is about. Hiragana are particles and endings:
    a bigram of them (した, のは) says nothing, and neither does one that glues a word to its
    particle (ンに of オーケストレーションによって, アは of ファームウェアは): the particle is the
    question's (は) where the statement has its own (が), so the bigram is not in the answer and,
    being rare, would outweigh the words. A lone kanji between hiragana (短 of 短くなった, 動 of
    動いた) has no bigram but its glued one, which stays."""
    text = token.text
    hiragana = [bool(_HIRAGANA.fullmatch(char)) for char in text]
    if all(hiragana):
        return False
    if not any(hiragana):
        return True
    if hiragana[1]:  # word + particle (短く): kept when the word is that one character
        before = folded[token.start - 1] if token.start > 0 else ""
        return not _is_word_char(before)
    after = folded[token.end] if token.end < len(folded) else ""  # particle + word (の図)
    return not _is_word_char(after) and not _HIRAGANA.fullmatch(after or "a")


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


def _keywords(
    folded: str, spans: tuple[NameSpan, ...], asking: list[tuple[int, int]], edges: tuple[int, ...] = ()
) -> tuple[Keyword, ...]:
    """Latin words and in-word CJK bigrams (lone kanji as themselves), outside the asking words and
    not across the ``edges`` of words."""

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
            if not is_clitic(folded, start, match.end()) and (not is_stopword(word) or owner(start)):
                text = singular(word)
                found.setdefault(
                    text, Keyword(text, start, owner(start), start, () if owner(start) else renderings(text))
                )
            continue
        for piece in SCRIPT_RUN.finditer(word):
            text, offset = piece.group(), start + piece.start()
            grams = [text] if len(text) == 1 else [text[i : i + 2] for i in range(len(text) - 1)]
            whole = text if _KATAKANA.fullmatch(text) and len(text) > 2 else None
            english = (
                ()
                if owner(offset)
                else english_for(text)
                if len(text) >= 2
                else _verb_glosses(text, _ending_after(folded, offset + 1))
            )
            parts = parts_of(text) if not english and not owner(offset) and len(text) > 2 else ()
            for index, gram in enumerate(grams):
                at = offset + index
                across = any(at < edge < at + len(gram) for edge in edges)
                if across or _straddles(parts, index, index + len(gram)):
                    continue  # 本調 of 何本調べた, 大長 of 最大長 (最大 · 長): no word of the question
                if not asked(at, at + len(gram)) and not _HIRAGANA.fullmatch(gram):
                    glosses = english or _glosses_within(parts, index, index + len(gram))
                    found.setdefault(gram, Keyword(gram, at, owner(at), offset, glosses, whole))
            # A counter's edge that leaves one kanji after it (生 of 何年生まれ: 年生 is across the
            # edge) leaves a word of its own, read as a lone kanji is (亡 of 亡くなった).
            tail = next((edge for edge in edges if offset < edge == offset + len(text) - 1), None)
            if tail is not None and not asked(tail, tail + 1) and not owner(tail):
                kanji = folded[tail]
                found.setdefault(
                    kanji,
                    Keyword(kanji, tail, None, tail, _verb_glosses(kanji, _ending_after(folded, tail + 1))),
                )
    return tuple(found.values())


_ENDINGS = ("う", "く", "ぐ", "す", "つ", "ぬ", "ぶ", "む", "る", "い")
"""How a verb (or adjective) of one kanji ends in the dictionary: 使え → 使う, 動か → 動く, 短く → 短い."""
MAX_ENDING = 4
"""The kana after a lone kanji that its dictionary form may keep (避ける, 調べる): no form is longer."""


def _ending_after(folded: str, at: int) -> str:
    kana = _HIRAGANA.match(folded, at)
    return kana.group()[:MAX_ENDING] if kana else ""


@lru_cache(maxsize=4096)
def _verb_glosses(kanji: str, ending: str) -> tuple[str, ...]:
    """The English of the word a lone kanji is the stem of (使 of 使える: use; 避 of 避けるのに:
    avoid), looked up in the dictionary form its kana ``ending`` points to: the ending as typed, cut
    from the longest down to two kana; then its first kana and る (避け → 避ける); then each
    dictionary ending (出し → 出す, not the noun 出し); then its first kana alone. None when no form
    is in the dictionary."""
    forms = [kanji + ending[:size] for size in range(len(ending), 1, -1)]
    if ending:
        forms.append(kanji + ending[0] + "る")
    forms += [kanji + end for end in _ENDINGS]
    forms += [kanji + ending[:1]] if ending else []
    return next((found for found in map(english_for, dict.fromkeys(forms)) if found), ())


def _straddles(parts: tuple[Part, ...], start: int, end: int) -> bool:
    """The bigram ``start:end`` runs across the edge of a dictionary part of its compound."""
    overlaps = any(part.start < end and start < part.end for part in parts)
    return overlaps and not any(part.start <= start and end <= part.end for part in parts)


def _glosses_within(parts: tuple[Part, ...], start: int, end: int) -> tuple[str, ...]:
    """The glosses of the compound's part that holds the bigram ``start:end`` (none across parts)."""
    return next((part.glosses for part in parts if part.start <= start and end <= part.end), ())


_ASIDES = re.compile(r"(?<![a-z0-9.])(?:e\.g|i\.e|etc|vs|cf|viz)\.?(?![a-z0-9])")
"""The abbreviations a question's asides are made of (*after e.g. 10 minutes*, *A vs. B*): no word
of what it asks (``e`` and ``g`` weighed as rare words)."""
_WORD = re.compile(r"[a-z0-9]+|[\u3005\u3007\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]+")
SCRIPT_RUN = re.compile(r"[\u30a0-\u30ff]+|[\u3005\u3007\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]+")
"""Inside a CJK run, words are runs of one script: katakana, or kanji. Hiragana are particles and
endings, and a bigram across a script change (番ク of 本番クラスタ) spans two words."""
_HIRAGANA = re.compile(r"[\u3040-\u309f]+")
_KATAKANA = re.compile(r"[\u30a0-\u30ff]+")


def renderings(word: str) -> tuple[str, ...]:
    """How Japanese prose may say an English word of the question: a verb of the asking vocabulary
    as the table renders it (`index.asking.vocabulary.gloss`), any other word as the dictionary does
    (`index.asking.bridge`); a clipped word also as it is spelt whole, and the other way round
    (`index.asking.vocabulary.clipped_or_whole`)."""
    return (*clipped_or_whole(word), *(gloss(word) or japanese_for(word)))


def _is_word_char(char: str) -> bool:
    """Kanji or katakana: part of a word, not a particle."""
    return bool(char) and _is_cjk(char) and not _HIRAGANA.fullmatch(char)


def _is_cjk(char: str) -> bool:
    return bool(_WORD.fullmatch(char)) and not char.isascii()
