"""Which of a thing's values a question asks for: its default, its maximum, its minimum, its average.

Such a word weighs little (every settings page says *default*), so a sentence about the setting that
does not say which of its values it gives used to cover the question (how the TTL is validated, for
*the TTL's default*). A sentence answers such a question only when it, its key or its heading says
the value asked, in either language or as code names it (`index.asking.sentences`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from index.asking.question import Keyword
from index.asking.weights import SaidText, occurs_in


@dataclass(frozen=True)
class Qualifier:
    words: frozenset[str]
    """How prose says it, in each language, a bound's sign among them (≥2048 bits: the minimum)."""
    code: re.Pattern[str] | None = None
    """How code names it (``MaxRecvMsgSize``, ``max_connections``), matched on the text as written."""


QUALIFIERS = (
    Qualifier(frozenset({"default", "デフォルト", "既定", "初期値"})),
    Qualifier(
        frozenset({"maximum", "max", "最大", "上限", "≤", "以下", "at most", "up to"}),
        re.compile(r"(?<![A-Za-z])(?:max(?=[A-Za-z_\d])|Max(?=[A-Z_\d])|MAX(?=[A-Z_\d]))"),
    ),
    Qualifier(
        frozenset({"minimum", "min", "最小", "下限", "≥", "以上", "at least"}),
        # only before a capital, ``_`` or a digit: *minute*, *mind* are words
        re.compile(r"(?<![A-Za-z])(?:min|Min|MIN)(?=[A-Z_\d])"),
    ),
    Qualifier(frozenset({"average", "平均"})),
)


def qualifiers_asked(keywords: Iterable[Keyword]) -> tuple[Qualifier, ...]:
    """The values the question's own words ask for (a page's name saying *Max* asks none)."""
    asked = {keyword.said_as for keyword in keywords if keyword.name is None}
    return tuple(qualifier for qualifier in QUALIFIERS if not asked.isdisjoint(qualifier.words))


def says(qualifier: Qualifier, text: str, folded: str, words: frozenset[str], context: SaidText) -> bool:
    """The sentence ``text`` (``folded``, its Latin ``words`` as `index.asking.weights.words_of`
    reads them), or its key, heading or page names (``context``), says the value asked."""
    return any(_said(word, folded, words) or context.has(word) for word in qualifier.words) or (
        qualifier.code is not None and qualifier.code.search(text) is not None
    )


def _said(word: str, folded: str, words: frozenset[str]) -> bool:
    """In any inflection, or a phrase (*at least*) as whole words."""
    if " " in word:
        return re.search(rf"(?<![a-z0-9]){re.escape(word)}(?![a-z0-9])", folded) is not None
    return occurs_in(word, folded, words)
