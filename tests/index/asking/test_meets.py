"""Which questions a change may answer (index/asking/meets.py): the cheap check before asking again."""

from __future__ import annotations

import pytest

from index.asking.meets import content_terms, meeting, terms_of


@pytest.mark.parametrize(
    ("text", "terms"),
    [
        ("Qwertyzz を開発したのはどこ?", {"qwertyzz", "開発"}),
        ("Who develops the Qwertyzz engine?", {"develops", "qwertyzz", "engine"}),
        ("ＭｅｇａＳｃａｌｅ とは", {"megascale"}),
        ("それは何ですか", set()),
        ("a I x", set()),
    ],
)
def test_content_terms(text: str, terms: set[str]) -> None:
    assert content_terms(text) == terms


FREQUENCIES = {"qwertyzz": 1, "開発": 40, "engine": 5, "megascale": 3}
"""Passages holding each term, of 100; ``develops`` is in none."""


@pytest.mark.parametrize(
    ("question", "said", "meets"),
    [
        ("Qwertyzz を開発したのはどこ?", "Qwertyzz は推論基盤。開発元: ByteDance", True),
        ("Qwertyzz を開発したのはどこ?", "Qwertyzz の話。", True),  # the name weighs most
        ("Qwertyzz を開発したのはどこ?", "開発チームの記録。", False),  # a common word alone
        ("Who develops Qwertyzz?", "Qwertyzz は推論基盤。", True),  # a word no page says cannot tell
        ("Who develops the Qwertyzz engine?", "engine の話。", False),
        ("MegaScale とは?", "Qwertyzz の話。", False),
        ("それは何ですか", "何でも。", False),
    ],
)
def test_a_question_meets_pages_that_say_most_of_its_weight(question: str, said: str, meets: bool) -> None:
    found = meeting({"q": content_terms(question)}, terms_of([said]), 100, FREQUENCIES)
    assert found == (["q"] if meets else [])
