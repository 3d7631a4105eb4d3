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
- **its shape**: a number (どれだけ, 何倍, 何 GPU, how many), a name (誰, どこ, who, which team), a
  definition (とは, what is), a difference (違い, difference), or open.
- **the relation it asks for**, in the wiki's own labels (開発元, 共同研究先, 所属, ソース …).
- **keywords** for choosing sentences: Latin words, and CJK bigrams taken inside words (a bigram
  across a particle, like の本 in の本番, says nothing about an answer), a lone kanji as itself.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum

from index.analysis import fold, is_function_bigram, tokenize
from index.model import Page
from index.names import NameSpan, NameTable
from index.store import QueryPlan

MAX_QUERY_CHARS = 1000
"""The longest question answered. The edge refuses longer text politely; the domain never cuts."""
MAX_TERMS = 48
MAX_PHRASES = 6
MAX_LINKED = 5
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
        "many",
        "much",
    ]
)
DICTIONARY_TYPES = frozenset({"entity", "concept"})
"""Pages whose names translate: a source's aliases are citations (``Cui+, arXiv2025``), not names."""
LATIN_NAMED_TYPES = frozenset({"entity"})
"""Pages the prose names in Latin letters (ByteDance, not バイトダンス): typed in Latin, their other
names add nothing; typed in kana or kanji, their Latin names are what the prose says."""


class Shape(StrEnum):
    NUMBER = "number"
    NAME = "name"
    DEFINITION = "definition"
    DIFFERENCE = "difference"
    OPEN = "open"


# The words that ask (何, どこ, how many, which …) are matched on the folded question and are not
# keywords: no sentence is expected to contain them.
_DIFFERENCE = re.compile(r"違い|違う|異なる|差異|比較|比べ|\bdiffer\w*|\bcompar\w*|\bvs\b\.?|\bversus\b")
_NUMBER = re.compile(
    r"どれ(?:だけ|ほど|くらい|ぐらい)|どの(?:くらい|ぐらい|程度)|いくつ|いくら|いつ"
    r"|何\s*(?P<unit>[a-z][a-z0-9-]*|[ヶヵカかケ]月|[ァ-ヺー]{2,}|[一-鿿](?<![故処者物]))"
    r"|\bhow\s+many(?:\s+(?P<unit_en>[a-z][a-z0-9-]*))?"
    r"|\bhow\s+(?:much|long|fast|big|large|often|far|old|quickly|soon)\b"
    r"|\bwhat\s+(?:percentage|percent|share|fraction|proportion|ratio|number)\b|\bwhen\b"
)
_NAME = re.compile(
    r"誰|だれ|どこ|どちら|何者|何処|どの\s*(?P<noun>[ァ-ヺー]+|[一-鿿]+)"
    r"|(?P<focus>チーム|グループ|研究室|大学|企業|会社|組織|機関)(?:は|って)?\s*[?？]?\s*$"
    r"|\bwho(?:m|se)?\b|\bwhere\b|\b(?:which|what)\s+(?P<noun_en>[a-z]+)"
)
_DEFINITION = re.compile(
    r"とは|って(?:何|なに)|の定義|の意味|\bwhat\s+(?:is|are)\b|\bdefin(?:e|ition)\b|\bmeaning\s+of\b"
)
_ASKING = re.compile(r"何|なに|\bwhat\b|\bwhich\b|\bhow\b")
ANSWER_CUES: dict[str, tuple[str, ...]] = {
    "team": ("チーム", "team", "グループ", "group"),
    "group": ("グループ", "group", "チーム", "team", "研究室", "lab"),
    "lab": ("研究室", "lab", "グループ", "group"),
    "university": ("大学", "university"),
    "company": ("企業", "会社", "company"),
    "organization": (),
}
"""What an answer naming a team, a lab … contains in either language. The nouns of the question
(``which team``, どのチーム) map here through `_CUE_NOUNS`."""
PAGE_NOUNS = {
    "paper": "source",
    "論文": "source",
    "article": "source",
    "study": "source",
    "system": "entity",
    "システム": "entity",
    "tool": "entity",
    "ツール": "entity",
    "product": "entity",
    "製品": "entity",
    "framework": "entity",
    "フレームワーク": "entity",
    "library": "entity",
    "ライブラリ": "entity",
    "person": "entity",
    "researcher": "entity",
    "人物": "entity",
    "研究者": "entity",
    "organization": "entity",
    "organisation": "entity",
    "concept": "concept",
    "概念": "concept",
}
"""The kind of page a ``which X`` question is answered by (which paper → a source page)."""
_CUE_NOUNS = {
    "team": "team",
    "teams": "team",
    "チーム": "team",
    "group": "group",
    "groups": "group",
    "グループ": "group",
    "lab": "lab",
    "labs": "lab",
    "laboratory": "lab",
    "研究室": "lab",
    "university": "university",
    "universities": "university",
    "大学": "university",
    "company": "company",
    "companies": "company",
    "企業": "company",
    "会社": "company",
    "組織": "organization",
    "機関": "organization",
}


