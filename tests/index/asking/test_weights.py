"""Whether a folded text says a keyword (`index.asking.weights.SaidText`), and what a keyword weighs
(`index.asking.weights.keyword_weights`)."""

from __future__ import annotations

import pytest

from index.analysis import fold
from index.asking.question import read_question
from index.asking.weights import SaidText, keyword_weights
from index.catalog.names import NameTable


@pytest.mark.parametrize(
    ("text", "word", "said"),
    [
        ("The ports were rented out.", "rent", True),  # any inflection
        ("The ports were rented out.", "port", True),  # singular or plural
        ("デフォルトは 600 秒", "デフォルト", True),  # CJK anywhere
        ("Masts stand at least 12 metres high.", "at least", True),  # a phrase as whole words
        ("That last leastwise …", "at least", False),
        ("flat leasting", "at least", False),
        ("if size <= 4096", "<=", True),  # a sign anywhere
        ("if size < 4096", "<=", False),
    ],
)
def test_a_text_says_a_word(text: str, word: str, said: bool) -> None:
    assert SaidText.of(fold(text)).has(word) is said


@pytest.mark.parametrize(
    ("sentence", "weighed"),
    [
        # *all* (全部) said only inside *small* and *call*: the word is missing, and keeps its weight
        ("a small call of the page", True),
        # said as a word, in English passages: it weighs as that rendering does, as much as they are English
        ("all of the page", False),
    ],
)
def test_a_rendering_is_said_as_a_word_not_inside_one(sentence: str, weighed: bool) -> None:
    question = read_question("全部で何ページ?", NameTable(), {})
    weights = keyword_weights(question, 1000, {"全部": 3, "all": 400}, [fold(sentence)])
    assert (weights["全部"] > 4) is weighed
