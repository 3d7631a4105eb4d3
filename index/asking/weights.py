"""What each word of a question weighs when sentences are measured against it.

IDF in the wiki's passages, adjusted to the passages retrieved for the question: a word is matched
by sentences of its own script, a word none of them says cannot tell them apart, and a word the
question needs but the passages lack must keep its weight so that nothing passes for its answer
(see `keyword_weights`).
"""

from __future__ import annotations

import math
import re
import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import lru_cache

from index.analysis import fold, is_function_bigram, tokenize
from index.asking.bridge import names_a_thing
from index.asking.question import SCRIPT_RUN, Keyword, Question
from index.asking.vocabulary import STOPWORDS, says_a_change
from index.asking.wordforms import singular, stem

_LATIN = re.compile(r"[a-z0-9]+")


def keyword_weights(
    question: Question,
    total: int,
    frequencies: Mapping[str, int],
    sentences: Iterable[str],
    titles: Iterable[str] = (),
) -> dict[str, float]:
    """IDF of each keyword in the wiki's passages, for the retrieved ``sentences`` (folded).

    A keyword is matched by sentences of its own script, so it weighs its IDF times the share of
    the retrieved sentences written in that script (an English word over Japanese passages weighs
    little; over English ones, fully); numbers are in both, and so is a word of the ``titles``
    (folded names) of the pages the sentences stand on, which count as said by each of their
    sentences (a source's English title over its Japanese prose). A keyword none of the retrieved
    sentences contains cannot tell them apart. It weighs nothing when that is a gap of language (a
    Latin word in a question over Japanese prose: ``used``, ``production``), of a verb of change
    prose says in many ways or not at all (向上 where the wiki says 1.34 倍だった), or of wording (手動 of
    手動診断 where the wiki never writes 手動診断 but says 人手での診断: another part of the same
    word is there). It keeps its weight when it is a name typed as one (capitals, digits), a whole
    Japanese word the passages lack (消費電力), or a part of a word the wiki does write as the
    question does (筆頭 of 筆頭著者 when the passages say only 著者): the question then asks for
    something they do not say, and no sentence should pass for its answer. A lone kanji (短 of
    短くなった) says less than any two-character unit and weighs half the lightest of them.
    """
    sentences = list(sentences)
    said = " ".join(sentences)
    words = words_of(said)
    present = {k.text for k in question.keywords if occurs_in(k.said_as, said, words)}
    # The names of the pages the sentences stand on count as said by each of them (a source's
    # English title over its Japanese prose): a word found there is matched in its own script.
    named = " ".join(titles)
    in_titles = {k.text for k in question.keywords if occurs_in(k.said_as, named, words_of(named))}
    present |= in_titles
    glossed = {
        k.text: [g for g in k.glosses if occurs_in(g, said, words)]
        for k in question.keywords
        if k.text not in present
    }
    words_present = {k.word for k in question.keywords if k.text in present and not k.lone}
    # A word the wiki writes as the question does (all its bigrams occur: 筆頭著者) is a word it
    # uses; a word it never writes so (手動診断, where it says 人手での診断) is a gap of wording.
    unwritten = {k.word for k in question.keywords if not k.lone and not frequencies.get(k.text, 0)}
    latin = sum(1 for sentence in sentences if is_latin(sentence)) / len(sentences) if sentences else 0.5
    weights: dict[str, float] = {}
    for keyword in question.keywords:
        if keyword.lone:
            continue
        ceiling = _common_ceiling(question, keyword)
        idf = min(_idf(total, max(_frequency(keyword, frequencies), 1)), ceiling)
        if keyword.name is not None:
            weights[keyword.text] = idf
        elif keyword.text in present:
            # A word is matched by sentences of its own script: an English word in a question over
            # Japanese passages weighs as much as English is their language. Numbers are in both.
            share = (
                1.0
                if keyword.text.isdigit() or keyword.text in in_titles
                else latin
                if keyword.text.isascii()
                else 1 - latin
            )
            weights[keyword.text] = idf * share
        elif glossed.get(keyword.text):
            # Said in the other language (runs → 運用, バックトラック → backtracking): it weighs what
            # its commonest rendering weighs, as much as the passages are in that language.
            renderings = glossed[keyword.text]
            frequency = max(max(frequencies.get(g, 0), 1) for g in renderings)
            idf = min(_idf(total, frequency), ceiling)
            weights[keyword.text] = idf * (latin if renderings[0].isascii() else 1 - latin)
        elif keyword.text.isascii():
            # A word the passages lack: over English passages they do not say it; over Japanese
            # ones they may say it in Japanese, or not at all (weighing nothing there), unless it
            # is a name, or a thing the wiki never names in either language (ramen: the dictionary
            # knows it as a noun, and the wiki has none of its renderings): then nothing answers
            # what it asks.
            unknown = (
                not frequencies.get(keyword.text)
                and names_a_thing(keyword.text)
                and not any(written_in(gloss, frequencies) for gloss in keyword.glosses)
            )
            weights[keyword.text] = idf if unknown or _typed_as_name(question.text, keyword) else idf * latin
        elif says_a_change(keyword.text):
            # A verb of change (向上, 短縮) the passages do not say: they say it otherwise (MFU …
            # 1.34 倍だった), a gap of wording, as when its English form is missing.
            weights[keyword.text] = 0.0
        else:
            gap = keyword.word in words_present and keyword.word in unwritten
            weights[keyword.text] = 0.0 if gap else idf
    _share_words(question.keywords, weights)
    lightest = min((w for w in weights.values() if w > 0), default=1.0)
    for keyword in question.keywords:
        if keyword.lone:
            weights[keyword.text] = lightest / 2
    return weights


