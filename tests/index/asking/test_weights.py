"""Whether a folded text says a keyword (`index.asking.weights.SaidText`), and what a keyword weighs
(`index.asking.weights.keyword_weights`)."""

from __future__ import annotations

import pytest

from index.analysis import fold
from index.asking.question import read_question
from index.asking.weights import SaidText, capitalised, keyword_weights
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
        # (as common in Japanese as it is, `_common_ceiling`: 2.8, against the 0.9 of *all*)
        ("a small call of the page", True),
        # said as a word, in English passages: it weighs as that rendering does, as much as they are English
        ("all of the page", False),
    ],
)
def test_a_rendering_is_said_as_a_word_not_inside_one(sentence: str, weighed: bool) -> None:
    question = read_question("全部で何ページ?", NameTable(), {})
    weights = keyword_weights(question, 1000, {"全部": 3, "all": 400}, [fold(sentence)])
    assert (weights["全部"] > 2) is weighed


@pytest.mark.parametrize(
    ("question", "passage", "common", "kept"),
    [
        # *turn* is rare in a security wiki, not in English: it weighs no more than it would there
        ("Why do admins turn off seccomp?", "admins turn seccomp", "turn", "seccomp"),
        # 自分 is as common in Japanese (a bigram is capped as the word it is cut from), 冪等 is not
        ("自分で冪等に保つには?", "自分で冪等に保つ", "自分", "冪等"),
        # a name the question writes in capitals keeps the wiki's weight, in either language, even
        # where NFKC changes the text's length before it (… is three dots)
        ("Which Python version does it require?", "python version require", "version", "python"),
        ("Why… is Python slow?", "python slow", "slow", "python"),
        ("Google の通知の設定は?", "google", None, "google"),
        ("…Google の通知の設定は?", "google", None, "google"),
    ],
)
def test_a_common_word_weighs_no_more_than_in_its_language(
    question: str, passage: str, common: str | None, kept: str
) -> None:
    """Every keyword is as rare in the wiki (3 passages of 100,000) and said by the passage: the
    rare word and the name weigh that, the common one is capped at its IDF over passages of its
    language at large."""
    read = read_question(question, NameTable(), {})
    rare = {keyword.text: 3 for keyword in read.keywords}
    weights = keyword_weights(read, 100_000, rare, [passage])
    assert weights[kept] == pytest.approx(max(weights.values()))
    assert weights[kept] > 10
    if common is not None:
        assert weights[common] < weights[kept] - 1


@pytest.mark.parametrize(
    ("question", "word", "named"),
    [
        ("How many syscalls does Podman's profile block?", "podman", True),
        ("What Argon2id memory parameter should we use, in MiB?", "mib", True),
        ("What Argon2id memory parameter should we use, in MiB?", "argon2id", True),
        ("Podman blocks how many syscalls?", "podman", False),
        ("How many syscalls does the default profile block?", "default", False),
        ("What does it say about The Times?", "the", False),
        ("Which section deletes them after e.g. 10 minutes?", "10", False),
        ("Who published a rival book about 17 years later?", "17", False),
    ],
)
def test_words_an_english_question_writes_as_names(question: str, word: str, named: bool) -> None:
    assert capitalised(question, fold(question).find(word), word) is named
