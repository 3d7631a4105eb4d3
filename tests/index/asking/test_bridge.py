"""The JMdict bridge: what it renders, and that a cold look-up reads a few rows, not the dictionary."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest

from index.asking import bridge
from index.asking.bridge import base_forms, english_for, is_english, japanese_for, names_a_thing, parts_of
from index.asking.question import read_question
from index.catalog.names import NameTable

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
    ("word", "bases"),
    [
        ("leased", ("lease",)),  # -d
        ("stitched", ("stitch",)),  # -ed
        ("stopped", ("stop",)),  # a doubled consonant
        ("applied", ("apply",)),  # -ied
        ("forgetting", ("forget",)),  # -ing, doubled
        ("used", ("use",)),  # not *us*: a base of one or two letters is no word asked
        ("cared", ("care",)),  # not *car*: a stem that is a word with an *e* is that word
        ("feed", ()),  # *fee* is no verb
        ("thing", ()),  # not *th* + ing
        ("need", ()),  # not *ne* + ed
        ("port", ()),  # not inflected
    ],
)
def test_base_forms(word: str, bases: tuple[str, ...]) -> None:
    assert base_forms(word) == bases


def test_an_inflected_verb_is_rendered_as_its_verb() -> None:
    """*leased* is said in Japanese as *lease* is (賃貸, リース), which JMdict glosses only in the
    base form; a word it glosses itself is rendered as itself (*seed* is 種子, not a form of *see*)."""
    assert "リース" in japanese_for("leased")
    assert set(japanese_for("lease")) <= set(japanese_for("leased"))
    assert "種子" in japanese_for("seed")
    assert not set(japanese_for("see")) & set(japanese_for("seed"))


@pytest.mark.parametrize(
    ("compound", "parts"),
    [
        ("最大長", [("最大", "maximum")]),  # 長 alone is one character: no part
        ("環境変数", [("環境", "environment"), ("変数", "variable")]),
        (
            "プリロードリスト",
            [("プリ", "preload"), ("ロード", "preload"), ("リスト", "list")],
        ),  # joined: preload
        ("ワークツリー", [("ワーク", "worktree"), ("ツリー", "worktree")]),
        ("ズクキ", []),
    ],
)
def test_parts_of(compound: str, parts: list[tuple[str, str | None]]) -> None:
    found = parts_of(compound)
    assert [compound[part.start : part.end] for part in found] == [text for text, _ in parts]
    for part, (_, gloss) in zip(found, parts, strict=True):
        assert gloss is None or gloss in part.glosses


@pytest.mark.parametrize(
    ("question", "glossed", "dropped"),
    [
        # A compound JMdict lacks: its parts' glosses, and no bigram across two parts.
        ("パスワードの最大長は?", {"最大": "maximum"}, {"大長"}),
        ("環境変数の名前は?", {"環境": "environment", "変数": "variable"}, {"境変"}),
        # A dictionary word keeps its own glosses and every bigram.
        ("正規表現エンジンは?", {"正規": "regex", "表現": "regex"}, set()),
    ],
)
def test_a_compound_is_read_as_its_words(question: str, glossed: dict[str, str], dropped: set[str]) -> None:
    keywords = {keyword.text: keyword for keyword in read_question(question, NameTable(), {}).keywords}
    assert all(gloss in keywords[gram].glosses for gram, gloss in glossed.items())
    assert not dropped & set(keywords)


@pytest.mark.parametrize(
    ("question", "kanji", "gloss", "not_gloss"),
    [
        ("ReDoS を避けるのに使えるエンジンは?", "使", "use", None),  # 使える → 使う
        ("ReDoS を避けるのに使えるエンジンは?", "避", "avoid", None),  # the ending as typed
        ("タンが出した食べ物は?", "出", "submit", "dashi"),  # 出した → 出す, not the noun 出し
        ("いつ調べた?", "調", "examine", "investigation"),  # 調べ → 調べる
        ("どこまで短くなった?", "短", "short", None),  # an adjective: 短い
        ("使" + "あ" * 900 + "?", "使", "use", None),  # a hostile run of kana: read as its first four
    ],
)
def test_a_lone_kanji_is_glossed_as_its_word(
    question: str, kanji: str, gloss: str, not_gloss: str | None
) -> None:
    """A verb's stem of one kanji is looked up in its dictionary form: a Japanese question's verb
    can be said by English prose (使える → Use non-backtracking engines)."""
    keywords = {keyword.text: keyword for keyword in read_question(question, NameTable(), {}).keywords}
    assert keywords[kanji].lone
    assert gloss in keywords[kanji].glosses
    assert not_gloss is None or not_gloss not in keywords[kanji].glosses


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


@pytest.mark.parametrize(
    ("word", "english"),
    [("match", True), ("cache", True), ("matche", False), ("policie", False), ("kubernete", False)],
)
def test_is_english(word: str, english: bool) -> None:
    assert is_english(word) is english
