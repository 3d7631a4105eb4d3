"""Numbers a sentence holds, as a question of number asks for them: a count of the unit asked (21
ファイル for 何 file, four ley lines), a Japanese counter (13 名), a date or a year for *when*, a sum of
money for *how much … pay*, a number in a unit of the measure asked (90 s for *how long*, 640px for
*what width*) (`index.asking.sentences` decides whether one answers).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

_QUANTITY = re.compile(
    r"(?<![a-z0-9.#])(?:約|およそ|最大|平均)?\d[\d,]*(?:\.\d+)?(?:\s*[〜~～-]\s*\d[\d,]*(?:\.\d+)?)?"
    r"\s*(?:%|％|倍|割|万|億|千)?"
)
_NOT_QUANTITY = re.compile(r"^(?:19|20)\d\d$|^\d{4}\.\d{4,5}$")
"""Years (NSDI 2025) and arXiv numbers are numbers no question asks for."""
_DATE = re.compile(
    r"(?<![\d.])(?:19|20)\d\d(?:[-/](?:0?[1-9]|1[0-2])(?:[-/](?:0?[1-9]|[12]\d|3[01]))?"
    r"|\.(?:0?[1-9]|1[0-2])\.(?:0?[1-9]|[12]\d|3[01]))"
    r"(?:[t\s]\d{1,2}:\d{2}(?::\d{2})?(?:z|[+-]\d{2}:?\d{2})?)?(?!\d|\.\d)"
)
"""2024-01-03, 2025/07, 2024.1.3 (not 1024.5 or 1000-20), also ending a sentence (in 1988.): a
date, which answers only when the question asks when."""
_WHEN = re.compile(rf"{_DATE.pattern}|(?<![\d.])(?:19|20)\d\d(?!\d|\.\d)|\d{{1,4}}\s*[年月日](?!間)")
"""What answers when: a date, a year, a number of 年, 月 or 日 (2024 年 7 月 26 日)."""
_MONEY = re.compile(
    r"(?:[£$€¥￥]|\b(?:us|usd|eur|gbp|jpy)\s?)\s?\d[\d,]*(?:\.\d+)?(?:\s*(?:[kmb]\b|million|billion|万|億))?"
    r"|(?<![\w.,])\d[\d,]*(?:\.\d+)?\s*(?:[kmb]\s+|million\s+|billion\s+|[万億千])?"
    r"(?:円|ドル|ユーロ|ポンド|元|(?:pounds?|dollars?|euros?|yen|shillings?|guineas?|pence|usd|eur|gbp|jpy)\b)"
)
"""A sum of money: a currency sign or code before a number (£30, $332.84, USD 5), or a currency
after it (30 円, 2 万円, 100 ドル, 20 pounds, 5 guineas)."""
COUNTERS = frozenset(
    {
        *"人名件個本回枚台冊社点票通頭匹羽杯軒分秒度歳位日つ",
        "時間",
        "日間",
        "年間",
        "週間",
        "種類",
        "文字",
        "か所",
        "箇所",
    }
)
"""Japanese counters: prose counts with another (13 名 for 何人) or with a noun (95 ファイル)."""
_COUNTED = re.compile(r"\s*(?:" + "|".join(sorted(COUNTERS, key=len, reverse=True)) + ")")
"""A Japanese counter right after a number (130 名, 3 日間)."""
_NUMBER_WORD = re.compile(
    r"(?<![a-z-])(?:(?:twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety)"
    r"(?:-(?:one|two|three|four|five|six|seven|eight|nine))?|one|two|three|four|five|six|seven|eight"
    r"|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|dozens?"
    r"|hundreds?|thousands?)(?![a-z-])|[一二三四五六七八九十百千万]+"
)
_KANJI_DIGITS = frozenset("一二三四五六七八九十百千万")
"""A number written in words (four ley lines, forty-eight observers, 三日): it counts only with the
unit asked right after it, as *one* and 一 say many other things."""
_UNIT_GAP = 12
"""How far after a number its unit may stand (6,000 GPU, 1,000 枚の H800 GPU)."""
_CJK_TEXT = re.compile(r"[\u3040-\u30ff\u3400-\u9fff]")
_NOT_AMOUNT = r"(?<![a-z0-9.#,])(?!(?:1[5-9]|20)\d0s|\d{1,3}(?:,\d{3})+s|(?:1[5-9]|20)\d\d\s*年)"
"""Where a measured number cannot start: inside a word or a number (after a comma too, or each
comma of a long run of digits would start a scan to its end), nor at a decade (the 1990s, 1,000s
of users) or a year (2024 年)."""
_WORDS = (
    r"(?:(?:twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety)(?:-(?:one|two|three|four|five|six"
    r"|seven|eight|nine))?|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen"
    r"|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|a\s+few|several)[\s-]"
)
_DIGITS = r"\d[\d,]*(?:\.\d+)?(?:\s*[〜~～-]\s*\d[\d,]*(?:\.\d+)?)?(?:\s*|-)"
"""A number or a range (47〜74 時間), and a hyphen before its unit (a 360-page typescript)."""
_AMOUNT = rf"{_NOT_AMOUNT}(?:{_DIGITS}|{_WORDS})"
_MEASURED = {
    "time": re.compile(
        rf"{_NOT_AMOUNT}(?:{_DIGITS}|{_WORDS}|(?:a|an)\s)"
        r"(?:ms|msec|milliseconds?|[μµ]s|ns|s|secs?|seconds?|m|mins?|minutes?|h|hrs?|hours?|days?"
        r"|weeks?|months?|years?|秒|分(?!の)|時間|日|週間|[ヶかカケ]月|年)(?![a-z0-9])"
    ),
    "length": re.compile(
        _AMOUNT + r"(?:px|pixels?|r?em|pt|vw|vh|cm|mm|km|m|meters?|metres?|miles?|feet|foot|ft"
        r"|inch(?:es)?|yards?|ピクセル|センチ|ミリ|メートル|キロ|char(?:acter)?s?|letters?|words?|pages?|pp"
        r"|lines?|文字|字|語|ページ|行)(?![a-z0-9])"
    ),
    "temperature": re.compile(_AMOUNT + r"(?:°\s*[cf]?|degrees?)(?![a-z0-9])"),
    "version": re.compile(
        r"(?<![a-z0-9.])(?:v\d+(?:\.\d+)*|\d+(?:\.\d+){1,3})(?:[-+][0-9a-z.]+)?(?![0-9.]*\d)"
    ),
}
"""A number in a unit of each measure a question asks (`index.asking.vocabulary.Shaped.measures`):
90 s, 24h, ten minutes, an hour (not the 1990s, 2024 年, 3分の1 or an H100); 640px, 3 miles, and a
text's length (15 chars, a 360-page typescript); 11 °F (℃ folds to °c; 2度 is as often *twice*); a
version (v0.9, 3.11, 2026.1.9).
Only time is counted with an article (once a day): *a degree*, *a word*, *a page* count nothing."""

Spans = list[tuple[int, int]]


def is_a_date(folded: str) -> bool:
    """The folded text is a date and nothing else (``2026-05-31``, ``2026-08-03t07:46:56z``)."""
    return _DATE.fullmatch(folded.strip()) is not None


def find_measured(folded: str, *measures: str) -> Spans:
    """The numbers in a unit of the ``measures`` (``time``, ``length``, ``temperature``) in the
    folded text."""
    found = {strip_span(folded, *match.span()) for m in measures for match in _MEASURED[m].finditer(folded)}
    return sorted(found)


def find_quantities(
    folded: str, units: Sequence[str], dated: bool, priced: bool, measures: Sequence[str] = ()
) -> tuple[bool, Spans]:
    """A number of the unit asked (``units``: its renderings, 何 file → 21 ファイル) in the folded
    sentence, and where; a Japanese counter (何人, 何本, 何時間) is a grammar prose uses its own way
    (13 名, 95 ファイル, 8h): any number fits, of that counter first. A question that asks when
    (``dated``) is answered by a date, a year or a number of 年, 月, 日 only; no other question by a
    date or a year; one that asks for a sum (``priced``) by a sum of money; one that asks for a
    ``measures`` (how long, what width) by a number in a unit of one of them."""
    if dated:
        found = [strip_span(folded, *match.span()) for match in _WHEN.finditer(folded)]
        return bool(found), found
    if priced:
        found = [strip_span(folded, *match.span()) for match in _MONEY.finditer(folded)]
        return bool(found), found
    if measures:  # asked without a unit (何秒 counts 秒): `index.asking.vocabulary.Shaped.measures`
        found = find_measured(folded, *measures)
        return bool(found), found
    soft = bool(units) and units[0] in COUNTERS
    dates = [match.span() for match in _DATE.finditer(folded)]
    # English counts in Japanese prose with a counter (how many people: 参加者 130 名).
    unsaid = not any(writes_unit(folded, unit) for unit in units)
    counters = bool(units and not soft and units[0].isascii() and _CJK_TEXT.search(folded)) and unsaid
    found = []
    counted: Spans = []
    for match in _QUANTITY.finditer(folded):
        digits = match.group().strip()
        if not digits or _NOT_QUANTITY.match(digits):
            continue
        if any(start <= match.start() < end for start, end in dates):
            continue
        found.append(strip_span(folded, match.start(), match.end()))
        counter = _COUNTED.match(folded, match.end()) if counters else None
        if counter is not None:
            counted.append(strip_span(folded, match.start(), counter.end()))
        else:
            counted.extend(_counting(folded, units, match.start(), match.end(), _UNIT_GAP))
    for match in _NUMBER_WORD.finditer(folded) if units else ():
        gap = 0 if match.group()[0] in _KANJI_DIGITS else _UNIT_GAP  # 三日, not 一般に 2 日
        counted.extend(_counting(folded, units, match.start(), match.end(), gap))
    if units and not soft:
        return bool(counted), counted
    return bool(found or counted), counted or found


def _counting(folded: str, units: Sequence[str], start: int, end: int, gap: int) -> Spans:
    """The number at ``start:end`` with the first unit asked that follows within ``gap``: an English
    unit as a word (3 ports, not the *port* of 3 important bugs)."""
    for unit in units:
        at = word_at(folded, unit, end, end + gap + len(unit))
        if at >= 0:
            return [strip_span(folded, start, at + len(unit))]
    return []


def writes_unit(folded: str, unit: str) -> bool:
    """The folded text writes the unit: an English one as a word (*ports*, not the *port* of
    *support*), any other anywhere."""
    return word_at(folded, unit) >= 0


def word_at(folded: str, text: str, start: int = 0, stop: int | None = None) -> int:
    """Where ``text`` first stands in ``folded[start:stop]``: English as a word, singular or plural
    (the *lab* of *labs*, not of *label* or *available*), anything else anywhere; -1 if nowhere."""
    stop = len(folded) if stop is None else stop
    at = folded.find(text, start, stop)
    if not text.isascii():
        return at
    while at >= 0 and not _a_word(folded, at, at + len(text)):
        at = folded.find(text, at + 1, stop)
    return at


def _a_word(folded: str, start: int, end: int) -> bool:
    before = folded[start - 1] if start else ""
    return not (before.isascii() and before.isalpha()) and _WORD_END.match(folded, end) is not None


_WORD_END = re.compile(r"(?:e?s)?(?![a-z])")
"""Where an English word ends: its plural's -s or -es, then anything but a letter."""


def strip_span(text: str, start: int, end: int) -> tuple[int, int]:
    """The span without the spaces at its ends."""
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    return start, end
