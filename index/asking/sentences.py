"""Sentences of retrieved passages, scored by how much of a question each one answers.

A sentence is read where it stands: on its page, under its section, in its passage. Its
**coverage** is the share of the question's keywords it contains, each weighted by how rare it is
in the wiki (IDF, `index.asking.weights`). The page's own names and the section heading count as
said (a sentence on Minder's page under 性能 is about Minder's performance without repeating
either); a word said elsewhere in its passage, or in its page's summary, counts half; a keyword
that is part of a page's name counts when the sentence names that page in any of its names (so
``root cause analysis`` is found in 根本原因分析).
Its **fit** says whether it holds what the question's shape asks for: a quantity (of the unit
asked, when one is; a sum with a currency when money is asked), a name (one the question does not
already say, and not a capitalised ``He``), a definition, the two things compared. A sentence that
asks (ends in a question mark) fits nothing, and neither does one that tells of something else: it
says none of the question's words itself (only its passage does), an English question's name
(``MiB``, ``Podman``) stands nowhere around it, or a number asked of two named things is said of
one of them only.

The score is the coverage, halved when the sentence does not fit: a sentence without what was asked
answers at most half of the question. A sentence *answers* when it fits, concerns a page the
question names (when it names one), and covers at least half of the question's weight; below that
the reply says it found no answer.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import lru_cache

from index.analysis import fold
from index.asking.acronyms import expansion_spans
from index.asking.kinds import instances, kind_named
from index.asking.mentions import camel_parts, folded_names, mentions, merge, occurrences
from index.asking.qualifiers import qualifiers_asked, says
from index.asking.quantities import find_quantities, is_a_date, word_at
from index.asking.question import Question
from index.asking.splitting import Sentence, asks, fact_keys, is_whole, key_spans, table_row
from index.asking.vocabulary import STOPWORDS, Shape
from index.asking.weights import SaidText, capitalised, is_latin, words_of
from index.asking.wordforms import spellings, stem
from index.catalog.names import NameTable
from index.model import Page
from index.reading.format import PROPERTIES_HEADING

ANSWERS_AT = 0.5
"""Coverage from which a fitting sentence is an answer: it says more of the question than it leaves out."""
UNFIT_FACTOR = 0.5
PASSAGE_SHARE = 0.5
"""A word of the question said elsewhere in the sentence's passage counts half: the sentence is
read in its paragraph (…チームで開発された。本番の ML 基盤で稼働している。), but it is not what says it.
So does a word of its page's summary, which says what every sentence of the page is about: the
page's fact (*Feature gate `WorkloadPriorityBoost`*) is not outranked by the summary that says the
question's topic (*external controllers can set the priority-boost annotation*) and not the fact."""
DEFINITION_SECTIONS = frozenset({"", "定義", "概要"})
"""Where a page says what its subject is: the lead, ``## 定義``, ``## 概要``."""

_LATIN = re.compile(r"[a-z0-9]+")
_ASIDE = re.compile(r"\([^()]*\)")
_CONTRAST = re.compile(
    r"一方|対し|異なり|違い|違う|比べ|ではなく|でなく|が、|のに"
    r"|whereas|unlike|while|in contrast|but|however|instead|rather than"
)
_TELLS_APART = re.compile(r"differ|\bvs\b|\bversus\b|compar|contrast|違い|異な|比較|対比|使い分け")
"""A heading that tells things apart (How this differs from …, A vs B, 比較)."""
_DEFINES = re.compile(r"とは|である|の総称|を指す|\bis an?\b|\brefers? to\b|\bmeans\b")
_NAME_BEFORE = re.compile(
    r"(?:[a-z0-9][a-z0-9.&'-]*\s+)*[a-z0-9][a-z0-9.&'-]*$|[\u30a0-\u30ff\u4e00-\u9fffa-z0-9.&'-]+$"
)
"""Latin words (``High-speed Network``), or a run of katakana, kanji and Latin (``資源SRE``)."""
_CODE_NAME = re.compile(
    r"`[^`\n]+`|(?<![\w-])--?[a-z][\w-]*(?:=[\w:./-]+)?|(?<![\w.:/-])[a-z][a-z0-9]+(?:[:_./][a-z0-9-]+)+(?![\w/])"
    r"|(?<![\w-])[a-z]+\d+[a-z0-9]*(?![\w-])"
)
"""What technical prose names in lower case: a code span, a flag (``--base``), an identifier with
``:``, ``_``, ``.`` or ``/`` in it (``node:lts-alpine``, ``security.capability``), a word with
digits (``re2``)."""
_FOREIGN_NAME = re.compile(r"[\u30a1-\u30fa\u30fc]+(?:[・＝=][\u30a1-\u30fa\u30fc]+)+")
"""A foreign name in katakana, its parts joined by ・ (アヴィヴ・オヴァジャ, グレン・ワイル)."""
_CAPITALISED = re.compile(r"(?<![A-Za-z0-9-])[A-Z][A-Za-z0-9-]*(?:\s+[A-Z][A-Za-z0-9-]*)*")


