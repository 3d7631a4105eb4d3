"""The parts of a question that asks two things at once (*『山月記』は何年に発表された？あと元ネタは何？*,
*what does the winner get as an advance, and which publisher gives the book deal?*).

A colleague often asks two things in one message. The sentences that answer the whole question
answer its first part more often than not; the answer must also hold what answers the second
(`index.asking.answer`).
"""

from __future__ import annotations

import re

from index.analysis import fold, is_function_bigram, tokenize
from index.asking.vocabulary import STOPWORDS, asks
from index.reading.prose import split_outside

MAX_PARTS = 3
_PART_END = re.compile(
    r"(?<=[?？])\s*(?=\S)"
    r"|,\s+(?=and\s+(?:[a-z]+\s+){0,2}(?:what|which|who|whose|whom|how|when|where|why)\b)"
    r"|\s+(?=and\s+(?:what|which|who|whose|whom|how|when|where|why)\b)"
)
"""Where a part ends: after a question mark with more to follow, before *, and which …*, and before
*and which* right after a word (*what hull design is it and what water depth is it rated for?*)."""
_OPENING = re.compile(r"^(?:and\s+|also\s+|あと[、,\s]*|それと[、,\s]*|また[、,\s]*)", re.IGNORECASE)
"""What joins a part to the one before (あと, and): no word of what it asks."""


def question_parts(text: str) -> list[str]:
    """The parts of ``text`` when it asks two or three things (each part asks, or follows a question
    mark and says something of its own); else none."""
    # Never inside a code span or a URL: the ? of `then rc=$?` or of https://a.b/c?d=1 ends nothing.
    parts = [_OPENING.sub("", part.strip(" ,")) for part in split_outside(_PART_END, text)]
    kept = [part for part in parts if _says_something(fold(part))]
    if not 2 <= len(kept) <= MAX_PARTS or not all(_asks(part) for part in kept):
        return []
    return kept


def elliptical(part: str) -> bool:
    """The part asks nothing of its own, only names another thing to ask the part before about
    (*…graded Premium? and for Class 2?*, *N4 は何？N1 は？*)."""
    folded = fold(part)
    if _ASKS_ITSELF.search(folded):
        return False
    latin = [word for word in _LATIN_WORD.findall(folded) if word not in STOPWORDS]
    return len(latin) <= ELLIPTICAL_WORDS and len(_CJK.findall(folded)) <= ELLIPTICAL_CJK


ELLIPTICAL_WORDS = 3
ELLIPTICAL_CJK = 6
"""An elliptical part is a name and no more (*and for Class 2?*, *N1 は？*, *MIT？*), not a
question of its own without an asking word (*ユーザーが自分で作るもの？*)."""
_LATIN_WORD = re.compile(r"[a-z0-9][a-z0-9.-]*")
_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u9fff]")
_ASKS_ITSELF = re.compile(
    r"何|なに|誰|だれ|どこ|どれ|どの|いつ|いくつ|いくら|どう|なぜ|なんで|ですか"
    r"|\b(?:what|which|who|whom|whose|how|when|where|why|does|do|did|is|are|was|were|can|could|should|will)\b"
)


def _says_something(folded: str) -> bool:
    """A word of its own, as the question's terms are read (`index.analysis.tokenize`): a Latin word
    that is no function or asking word, or a Japanese bigram that is not only hiragana."""
    return any(
        (not is_function_bigram(token.text) and len(token.text) == 2)
        if token.cjk
        else (token.text not in STOPWORDS and len(token.text) > 2)
        for token in tokenize(folded)
    )


def _asks(part: str) -> bool:
    """The part asks, or ends as a Japanese part left open does (…の割合も, …のタイトルは)."""
    return asks(fold(part)) or part.endswith(("も", "は"))