ALIASES = "別名"
"""Not a ``## 関連`` label: the names a page is also known by (its frontmatter ``aliases``)."""


GLOSSES = (
    (("operat", "run", "ran", "deploy"), ("運用", "稼働", "導入")),
    (("develop", "buil", "creat"), ("開発", "構築", "作成")),
    (("reduc", "shorten", "decreas", "cut", "lower", "sav"), ("削減", "短縮", "低減", "減")),
    (("improv", "increas", "rais", "boost", "accelerat", "speed"), ("向上", "増加", "改善", "高速")),
    (("detect",), ("検知", "検出")),
    (("diagnos",), ("診断",)),
    (("propos",), ("提案",)),
    (("evaluat",), ("評価",)),
    (("production",), ("本番",)),
)
"""The verbs a question about systems asks with, as Japanese prose writes them: an English question
over Japanese passages finds ``運用`` for ``runs`` and ``短縮`` for ``shorten``. Names and concepts
translate through the wiki's own aliases (`_expansions`); this covers the words around them."""


def gloss(word: str) -> tuple[str, ...]:
    """Japanese renderings of an English word (by its stem: ``operates``, ``operated`` → 運用 …)."""
    for stems, renderings in GLOSSES:
        if any(word.startswith(stem) for stem in stems):
            return renderings
    return ()


@dataclass(frozen=True)
class Relation:
    """A relation a question can ask for: its labels in the wiki, and how a question says it.

    ``noun`` alone asks for it (X の開発元は?, developer of X); ``verb`` only in a question that
    asks for a name (who developed X?, X はどこが開発した?). ``fallback`` labels answer when the
    page has none of ``labels`` (a product's 関連組織 is, in this wiki, where it comes from).
    """

    labels: tuple[str, ...]
    noun: re.Pattern[str]
    verb: re.Pattern[str] | None = None
    fallback: tuple[str, ...] = ()


RELATIONS = (
    Relation(
        ("開発元",),
        re.compile(
            r"開発元|開発者|開発(?:した|して|された)?(?:のは|組織|企業|会社|機関)|\bdevelopers?\b|\b(?:developed|built|created|made)\s+by\b"
        ),
        re.compile(r"開発|作っ|作成|構築|\bdevelop\w*|\bbuil[dt]\w*|\bcreat\w*|\bmade\b|\bmakes?\b"),
        ("関連組織",),
    ),
    Relation(
        ("共同研究先",),
        re.compile(r"共同研究|共同開発|提携|\bcollaborat\w*|\bpartners?\b|\bpartnered\b"),
        fallback=("関連組織",),
    ),
    Relation(("所属",), re.compile(r"所属|\baffiliat\w*|\bworks?\s+(?:at|for)\b")),
    Relation(("ソース",), re.compile(r"論文|文献|研究|\bpapers?\b|\bpublications?\b|\bresearch\b")),
    Relation(
        ("関連プロダクト",),
        re.compile(r"プロジェクト|プロダクト|製品|\bprojects?\b|\bproducts?\b"),
    ),
    Relation(("関連人物",), re.compile(r"関連人物|人物|\bpeople\b|\bresearchers\b")),
    Relation(
        (ALIASES,),
        re.compile(
            r"別名|別称|旧名|略称|通称|\baliases?\b|\bother names?\b|\balso (?:known as|called)\b|\baka\b"
            r"|\bformerly\b|\brenamed\b"
        ),
    ),
)
_NO_GRAPH = re.compile(r"著者|\bauthors?\b|\bwr[io]te\b|\bwritten\b")
"""Authors are text in ``## 論文情報``, not links: a question about them is answered from sentences."""


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
    spans = tuple(names.name_spans(text))
    named = tuple(dict.fromkeys(span.page.path for span in spans if span.page.path in pages))
    terms, phrases = _terms_and_phrases(text)
    shaped = _shape(folded)
    relations, relation_spans = _relations(folded, shaped.shape)
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