@dataclass(frozen=True)
class Scored:
    sentence: Sentence
    coverage: float
    fits: bool
    about: bool
    """It concerns a page the question names (is on it or names it), or the question names none."""
    score: float
    said: float
    """The weight of the keywords the sentence itself says, names aside (not its page or passage)."""
    terms: tuple[str, ...]
    """The question's keywords it contains, as written in the sentence."""
    marks: tuple[tuple[int, int], ...]
    """Spans of ``sentence.text`` to emphasise: the keywords, and the quantity or name asked for."""
    linked: bool = False
    """Not `about` a page the question names, but on a page that links to one (the 総統杯ハッカソン
    page, which links to 台湾, for 台湾の…ハッカソン): it answers only when nothing `about` does."""

    @property
    def order(self) -> tuple[float, float, bool, int, int, int]:
        """Best first: score; then what it says itself (when its page says the rest for all its
        sentences alike); a whole sentence, a ``Key: value`` line or a table row before a fragment
        (a callout's title); then the rank of its page, then page order."""
        sentence = self.sentence
        return (
            -self.score,
            -self.said,
            not is_whole(sentence),
            sentence.rank,
            sentence.ordinal,
            sentence.index,
        )

    @property
    def answers(self) -> bool:
        return self.fits and self.about and self.covers

    @property
    def answers_by_link(self) -> bool:
        return self.fits and self.linked and self.covers

    @property
    def covers(self) -> bool:
        return self.coverage >= ANSWERS_AT - 1e-9  # 0.4999… is half


