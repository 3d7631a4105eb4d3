"""The numbers a sentence holds as a question of number asks for them (`index.asking.quantities`)."""

from __future__ import annotations

import pytest

from index.analysis import fold
from index.asking.quantities import find_quantities


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
        # a unit asked that the sentence does not count
        ("The quay is 300 metres long.", ("crane",), False, False, []),
    ],
)
def test_the_numbers_a_sentence_holds(sentence, units, dated, priced, found):
    folded = fold(sentence)
    fits, spans = find_quantities(folded, units, dated, priced)
    assert [folded[start:end] for start, end in spans] == [fold(text) for text in found]
    assert fits is bool(found)
