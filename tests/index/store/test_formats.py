"""The index's own field formats store exactly what whoosh's formats store of the same analysis,
without a whoosh Token a token."""

from __future__ import annotations

import pytest
from whoosh.formats import Frequency, Positions

from index.store.engine import CJKTokenizer, _Frequencies, _Positions

TEXTS = [
    "",
    "Minder",
    "ゼータの記録 v2 ゼータ ゼータ",
    "MegaScale は 12,288 GPU で 55.2% の MFU。MegaScale MegaScale",
    "a b a c a",
]


@pytest.mark.parametrize("text", TEXTS)
@pytest.mark.parametrize(
    ("ours", "whoosh"),
    [
        (_Positions(field_boost=1.5), Positions(field_boost=1.5)),
        (_Frequencies(field_boost=4.0), Frequency(field_boost=4.0)),
    ],
    ids=["positions", "frequencies"],
)
def test_a_format_stores_what_whoosh_would(text: str, ours, whoosh) -> None:
    expected = sorted(whoosh.word_values(text, CJKTokenizer()))
    assert sorted(ours.word_values(text, None)) == expected