class SentenceScorer:
    """Scores sentences against one question (see the module docstring)."""

    def __init__(
        self,
        question: Question,
        weights: Mapping[str, float],
        pages: Mapping[str, Page],
        names: NameTable,
        *,
        subject: str | None = None,
        subject_weight: float = 0.0,
        units: tuple[str, ...] = (),
        measures: tuple[str, ...] = (),
        expands: str | None = None,
    ) -> None:
        self.question = question
        self.weights = weights
        self.pages = pages
        self.names = names
        self.subject = subject
        self.units = units
        """What the asked number must count (何 GPU), as the passages say it, when they do."""
        self.measures = measures
        """The measures the asked number is in (``time`` for how long), of those whose units the
        passages write."""
        self.expands = expands
        """The acronym asked, when a passage spells it out: only a sentence that does then fits."""
        self.named = tuple(dict.fromkeys((*question.named, *((subject,) if subject else ()))))
        # A page is also called what the question called it (Price for Harry Price).
        typed: dict[str, list[str]] = {}
        for span in question.names:
            written = question.folded[span.start : span.end].strip()
            if len(written) >= 2:
                typed.setdefault(span.page.path, []).append(written)
        self._names_of = {
            path: tuple(dict.fromkeys((*folded_names(pages[path]), *typed.get(path, ()))))
            for path in self.named
            if path in pages
        }
        # The things a number may be of: those the question names outside a bracketed aside
        # (ブロードキャストグループ（1つのグループメッセージに…やつ）: the aside describes, it names
        # nothing the number is of).
        asides = [match.span() for match in _ASIDE.finditer(question.folded)]
        outside = {
            span.page.path
            for span in question.names
            if not any(start <= span.start and span.end <= end for start, end in asides)
        }
        self._owners = tuple(path for path in self.named if path in outside or path == subject) or self.named
        self._context: dict[tuple[str, str], SaidText] = {}
        self._leads: dict[str, SaidText] = {}
        self._targets: dict[str, frozenset[str]] = {}
        self._passages: dict[tuple[str, int], SaidText] = {}
        self._summaries: dict[str, SaidText] = {}
        self._asked_words: frozenset[str] | None = None
        self._proper = frozenset(
            k.text
            for k in question.keywords
            if question.language == "en" and k.name is None and capitalised(question.text, k.start, k.text)
        )
        self._kinds = {k.text: kind_named((k.said_as, *k.glosses)) for k in question.keywords}
        self._total = sum(weights.get(keyword.text, 0.0) for keyword in question.keywords)
        # The words a Key: value line's key may say (`_keyed`), and how much the rarer ones weigh.
        self._asking = [
            k for k in question.keywords if k.name is None and not k.lone and weights.get(k.text, 0.0) > 0
        ]
        self._rare = max((weights[k.text] for k in self._asking), default=0.0) / 2
        self._qualifiers = qualifiers_asked(
            (k for k in question.keywords if k.text not in self._proper), question.folded
        )
        self._specifics = (*_titles_asked(question), *_years_asked(question))
        self._headings: dict[str, SaidText] = {}
        self._subject_weight = subject_weight if subject and not question.named else 0.0
        # A follow-up about a page ("and how many GPUs?") is about it as much as a question that
        # named it: the page's name weighs what it would have weighed typed.
        self._total += self._subject_weight

    def score(self, sentence: Sentence) -> Scored:
        context = self._context_of(sentence)
        parts = camel_parts(sentence.text) if len(sentence.text) == len(sentence.folded) else ()
        words = words_of(sentence.folded)
        if parts:
            words = words | {word for _, _, word in parts}
        covered = said = led = 0.0
        own = passage_only = unnamed = False
        lead = self._lead_of(sentence) if sentence.lead else None
        terms: list[tuple[int, int]] = []
        found: list[tuple[int, int]] = []
        for keyword in self.question.keywords:
            weight = self.weights.get(keyword.text, 0.0)
            if keyword.name is not None and self.about(sentence, keyword.name):
                covered += weight
                continue
            whole = any(form in sentence.folded for form in spellings(keyword.said_as))
            spans = occurrences(keyword.text, sentence.folded, words, parts) if whole else []
            for rendering in keyword.glosses:
                spans.extend(occurrences(rendering, sentence.folded, words, parts))
            written = [] if spans else instances(self._kinds[keyword.text], sentence.folded)
            if spans or written or context.has(keyword.said_as):
                covered += weight
                said += weight if spans or written else 0.0
                own = own or weight > 0
                terms.extend(spans)
                found.extend(written)  # an instance (GPL-3.0 of license) is what was asked, not an echo
            elif lead is not None and any(lead.has(text) for text in (keyword.said_as, *keyword.glosses)):
                led += weight
            elif any(
                self._passage_of(sentence).has(text) or self._summary_of(sentence).has(text)
                for text in (keyword.said_as, *keyword.glosses)
            ):
                covered += weight * PASSAGE_SHARE
                passage_only = passage_only or weight > 0
            else:
                unnamed = unnamed or (
                    weight > 0
                    and keyword.text in self._proper
                    and not self._summary_of(sentence).has(keyword.said_as)
                )
        # The sentence that introduces a list, table or code (To reactivate:) says what its lines
        # are about, as a heading does, for a line that says a word of the question itself; for
        # any other, it is a word of the passage.
        if led:
            covered += led if said > 0 else led * PASSAGE_SHARE
            own = own or said > 0
            passage_only = passage_only or said == 0
        if self._subject_weight and self.subject and self.about(sentence, self.subject):
            covered += self._subject_weight
        coverage = covered / self._total if self._total > 0 else 0.0
        fits, values = (
            (False, []) if asks(sentence) or _echoes(sentence.folded, terms) else self._fit(sentence)
        )
        about = not self.named or any(
            self.about(sentence, path) or self.in_passage(sentence, path) for path in self.named
        )
        linked = not about and any(self.links(sentence, path) for path in self.named)
        # A word of the question its passage says and the sentence does not points to the sentence
        # that says it (goldfish: "He loved goldfish.", not the next one): a sentence that says
        # none of the question's words itself holds no answer, unless it holds the unit, the
        # measure or the kind of name asked (21 ファイル for how many files, 90 s for how long,
        # チーム for which team: `_fit` has required it).
        fits = fits and (own or not passage_only or bool(self.units or self.measures or self.question.cues))
        # A thing an English question writes as a name (MiB, Heartbleed) that the sentence, its
        # page's names and summary, heading and passage never say: it tells of another thing. (A
        # Latin name in a Japanese question, or over a Japanese sentence, is often written in
        # kana: Weyl → ワイル.)
        fits = fits and not (unnamed and is_latin(sentence.folded))
        # A work the question names by its title (『ノヴム・オルガヌム』) that no page is called, or a
        # year it asks in (who won in 2025?): a sentence whose own words, page and heading never say
        # it tells of another work or time, and so does one its passage says it for that says none
        # of the question's words itself.
        fits = fits and all(
            self._says_specific(sentence, words, forms, said > 0) for forms in self._specifics
        )
        # A default, a maximum, an average asked is that value and no other: the sentence, its
        # key or its heading says which (the TTL's default, not how the TTL is checked).
        fits = fits and all(
            says(qualifier, sentence.text, SaidText(sentence.folded, words), self._heading_of(sentence))
            for qualifier in self._qualifiers
        )
        # A number is of one thing: a count said of Docker's profile is not Podman's, whichever
        # page it stands on (how many syscalls does Podman's seccomp profile block?); a page that
        # links to the other thing may be about a part of it (a move's page, of its character).
        if (
            self.question.shape is Shape.NUMBER
            and len(self._owners) >= 2
            and not all(
                self.about(sentence, path) or self.in_passage(sentence, path) or self.links(sentence, path)
                for path in self._owners
            )
        ):
            fits = False
        fits = fits and not self._dates_the_note(sentence)
        score = coverage if fits else coverage * UNFIT_FACTOR
        # Spans index the folded text; they fit the shown text when folding kept its length.
        aligned = len(sentence.folded) == len(sentence.text)
        marks = merge([*values, *terms, *found]) if aligned else ()
        return Scored(
            sentence,
            coverage,
            fits,
            about,
            score,
            said,
            tuple(dict.fromkeys(sentence.folded[start:end] for start, end in merge(terms))),
            marks,
            linked,
        )

    def best(self, sentences: Iterable[Sentence]) -> list[Scored]:
        """Best first (`Scored.order`)."""
        return sorted((self.score(sentence) for sentence in sentences), key=lambda scored: scored.order)

    # -- what the sentence is about ----------------------------------------------------------

    def about(self, sentence: Sentence, path: str) -> bool:
        """The sentence is on the page, or names it (in any of its names)."""
        if sentence.path == path:
            return True
        if path not in self._names_of:
            self._names_of[path] = folded_names(self.pages[path]) if path in self.pages else ()
        return any(mentions(name, sentence.folded) for name in self._names_of[path])

    def in_passage(self, sentence: Sentence, path: str) -> bool:
        """The passage the sentence stands in names the page (…Henning met Price at Sudbury.
        Agreed rent: £30 per year: the rent is Price's), or the sentence's own page is named after
        it (a sentence of the XPUTimer paper is about XPUTimer). A table row stands alone: the other
        rows of its table are about other things."""
        if path not in self._names_of:
            self.about(sentence, path)
        context = self._context_of(sentence).folded
        names = self._names_of[path]
        passage = "" if table_row(sentence) else sentence.passage
        return any(mentions(name, passage) or mentions(name, context) for name in names)

    def links(self, sentence: Sentence, path: str) -> bool:
        """The sentence's page links to the page (see `Scored.linked`)."""
        if sentence.path not in self._targets:
            page = self.pages.get(sentence.path)
            self._targets[sentence.path] = frozenset(
                fold(link.target.rsplit("/", 1)[-1].removesuffix(".md")).strip()
                for link in (page.links if page else ())
            )
        if path not in self._names_of:
            self.about(sentence, path)
        return not self._targets[sentence.path].isdisjoint(self._names_of[path])

    def _says_specific(
        self, sentence: Sentence, words: frozenset[str], forms: tuple[str, ...], says_words: bool
    ) -> bool:
        texts = [SaidText(sentence.folded, words), self._context_of(sentence), self._summary_of(sentence)]
        if says_words:
            texts.append(self._passage_of(sentence))
        return any(text.has(form) for text in texts for form in forms)

    def _context_of(self, sentence: Sentence) -> SaidText:
        key = (sentence.path, sentence.section)
        if key not in self._context:
            page = self.pages.get(sentence.path)
            names = " ".join(folded_names(page)) if page else ""
            self._context[key] = SaidText.of(f"{names} {fold(sentence.section)}")
        return self._context[key]

    def _lead_of(self, sentence: Sentence) -> SaidText:
        if sentence.lead not in self._leads:
            self._leads[sentence.lead] = SaidText.of(sentence.lead)
        return self._leads[sentence.lead]

    def _heading_of(self, sentence: Sentence) -> SaidText:
        if sentence.section not in self._headings:
            self._headings[sentence.section] = SaidText.of(fold(sentence.section))
        return self._headings[sentence.section]

    def _summary_of(self, sentence: Sentence) -> SaidText:
        """What the sentence's page says it is about (a hook's timeout page whose summary names
        Claude Code is about Claude Code's hooks in every sentence)."""
        if sentence.path not in self._summaries:
            page = self.pages.get(sentence.path)
            self._summaries[sentence.path] = SaidText.of(fold(page.summary) if page else "")
        return self._summaries[sentence.path]

    def _passage_of(self, sentence: Sentence) -> SaidText:
        key = (sentence.path, sentence.ordinal)
        if key not in self._passages:
            self._passages[key] = SaidText.of(sentence.passage)
        return self._passages[key]

    # -- what the question's shape asks for ------------------------------------------------

    def _fit(self, sentence: Sentence) -> tuple[bool, list[tuple[int, int]]]:
        shape = self.question.shape
        if self.expands:
            spans = expansion_spans(self.expands, sentence.text)
            return bool(spans), spans
        if self._keyed(sentence):
            # confidence: medium answers "what confidence …", whatever its shape; a difference is
            # told in parallel lines (-f / --raw-field: always a string) as often as in a sentence.
            return True, []
        if shape is Shape.NUMBER:
            return find_quantities(
                sentence.folded, self.units, self.question.dated, self.question.priced, self.measures
            )
        if shape is Shape.NAME:
            return self._name(sentence)
        if shape is Shape.DEFINITION:
            return self._definition(sentence), []
        if shape is Shape.DIFFERENCE:
            return self._difference(sentence), []
        return True, []

    def _dates_the_note(self, sentence: Sentence) -> bool:
        """A frontmatter field whose value is a date (``date: 2026-05-31``, ``created: …``) tells
        when the note was written or changed: it answers only a question that says its key (when
        was the page created?), not any question that asks when (when is the log rotated?)."""
        if sentence.section != PROPERTIES_HEADING:
            return False
        key, colon, value = sentence.folded.partition(":")
        if not colon or not is_a_date(value):
            return False
        said = SaidText.of(key)
        return not any(
            said.has(text)
            for keyword in self.question.keywords
            for text in (keyword.said_as, *keyword.glosses)
        )

    def _keyed(self, sentence: Sentence) -> bool:
        """A ``Key: value`` line (a table row read with its header, a frontmatter field) whose key
        is a word of the question: its value is what was asked (``confidence: medium`` for
        "confidence はいくつ"), unless the question asks for a number of a unit or a measure, or a
        date: then the line answers only as any sentence does, holding it (``GPU type: H100`` does
        not say how many GPUs). A number question is also answered without a number only when the
        key, its page's names or its headings say each of the question's rarer words (``Bug bounty
        platforms: HackerOne, …`` does not say the average payout). A key is a short label, not a line cut at
        a URL's colon; the words of a name the question names do not count."""
        keys = fact_keys(sentence)
        if not keys:
            return False
        said = SaidText.of(keys)
        keyed = [said.has(keyword.said_as) for keyword in self._asking]
        if not any(keyed):
            return False
        if self.question.shape is not Shape.NUMBER:
            return True
        context = self._context_of(sentence)
        placed = all(
            k or context.has(keyword.said_as) or self.weights[keyword.text] < self._rare
            for k, keyword in zip(keyed, self._asking, strict=True)
        )
        # Then the line answers as any sentence does: with the number asked (`_fit`).
        return not (self.units or self.measures or self.question.dated or self.question.priced or not placed)

    def _name(self, sentence: Sentence) -> tuple[bool, list[tuple[int, int]]]:
        cues = self.question.cues
        if cues:
            spans = []
            for cue in cues:
                at = word_at(sentence.folded, cue)
                while at >= 0:
                    spans.append(_named_before(sentence, at, at + len(cue)))
                    at = word_at(sentence.folded, cue, at + len(cue))
            return bool(spans), spans
        named = set(self.named)
        wants = self.question.wants
        page = self.pages.get(sentence.path)
        if wants is not None and page is not None and page.type == wants and sentence.path not in named:
            return True, []  # which paper …: a sentence of a paper answers with its page
        spans: list[tuple[int, int]] = []
        if wants is None and len(sentence.folded) == len(sentence.text):
            # A name written in capitals (cheap to see) is a name; the name table is asked only
            # for sentences without one (names in kana or kanji), or for a kind of page.
            own = self._names_of.get(sentence.path) or ()
            # The key of a ``Key: value`` line is a label (Source:, Author:), not a name it says.
            labels = key_spans(sentence.text)
            spans = [
                match.span()
                for match in (
                    *_CAPITALISED.finditer(sentence.text),
                    *_CODE_NAME.finditer(sentence.text),
                    *_FOREIGN_NAME.finditer(sentence.text),
                )
                if not any(start <= match.start() and match.end() <= end for start, end in labels)
                and fold(match.group()) not in own
                and not self._names_a_subject(match.group())
                and (not self.question.proper or self._names_anew(match.group()))
            ]
        if not spans:
            spans = [
                (span.start, span.end)
                for span in self.names.name_spans(sentence.text)
                if span.page.path not in named
                and span.page.path != sentence.path
                and (wants is None or span.page.type == wants)
            ]
        return bool(spans), spans

    def _names_anew(self, text: str) -> bool:
        """A name the question does not say: not a capitalised function word (``He``, ``No`` opening
        a sentence), nor only the question's own words (``PR`` of "who merged PR #548?"): the name
        asked for is one the question does not know."""
        folded = fold(text)
        if not folded.isascii():
            return folded not in self.question.folded
        words = [word for word in _LATIN.findall(folded) if word not in STOPWORDS]
        if not words:
            return False
        if self._asked_words is None:
            self._asked_words = frozenset(stem(word) for word in _LATIN.findall(self.question.folded))
        return not all(stem(word) in self._asked_words for word in words)

    def _names_a_subject(self, text: str) -> bool:
        folded = fold(text)
        return any(
            folded in names or any(folded in name for name in names) for names in self._names_of.values()
        )

    def _definition(self, sentence: Sentence) -> bool:
        subjects = [path for path in self.named if path in self.pages]
        if not subjects:
            return bool(_DEFINES.search(sentence.folded)) or self._glossed(sentence.folded)
        if sentence.path in subjects:
            return sentence.section in DEFINITION_SECTIONS or bool(_DEFINES.search(sentence.folded))
        # On another page, the sentence defines the subject when it names it before the defining
        # words (a cohort is …), not when it defines something else and names it after (KueueViz
        # is a web UI … cohort utilization).
        defining = _DEFINES.search(sentence.folded)
        return defining is not None and any(
            self.about(sentence, path)
            and any(0 <= sentence.folded.find(name) < defining.start() for name in self._names_of[path])
            for path in subjects
        )

    def _glossed(self, folded: str) -> bool:
        """The sentence glosses an English word of the question in brackets right after it (a
        "squarson" (half squire, half parson)): what a thing no page is about is, said in passing.
        Not a bracket that gives a value, a note or an example (the port (default 8080), (see …))."""
        for keyword in self.question.keywords:
            latin = keyword.name is None and keyword.text.isascii() and keyword.text.isalpha()
            if latin and _gloss_after(keyword.text).search(folded):
                return True
        return False

    def _difference(self, sentence: Sentence) -> bool:
        """Both things compared (or the one named, or none) and a word that contrasts them; or one
        of them, under a heading that says it tells them apart (## How this differs from …, ## 違い):
        each of its sentences says how one of them differs."""
        about = [path for path in self.named if self.about(sentence, path)]
        if len(about) >= min(2, len(self.named)) and _CONTRAST.search(sentence.folded):
            return True
        told_apart = _TELLS_APART.search(fold(sentence.section))
        return bool(told_apart) and len(about) >= min(1, len(self.named))