def _share_words(keywords: Iterable[Keyword], weights: dict[str, float]) -> None:
    """A word weighs as one word, however many bigrams it is cut into: its bigrams share the weight
    of its heaviest one, each in proportion to its own (インタビュー is one word, not five; 文化 of
    多文化主義 says part of it). Without this a long word outweighs the rest of the question."""
    parts: dict[int, list[str]] = {}
    for keyword in keywords:
        if not keyword.lone and not keyword.text.isascii() and keyword.name is None:
            parts.setdefault(keyword.word, []).append(keyword.text)
    for texts in parts.values():
        total = sum(weights.get(text, 0.0) for text in texts)
        if len(texts) < 2 or total <= 0:
            continue
        heaviest = max(weights.get(text, 0.0) for text in texts)
        for text in texts:
            weights[text] = weights.get(text, 0.0) * heaviest / total


def _frequency(keyword: Keyword, frequencies: Mapping[str, int]) -> int:
    """In how many passages the keyword may stand: a bigram of a katakana word no more often
    than the word's rarest bigram (ラーメン is as rare as ーメ, whatever メン is)."""
    if keyword.whole is None:
        return frequencies.get(keyword.text, 0)
    return min(frequencies.get(term, 0) for term in bigrams(keyword.whole))


def written_in(text: str, frequencies: Mapping[str, int]) -> bool:
    """The wiki may write ``text``: a Latin word it contains, or Japanese whose every bigram it
    contains (the frequencies hold ``bigrams`` of each rendering, `index.asking.search.retrieve`)."""
    if text.isascii():
        return bool(frequencies.get(text))
    terms = bigrams(text)
    return bool(terms) and all(frequencies.get(term) for term in terms)


def bigrams(text: str) -> list[str]:
    return [token.text for token in tokenize(text)]


def is_latin(folded: str) -> bool:
    """Mostly Latin letters (an English sentence), as against Japanese with English names in it."""
    letters = [char for char in folded if char.isalpha()]
    return bool(letters) and sum(char.isascii() for char in letters) * 2 > len(letters)


def name_weight(name: str, total: int, frequencies: Mapping[str, int]) -> float:
    """What a page's name weighs as keywords: the IDF of its words."""
    return sum(_idf(total, max(frequencies.get(term, 0), 1)) for term in name_terms(name))


def name_terms(name: str) -> list[str]:
    return [token.text for token in tokenize(name) if not is_function_bigram(token.text)]


def _idf(total: int, frequency: int) -> float:
    return math.log(1 + (total - frequency + 0.5) / (frequency + 0.5))


PASSAGE_CHARS = 600
"""About how long a passage of the wiki is (up to 700 characters: `index.store.chunks`)."""
CHARS_PER_WORD = {"en": 6, "ja": 2}
"""Characters of a word, with its space, in English; of a word or particle in Japanese."""


