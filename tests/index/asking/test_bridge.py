"""The JMdict bridge: what it renders, and that a cold look-up reads a few rows, not the dictionary."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest

from index.asking import bridge
from index.asking.bridge import english_for, japanese_for, names_a_thing

STEPS = 1000
"""SQLite virtual-machine instructions between two calls of the progress handler."""
MAX_STEPS = 50_000
"""A look-up through the indexes runs at most a few thousand instructions; reading every gloss
(374,000 rows, as the gloss query did while SQLite chose the index by language) ran 2.6 million
for 単位."""


@pytest.fixture
def counted() -> Iterator[list[int]]:
    """How many instructions this thread's dictionary connection runs, in units of `STEPS`."""
    calls = [0]

    def count() -> int:
        calls[0] += 1
        return 0

    connection = bridge._connection()
    connection.set_progress_handler(count, STEPS)
    try:
        yield calls
    finally:
        connection.set_progress_handler(None, STEPS)


@pytest.mark.parametrize(
    ("word", "expected"),
    [
        ("ローカル", ("local",)),
        ("アーキテクチャ", ("architecture",)),
        ("削減", ("cut", "reduction", "curtailment")),
        ("x", ()),
    ],
)
def test_english_for(word: str, expected: tuple[str, ...]) -> None:
    assert english_for(word) == expected


@pytest.mark.parametrize(
    ("word", "says", "lacks"),
    [
        ("port", "ポート", "する"),
        ("default", "デフォルト", "デ"),
        ("react", "反応", "反応する"),
        ("of", None, ""),
    ],
)
def test_japanese_for(word: str, says: str | None, lacks: str) -> None:
    """Forms as prose contains them: no hiragana-only form, an inflecting one as its stem."""
    found = japanese_for(word)
    assert (says in found) if says else found == ()
    assert lacks not in found


@pytest.mark.parametrize(
    ("word", "thing"),
    [("ramen", True), ("cup", True), ("react", False), ("zqxw", False), ("ラーメン", False)],
)
def test_names_a_thing(word: str, thing: bool) -> None:
    assert names_a_thing(word) is thing


@pytest.mark.parametrize(
    ("lookup", "word"),
    [
        (english_for, "単位"),
        (english_for, "パラメータ"),
        (english_for, "静的"),
        (japanese_for, "default"),
        (japanese_for, "architecture"),
        (names_a_thing, "noodle"),
    ],
)
def test_a_cold_lookup_reads_through_the_indexes(
    counted: list[int], lookup: Callable[[str], object], word: str
) -> None:
    lookup.cache_clear()  # type: ignore[attr-defined]
    lookup(word)
    assert counted[0] * STEPS < MAX_STEPS