@dataclass(frozen=True)
class _Shaped:
    shape: Shape
    asking: list[tuple[int, int]]
    unit: str | None = None
    cues: tuple[str, ...] = ()
    wants: str | None = None


def _shape(folded: str) -> _Shaped:
    """The question's shape, what it names of the answer (a unit, cue words, a kind of page), and
    the spans of its asking words."""
    asking = [match.span() for match in _ASKING.finditer(folded)]
    difference = _DIFFERENCE.search(folded)
    if difference:
        return _Shaped(Shape.DIFFERENCE, [*asking, difference.span()])
    number = _NUMBER.search(folded)
    if number:
        for group in ("unit", "unit_en"):
            if number.group(group):
                # 何 GPU asks with 何; GPU stays a keyword, and is what the number counts.
                span = (number.start(), number.start(group))
                return _Shaped(Shape.NUMBER, [*asking, span], unit=singular(number.group(group)))
        return _Shaped(Shape.NUMBER, [*asking, number.span()])
    name = _NAME.search(folded)
    if name and name.group("noun_en") not in STOPWORDS:
        noun = name.group("noun") or name.group("noun_en") or name.group("focus")
        cue = _CUE_NOUNS.get(noun) if noun else None
        if noun and not cue and not name.group("focus"):
            # "which paper …": the noun stays a keyword, and says what kind of page answers.
            span = (name.start(), name.start("noun") if name.group("noun") else name.start("noun_en"))
            return _Shaped(Shape.NAME, [*asking, span], wants=PAGE_NOUNS.get(singular(noun)))
        return _Shaped(Shape.NAME, [*asking, name.span()], cues=ANSWER_CUES[cue] if cue else ())
    definition = _DEFINITION.search(folded)
    if definition:
        return _Shaped(Shape.DEFINITION, [*asking, definition.span()])
    return _Shaped(Shape.OPEN, asking)


def singular(word: str) -> str:
    """``gpus`` → ``gpu``, ``papers`` → ``paper``; ``analysis``, ``status``, ``class`` stay."""
    if not word.isascii() or len(word) <= 3 or not word.endswith("s") or word.endswith(("ss", "is")):
        return word
    return word if word.endswith("us") and len(word) > 4 else word[:-1]


def _relations(folded: str, shape: Shape) -> tuple[tuple[Relation, ...], list[tuple[int, int]]]:
    """The relation the question asks for: the one it names last in Japanese (…の論文は?), first in
    English (which papers did …); a verb (開発した, developed) only when it asks for a name. A
    question for a number, a definition or a difference asks for no relation."""
    if shape not in (Shape.NAME, Shape.OPEN):
        return (), []
    found: list[tuple[tuple[int, int], Relation | None]] = []
    for relation in RELATIONS:
        match = relation.noun.search(folded)
        if match is None and relation.verb is not None and shape is Shape.NAME:
            match = relation.verb.search(folded)
        if match is not None:
            found.append((match.span(), relation))
    authors = _NO_GRAPH.search(folded)
    if authors is not None:
        found.append((authors.span(), None))
    if not found:
        return (), []
    japanese = any(_is_cjk(char) for char in folded)
    # Where matches overlap (共同研究先 and 研究), the one that ends last and is longest wins.
    order = (
        (lambda item: (item[0][1], item[0][1] - item[0][0])) if japanese else (lambda item: (-item[0][0], 0))
    )
    found.sort(key=order, reverse=True)
    (span, first) = found[0]
    return ((first,), [span]) if first is not None else ((), [])


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