def _common_ceiling(question: Question, keyword: Keyword) -> float:
    """What a word of the question may weigh at most: its IDF over passages of the language at large
    (`wordfreq`'s frequency, as the share of passages of ``PASSAGE_CHARS`` characters that say it).

    A small wiki's IDF overrates the common words it happens to use seldom: *told*, *keep*,
    *across* stand in few passages of a security wiki, yet say little of what a question asks
    (*why are we told to switch off TLS compression?*), while the sentence that answers says the
    rare words (*compression*) and not the asker's; so with 結局, 自分, 想定. A Japanese bigram is
    capped as its word (the run of one script it is cut from). A word the question writes as a
    name (Python, TLS; any capitalised word in a Japanese question), a part of a page's name, and a
    word the language's list lacks keep the wiki's weight.
    """
    if keyword.name is not None:
        return math.inf
    if keyword.text.isascii():
        # The question as typed, at the folded text's offsets: NFKC keeps them but where casefold
        # changes a length (ß), and there whether a word is written as a name cannot be read.
        text = unicodedata.normalize("NFKC", question.text)
        if len(text) != len(question.folded) or not keyword.text.isalpha():
            return math.inf
        if _typed_as_name(text, keyword) or capitalised(text, keyword.start, keyword.text):
            return math.inf
        written = text[keyword.start : keyword.start + len(keyword.text)]
        if written[:1].isupper() and not is_latin(question.folded):
            return math.inf  # Slack, Python in a Japanese question: it has no capitals of its own
        return _common_idf(keyword.text, "en")
    run = SCRIPT_RUN.match(question.folded, keyword.word)
    return _common_idf(run.group(), "ja") if run else math.inf


@lru_cache(maxsize=4096)
def _common_idf(word: str, language: str) -> float:
    """The IDF of ``word`` over passages of ``language``; none (infinite) for a word outside
    wordfreq's small list, which holds the words said once in a million or more (about 30,000 a
    language, 14 ms to load): a rarer word's IDF there is above 8 (Japanese) or 9 (English), more
    than a word weighs in a wiki of a few thousand passages, so the list of every word (70 MB in
    memory) would cap nothing more but in the largest wikis."""
    frequency = _frequencies(language).get(word, 0.0)
    share = min(1.0, frequency * PASSAGE_CHARS / CHARS_PER_WORD[language])
    return math.log(1 + (1 - share) / share) if share > 0 else math.inf


@lru_cache(maxsize=2)
def _frequencies(language: str) -> dict[str, float]:
    """wordfreq's small list of ``language``, loaded by the first question that needs it: the
    package takes 0.13 s to import, which a lookup or a command that answers nothing never pays."""
    from wordfreq import get_frequency_dict

    return get_frequency_dict(language, "small")


def capitalised(text: str, start: int, keyword: str) -> bool:
    """The question writes the Latin word at ``start`` of its folded text as a name: capitalised
    (Podman, Heartbleed), not as the first word of a sentence, or with a capital or a digit inside
    (OSTree, Argon2id). A number (10 of "after 10 minutes") is not a name, nor a question folding
    changes the length of read so."""
    if not keyword.isascii() or len(fold(text)) != len(text) or keyword in STOPWORDS:
        return False
    if not any(char.isalpha() for char in keyword):
        return False
    written = text[start : start + len(keyword)]
    if any(char.isupper() or char.isdigit() for char in written[1:]):
        return True
    before = text[:start].rstrip()
    return written[:1].isupper() and bool(before) and before[-1] not in ".!?。！？「『\"'(（"


def _typed_as_name(text: str, keyword: Keyword) -> bool:
    if keyword.name is not None:
        return True
    if len(fold(text)) != len(text):
        return False
    written = text[keyword.start : keyword.start + len(keyword.text)]
    return any(char.isupper() or char.isdigit() for char in written[1:]) or written[:1].isdigit()


@dataclass(frozen=True)
class SaidText:
    """Folded text with its Latin words (singular), for asking whether it says a keyword."""

    folded: str
    words: frozenset[str]

    @classmethod
    def of(cls, folded: str) -> SaidText:
        return cls(folded, words_of(folded))

    def has(self, text: str) -> bool:
        return occurs_in(text, self.folded, self.words)


def words_of(folded: str) -> frozenset[str]:
    """The Latin words of a text as keywords are written (singular), and their stems."""
    found = _LATIN.findall(folded)
    return frozenset((*(singular(word) for word in found), *(stem(word) for word in found)))


def occurs_in(text: str, folded: str, words: set[str] | frozenset[str]) -> bool:
    """``text`` is in the folded text: a Latin word in any inflection (`stem`), a Latin phrase
    (*at least*) as whole words, CJK or a sign (``<=``) anywhere."""
    if not text.isascii() or not any(char.isalnum() for char in text):
        return text in folded
    if " " in text:
        return text in folded and _phrase(text).search(folded) is not None
    return text in words or stem(text) in words


@lru_cache(maxsize=1024)
def _phrase(text: str) -> re.Pattern[str]:
    return re.compile(rf"(?<![a-z0-9]){re.escape(text)}(?![a-z0-9])")
