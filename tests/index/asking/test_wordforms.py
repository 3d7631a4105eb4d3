"""English word forms (`index.asking.wordforms`): singulars, plural stems, either spelling, and a
stemmer per thread (table-driven)."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import pytest
import snowballstemmer

from index.asking.wordforms import singular, spellings, stem


@pytest.mark.parametrize(
    ("word", "expected"),
    [
        ("gpus", "gpu"),
        ("papers", "paper"),
        ("analysis", "analysis"),
        ("status", "status"),
        ("class", "class"),
        # -es and -ies cut where the rest is a word: not matche, policie, goe, processe
        ("matches", "match"),
        ("caches", "cache"),
        ("policies", "policy"),
        ("cookies", "cookie"),
        ("goes", "go"),
        ("processes", "process"),
        ("uses", "use"),
        # a word the dictionary knows in no cut form keeps its -es: a name, not a plural
        ("kubernetes", "kubernetes"),
        ("series", "series"),
    ],
)
def test_singular(word: str, expected: str) -> None:
    assert singular(word) == expected


@pytest.mark.parametrize(
    ("word", "expected"),
    [
        ("policy", ("policy", "polici")),  # policies
        ("key", ("key",)),  # keys: a vowel before -y
        ("match", ("match",)),  # matches contains it
        ("ポリシー", ("ポリシー",)),
    ],
)
def test_spellings(word: str, expected: tuple[str, ...]) -> None:
    assert spellings(word) == expected


@pytest.mark.parametrize(
    ("british", "american"),
    [
        ("initialised", "initialized"),
        ("organisation", "organization"),
        ("colour", "colors"),
        ("licence", "license"),
        ("catalogue", "catalog"),
        ("analysed", "analyzes"),
        ("prioritise", "prioritized"),
    ],
)
def test_either_spelling_finds_the_other(british: str, american: str) -> None:
    assert stem(british) == stem(american)


@pytest.mark.parametrize(
    ("one", "other"),
    [("hour", "hor"), ("four", "for"), ("tour", "tor"), ("revise", "revize"), ("precise", "precize")],
)
def test_short_words_keep_their_spelling(one: str, other: str) -> None:
    assert stem(one) != stem(other)


def test_stemming_from_many_threads_at_once_gives_each_its_own_stem() -> None:
    """A Snowball stemmer holds the word it works on: shared by threads, it mixed their words up."""
    words = [
        f"{prefix}{ending}"
        for prefix in ("organ", "nation", "relat", "condit", "operat")
        for ending in (
            "izations",
            "ization",
            "ional",
            "ionally",
            "iveness",
            "fulness",
            "ousness",
            "icate",
            "ative",
            "alize",
        )
    ]
    unique = [f"{word}{'x' * n}" for n in range(40) for word in words]  # past the cache: each word once
    expected = {word: snowballstemmer.stemmer("english").stemWord(word) for word in unique}
    with ThreadPoolExecutor(max_workers=8) as pool:
        found = dict(zip(unique, pool.map(stem, unique), strict=True))
    assert found == expected
