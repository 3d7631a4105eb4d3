"""Which questions a change to the wiki may now answer: the cheap check before they are asked again.

A question meets the changed pages when they say most of what it is about: of the question's
content words (Latin words and CJK bigrams, as the index reads them, without function words and
without the bigrams hiragana joins),
those the wiki knows at all weigh their IDF, and the changed pages must say at least half of that
weight. A name only the new page says (``Qwertyzz``) weighs most; a word every page says (開発)
little; a word no page says (``develops`` in a Japanese wiki) cannot tell and weighs nothing. Only
the questions that meet are asked again (`index.wiki.Wiki.questions_meeting`): a change of a few
pages costs one pass over the open questions' words, not an answer for each.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping

from index.analysis import token_spans

HIRAGANA_FIRST, HIRAGANA_LAST = "\u3040", "\u309f"
"""A bigram with hiragana in it joins words (を開 of を開発, 発し of 開発した): it says little."""
SHARE = 0.5
"""The share of a question's weight the changed pages must say."""
_STOP_WORDS = (
    "a an and are as at be by can could did do does for from has have how i in is it its me my "
    "of on or that the their there these this those to was what when where which who whom whose "
    "why will with would you your "
)
STOP_WORDS = frozenset(_STOP_WORDS.split())
"""English words every question has."""


def content_terms(text: str) -> frozenset[str]:
    """The index's terms of ``text`` that say what it is about."""
    terms = set()
    for term, _position, _start, _end, cjk in token_spans(text):
        if cjk:
            if len(term) == 2 and not any(HIRAGANA_FIRST <= char <= HIRAGANA_LAST for char in term):
                terms.add(term)
        elif len(term) > 1 and term not in STOP_WORDS:
            terms.add(term)
    return frozenset(terms)


def terms_of(texts: Iterable[str]) -> frozenset[str]:
    found: set[str] = set()
    for text in texts:
        found |= content_terms(text)
    return frozenset(found)


def meeting(
    questions: Mapping[str, frozenset[str]],
    said: frozenset[str],
    total: int,
    frequencies: Mapping[str, int],
) -> list[str]:
    """The ids of the ``questions`` (id → content terms) whose weight ``said`` (the changed pages'
    terms) says at least `SHARE` of; ``frequencies``: how many passages hold each term, of ``total``."""
    found = []
    for question_id, terms in questions.items():
        known = {term: _idf(total, frequencies.get(term, 0)) for term in terms if frequencies.get(term, 0)}
        met = sum(weight for term, weight in known.items() if term in said)
        if met and met >= SHARE * sum(known.values()):
            found.append(question_id)
    return found


def _idf(total: int, frequency: int) -> float:
    return math.log((total + 1) / (frequency + 1)) + 1.0
