"""The numbers a sentence holds as a question of number asks for them (`index.asking.quantities`), and
hostile text read by it and by `index.asking.qualifiers` in linear time."""

from __future__ import annotations

import time

import pytest

from index.analysis import fold
from index.asking.qualifiers import QUALIFIERS, says
from index.asking.quantities import find_quantities, is_a_date, word_at, writes_unit
from index.asking.weights import SaidText, words_of


@pytest.mark.parametrize(
    ("sentence", "units", "dated", "priced", "found"),
    [
        # a number in words counts with the unit asked after it
        ("The port runs four gantry cranes.", ("crane",), False, False, ["four gantry crane"]),
        # a Japanese counter is the unit as prose says it
        ("参加者は 120 名だった。", ("名",), False, False, ["120 名"]),
        # when: a date or a year, also ending the sentence
        ("The crypt was found on 6 July 1988.", (), True, False, ["1988"]),
        ("2024 年 7 月 26 日に公開された。", (), True, False, ["2024", "7 月", "26 日"]),
        # how much … pay: a sum of money
        ("The refit cost £40,000 in all.", (), False, True, ["£40,000"]),
        # a year is no count
        ("Presented at NSDI 2025.", (), False, False, []),
        # an English unit over Japanese prose counts with the prose's counter (how many people)
        ("参加者は 130 名だった。", ("people",), False, False, ["130 名"]),
        # a number in kanji counts only with the unit right after it (三日, not 一般に 2 日)
        ("三日で終わった。", ("日",), False, False, ["三日"]),
        # a number inside a date is no count
        ("2024-01-03 に 3 本の論文が出た。", ("本",), False, False, ["3 本"]),
        # a counter asked that the prose counts another way: any number answers
        ("95 ファイルを調べた。", ("本",), False, False, ["95"]),
        # an arXiv number is no count
        ("See arXiv 2401.12345 for details.", (), False, False, []),
        # a unit asked that the sentence does not count
        ("The quay is 300 metres long.", ("crane",), False, False, []),
        # an English unit starts a word: the port of important or supported is none
        ("We fixed 3 important bugs, 2 supported modes.", ("port",), False, False, []),
        ("It opens 3 ports, also as 8080port.", ("port",), False, False, ["3 port", "8080port"]),
    ],
)
def test_the_numbers_a_sentence_holds(
    sentence: str, units: tuple[str, ...], dated: bool, priced: bool, found: list[str]
) -> None:
    folded = fold(sentence)
    fits, spans = find_quantities(folded, units, dated, priced)
    assert [folded[start:end] for start, end in spans] == [fold(text) for text in found]
    assert fits is bool(found)