_TITLE = re.compile(r"『([^』]{2,60})』")


_YEAR = re.compile(r"(?<![\d.,/-])(?:1[6-9]|20)\d\d(?![\d.,/-]\d)")


def _years_asked(question: Question) -> tuple[tuple[str, ...], ...]:
    """The years a question sets what it asks in (who won in 2025?, 1938 の報告書), outside the
    names it says: a sentence of another year tells of another time."""
    if question.dated:
        return ()
    return tuple(
        (match.group(),)
        for match in _YEAR.finditer(question.folded)
        if not any(span.start <= match.start() < span.end for span in question.names)
    )


def _titles_asked(question: Question) -> tuple[tuple[str, ...], ...]:
    """The titles of works the question writes in 『』 that are no page's name, each as written and
    in the English its words are glossed as (『ノヴム・オルガヌム』, *organum*)."""
    titles = []
    for match in _TITLE.finditer(question.folded):
        start, end = match.span(1)
        if any(span.start < end and start < span.end for span in question.names):
            continue
        glosses = {
            gloss
            for keyword in question.keywords
            if start <= keyword.start < end
            for gloss in keyword.glosses
            if gloss.isascii()
        }
        titles.append((match.group(1), *sorted(glosses)))
    return tuple(titles)


def _echoes(folded: str, terms: list[tuple[int, int]]) -> bool:
    """The sentence says nothing but the question's own words (a bullet ``CVE number`` for "what is
    the CVE number of …"): it answers nothing."""
    if not terms:
        return False
    rest = list(folded)
    for start, end in terms:
        rest[start:end] = [" "] * (end - start)
    return not _CONTENT.search("".join(rest))


_CONTENT = re.compile(r"[a-z0-9\u3040-\u30ff\u3400-\u9fff]")


def _named_before(sentence: Sentence, start: int, end: int) -> tuple[int, int]:
    """A cue with the name written before it: ``High-speed Network チーム``, ``AIOps グループ``."""
    head = sentence.folded[:start].rstrip()
    name = _NAME_BEFORE.search(head)
    return (name.start() if name else start, end)


@lru_cache(maxsize=256)
def _gloss_after(word: str) -> re.Pattern[str]:
    """The word (or its plural), a closing quote, and a bracket opening a gloss after it."""
    return re.compile(rf"(?<![a-z0-9]){re.escape(word)}(?:s|es)?[\"'\u201d\u2019]?\s*\((?!\d|{_NOT_GLOSS})")


_NOT_GLOSS = r"(?:default|see|e\.g|i\.e|eg|optional|required|deprecated|experimental|beta|alpha|cf|source)\b"
"""What a bracket after a word opens that is no gloss of it: a value, a note, a reference."""
