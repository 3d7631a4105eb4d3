"""How text is cut into the index's tokens: Latin words, CJK bigrams, each with its position."""

from __future__ import annotations

import pytest

from index.analysis import token_positions, token_spans


@pytest.mark.parametrize(
    ("text", "positions"),
    [
        ("", {}),
        ("Minder", {"minder": [0]}),
        ("ＭＩＮＤＥＲ minder", {"minder": [0, 1]}),  # full width and case fold to one word
        ("ゼータ", {"ゼー": [0], "ータ": [1]}),
        ("記録 を", {"記録": [0], "を": [1]}),  # a one-character run stays itself
        (
            "ゼータの記録 v2 ゼータ",
            {"ゼー": [0, 6], "ータ": [1, 7], "タの": [2], "の記": [3], "記録": [4], "v2": [5]},
        ),
        ("a_b", {"a": [0], "b": [1]}),
    ],
)
def test_each_token_has_the_positions_it_stands_at(text: str, positions: dict[str, list[int]]) -> None:
    assert token_positions(text) == positions


@pytest.mark.parametrize(
    "text",
    [
        "ゼータの記録を残す。漢字カナ ｶﾅ ABC Déjà vu x_y 々",
        "MegaScale は 12,288 GPU で 55.2% の MFU",
        "々〇 한국어 テスト",
    ],
)
def test_the_positions_are_those_of_the_token_spans(text: str) -> None:
    spans: dict[str, list[int]] = {}
    for token, position, *_ in token_spans(text):
        spans.setdefault(token, []).append(position)
    assert token_positions(text) == spans
    assert list(token_positions(text)) == list(spans)  # in the order they first stand
