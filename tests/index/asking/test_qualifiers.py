"""Which of a thing's values a question asks for, and whether a sentence says it
(`index.asking.qualifiers`)."""

from __future__ import annotations

import pytest

from index.analysis import fold
from index.asking.qualifiers import QUALIFIERS, qualifiers_asked, says
from index.asking.question import Keyword
from index.asking.weights import SaidText, words_of

DEFAULT, MAXIMUM, MINIMUM, AVERAGE = QUALIFIERS
QUAY = "wiki/entities/Max Quay.md"


@pytest.mark.parametrize(
    ("keywords", "asked"),
    [
        ((Keyword("default", 0), Keyword("timeout", 8)), (DEFAULT,)),
        ((Keyword("デフォルト", 0), Keyword("値", 5)), (DEFAULT,)),
        ((Keyword("max", 0), Keyword("payload", 4)), (MAXIMUM,)),
        ((Keyword("平均", 0),), (AVERAGE,)),
        # a page the question names says Max: no maximum is asked
        ((Keyword("max", 0, name=QUAY), Keyword("quay", 4, name=QUAY)), ()),
        ((Keyword("timeout", 0),), ()),
    ],
)
def test_the_values_a_question_asks_for(keywords, asked):
    assert qualifiers_asked(keywords) == asked


@pytest.mark.parametrize(
    ("qualifier", "text", "context", "said"),
    [
        (DEFAULT, "The default timeout is 30 seconds.", "", True),
        (DEFAULT, "In the storm season the timeout was raised to 90 seconds.", "", False),
        (DEFAULT, "timeout: 600", "Relay Limits Defaults", True),  # its heading says it
        (DEFAULT, "既定値は 600 秒。", "", True),
        (MAXIMUM, "grpc.MaxRecvMsgSize(4 * 1024 * 1024)", "", True),
        (MAXIMUM, "maxPayload: 16 * 1024", "", True),
        (MAXIMUM, "Messages of up to 4 MB are accepted.", "", True),
        (MAXIMUM, "Maxwell wrote the relay.", "", False),
        (MINIMUM, "Key size: ≥2048 bits RSA", "", True),
        (MINIMUM, "Masts stand at least 12 metres above the quay.", "", True),
        (MINIMUM, "A minute later the mast fell.", "", False),
        (MINIMUM, "Set MinVersion to TLS12.", "", True),
        (AVERAGE, "The mean payout is $500.", "", False),  # mean is also a verb: not read as average
    ],
)
def test_a_sentence_says_the_value_asked(qualifier, text, context, said):
    folded = fold(text)
    assert says(qualifier, text, folded, words_of(folded), SaidText.of(fold(context))) is said
