"""Whether a folded text says a keyword (`index.asking.weights.SaidText`)."""

from __future__ import annotations

import pytest

from index.analysis import fold
from index.asking.weights import SaidText


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