@pytest.mark.parametrize(
    ("sentence", "measures", "found"),
    [
        # how long: a time, or a text's length, in its units; an identifier's number is neither
        ("Name: LongTimeout · Value: 90 s (issue-6525).", ("time",), ["90 s"]),
        ("Usage decays with a half-life of 24h, resampled every 5m.", ("time",), ["24h", "5m"]),
        ("It took ten minutes.", ("time",), ["ten minutes"]),
        ("A 360-page typescript dossier.", ("time", "length"), ["360-page"]),
        ("Minimum length: 15 chars without MFA.", ("length",), ["15 chars"]),
        # what width: a length, not the scale of a viewport
        ('<meta content="width=device-width, initial-scale=1.0" />', ("length",), []),
        ("640px以下でサイドバー折りたたみ", ("length",), ["640px"]),
        # what temperature: degrees
        ("A drop of 11 °F at the cold spot, in 1943.", ("temperature",), ["11 °f"]),
        # which version: a version, not an issue's number
        ("Stable since v0.9; see issue-2215.", ("version",), ["v0.9"]),
        ("Python 3.11 以上、2026.1.9 で追加。", ("version",), ["3.11", "2026.1.9"]),
        ("Each plugin is checked before it is published.", ("version",), []),
        # a word joined to a number is no quantity of it
        ("Runs on k8s with 3 replicas.", ("time",), []),
        # a decade and a GPU's name are no times
        ("Built in the 1990s, it runs on an H100 now.", ("time",), []),
        ("2024 年に始まり、3 年間続いた。", ("time",), ["3 年"]),
        ("Once a day, for eighty days; a three-day trip.", ("time",), ["a day", "eighty days", "three-day"]),
        ("5µs, or 47〜74 時間 before.", ("time",), ["5μs", "47〜74 時間"]),
        ("A tenth of 1,000s of users, 3分の1, in the 80s, on 3D printers.", ("time",), ["80s"]),
        # a degree, a word, twice (2度) and a share count no length or temperature
        ("a degree in physics, a word, 95% of it, 2度実行した", ("length", "temperature"), []),
        # a span in two measures is found once (5m: minutes or metres)
        ("Resampled every 5m.", ("time", "length"), ["5m"]),
    ],
)
def test_the_numbers_of_a_measure_asked(sentence: str, measures: tuple[str, ...], found: list[str]) -> None:
    folded = fold(sentence)
    fits, spans = find_quantities(folded, (), False, False, measures)
    assert [folded[start:end] for start, end in spans] == [fold(text) for text in found]
    assert fits is bool(found)


@pytest.mark.parametrize(
    "hostile",
    [
        "Max" * 100_000,  # a bound's code name, over and over
        "at least " * 30_000,
        "1988." * 50_000,  # years ending sentences
        "2024-01-03." * 30_000,
        "1" * 200_000,
        "1," * 100_000,  # each comma of a long number is no start of a scan to its end
        "2024.5." * 40_000,
        "<=≥" * 60_000,
        "一二三" * 60_000 + "日",  # a kanji number that never meets its unit
    ],
)
def test_a_hostile_sentence_is_read_in_linear_time(hostile: str) -> None:
    folded = fold(hostile)
    said, heading = SaidText(folded, words_of(folded)), SaidText.of("")
    started = time.process_time()  # this process's CPU: other work on the machine does not count
    for qualifier in QUALIFIERS:
        says(qualifier, hostile, said, heading)
    for units, dated, priced in (
        ((), True, False),
        ((), False, True),
        (("日",), False, False),
        (("gpu",), False, False),
    ):
        find_quantities(folded, units, dated, priced)
    find_quantities(folded, (), False, False, ("time", "length", "temperature", "version"))
    assert time.process_time() - started < 2.0  # about 0.3 s here at most


@pytest.mark.parametrize(
    ("text", "dated"),
    [
        (" 2026-05-31", True),
        ("2026-08-03t07:46:56z", True),
        ("2026-08-07t18:40:00+09:00", True),
        ("2026-05-31 (rotated daily)", False),
        ("7 日", False),
        ("v1beta2", False),
    ],
)
def test_a_value_that_is_a_date_and_nothing_else(text: str, dated: bool) -> None:
    assert is_a_date(text) is dated


@pytest.mark.parametrize(
    ("text", "unit", "written"),
    [
        ("the ports it opens", "port", True),
        ("full support", "port", False),
        ("ファイル数は多い", "ファイル", True),
    ],
)
def test_a_text_writes_the_unit(text: str, unit: str, written: bool) -> None:
    assert writes_unit(fold(text), unit) is written


@pytest.mark.parametrize(
    ("text", "word", "at"),
    [
        ("the label is available at tide labs", "lab", 31),  # not the lab of label or available
        ("laboratory", "lab", -1),
        ("3 ports, 640px, 2 gpu-hours", "port", 2),
        ("3つのチーム", "チーム", 3),  # anything else anywhere
        ("steam", "team", -1),
    ],
)
def test_where_a_word_stands(text: str, word: str, at: int) -> None:
    assert word_at(text, word) == at
