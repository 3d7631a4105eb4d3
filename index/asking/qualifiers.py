"""Which of a thing's values a question asks for: its default, its maximum, its minimum, its average;
and which of a life's dates, its birth or its death.

Such a word weighs little (every settings page says *default*), so a sentence about the setting that
does not say which of its values it gives used to cover the question (how the TTL is validated, for
*the TTL's default*). A sentence answers such a question only when it, its key or its heading says
the value asked, in either language or as code names it (`index.asking.sentences`). A person's
page is full of years, so the year of a birth or a death is asked the same way: a sentence answers
"何年生まれ？" or "when did he die?" only when it says a birth or a death (生まれ, died), or gives the
life as a span of years (フランシス・ベーコン(1561–1626)), not with the year a book came out.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from index.asking.question import Keyword
from index.asking.weights import SaidText

_LIFESPAN = re.compile(r"[(（]\s*(?:c\.\s*)?\d{3,4}\s*[-–—〜~]\s*(?:c\.\s*)?\d{3,4}\s*[)）]")
"""A life as a span of years, in brackets after the name: (1561–1626), （1909〜1942）."""


@dataclass(frozen=True)
class Qualifier:
    """One value a question may ask of a thing, and how a sentence says it."""

    asks: frozenset[str]
    """The question's words that ask for it (a keyword as written): not 以上 or *at least*, which
    ask on a condition (3 回以上間違えると …), nor *min*, which is also minutes."""
    says: frozenset[str]
    """How prose says it, in each language, a bound's sign among them (≥2048 bits: the minimum)."""
    code: re.Pattern[str] | None = None
    """How code names it (``MaxRecvMsgSize``, ``SetMaxOpenConns``, ``max_connections``), on the text
    as written."""


QUALIFIERS = (
    Qualifier(
        frozenset({"default", "デフォルト", "既定"}),
        frozenset({"default", "デフォルト", "既定", "初期値"}),
    ),
    Qualifier(
        frozenset({"maximum", "max", "最大", "上限"}),
        frozenset({"maximum", "max", "最大", "上限", "≤", "<=", "以下", "まで", "at most"}),
        re.compile(r"(?<![A-Za-z])(?:max|MAX)(?=[_\d])|(?<![A-Z])max(?=[A-Z])|Max(?=[A-Z][a-z])"),
    ),
    Qualifier(
        frozenset({"minimum", "最小", "下限"}),
        frozenset({"minimum", "最小", "下限", "≥", ">=", "以上", "at least"}),
        re.compile(r"(?<![A-Za-z])(?:min|MIN)(?=[_\d])|(?<![A-Z])min(?=[A-Z])|Min(?=[A-Z][a-z])"),
    ),
    Qualifier(frozenset({"average", "平均"}), frozenset({"average", "平均"})),
    Qualifier(
        frozenset({"born", "birth", "生", "生年", "誕生", "出生"}),
        frozenset({"born", "birth", "生まれ", "生年", "誕生", "出生", "生を受け"}),
        _LIFESPAN,
    ),
    Qualifier(
        frozenset({"die", "died", "death", "亡", "死去", "没年", "逝去", "死亡"}),
        frozenset({"die", "death", "亡くな", "亡き", "死去", "没", "逝去", "死亡", "死ん", "passed away"}),
        _LIFESPAN,
    ),
)
"""*Default* is asked as 既定 too (既定値: its bigram), never by 初期 alone (初期の頃, early days)."""


def qualifiers_asked(keywords: Iterable[Keyword], folded: str = "") -> tuple[Qualifier, ...]:
    """The values the question's ``keywords`` ask for (the caller leaves out a page's name and a
    capitalised word: *Max Verstappen* asks for no maximum); a count asked *up to* (何接続まで,
    何文字までだっけ: ``folded``, the question) asks for the maximum."""
    asked = {keyword.said_as for keyword in keywords if keyword.name is None}
    return tuple(
        qualifier
        for qualifier in QUALIFIERS
        if not asked.isdisjoint(qualifier.asks) or (qualifier is MAXIMUM and _UP_TO.search(folded))
    )


MAXIMUM = QUALIFIERS[1]
_UP_TO = re.compile(r"何\s*[^\s\d、。？?まで]{1,4}\s*まで")
"""何 and its counter, then まで: *up to how many*."""


def says(qualifier: Qualifier, text: str, said: SaidText, heading: SaidText) -> bool:
    """The sentence ``text`` (``said``: folded, with its Latin words and a camelCase identifier's
    parts), or its ``heading``, says the value asked. Not its page's names: on a page called *Max
    Quay* every sentence would."""
    return any(said.has(word) or heading.has(word) for word in qualifier.says) or (
        qualifier.code is not None and qualifier.code.search(text) is not None
    )
