"""Which of a thing's values a question asks for, and whether a sentence says it
(`index.asking.qualifiers`)."""

from __future__ import annotations

import pytest

from index.analysis import fold
from index.asking.qualifiers import QUALIFIERS, Qualifier, qualifiers_asked, says
from index.asking.question import Keyword
from index.asking.weights import SaidText, words_of

DEFAULT, MAXIMUM, MINIMUM, AVERAGE, BIRTH, DEATH = QUALIFIERS
QUAY = "wiki/entities/Max Quay.md"


@pytest.mark.parametrize(
    ("keywords", "asked"),
    [
        ((Keyword("default", 0), Keyword("timeout", 8)), (DEFAULT,)),
        ((Keyword("デフォルト", 0), Keyword("値", 5)), (DEFAULT,)),
        ((Keyword("max", 0), Keyword("payload", 4)), (MAXIMUM,)),
        ((Keyword("平均", 0),), (AVERAGE,)),
        ((Keyword("最小", 0), Keyword("サイズ", 2)), (MINIMUM,)),
        # a condition is not the value asked (3 回以上間違えると …), nor minutes (how many mins)
        ((Keyword("以上", 0), Keyword("回", 3)), ()),
        ((Keyword("min", 0), Keyword("build", 4)), ()),
        # a page the question names says Max: no maximum is asked
        ((Keyword("max", 0, name=QUAY), Keyword("quay", 4, name=QUAY)), ()),
        ((Keyword("timeout", 0),), ()),
        ((Keyword("生", 0), Keyword("中島", 3)), (BIRTH,)),
        ((Keyword("born", 0),), (BIRTH,)),
        ((Keyword("亡", 0),), (DEATH,)),
        ((Keyword("died", 0), Keyword("born", 5)), (BIRTH, DEATH)),
    ],
)
def test_the_values_a_question_asks_for(keywords: tuple[Keyword, ...], asked: tuple[Qualifier, ...]) -> None:
    assert qualifiers_asked(keywords) == asked


@pytest.mark.parametrize(
    ("question", "asked"),
    [
        ("同時に何接続までいける?", (MAXIMUM,)),  # up to how many: the maximum
        ("何文字までだっけ?", (MAXIMUM,)),
        ("何時まで開いてる?", (MAXIMUM,)),
        ("いつまでに出せばいい?", ()),  # a deadline, not a count
        ("何接続ある?", ()),
    ],
)
def test_a_count_asked_up_to_asks_for_the_maximum(question: str, asked: tuple[Qualifier, ...]) -> None:
    assert qualifiers_asked((), fold(question)) == asked


@pytest.mark.parametrize(
    ("qualifier", "text", "heading", "said"),
    [
        (DEFAULT, "The default timeout is 30 seconds.", "", True),
        (DEFAULT, "In the storm season the timeout was raised to 90 seconds.", "", False),
        (DEFAULT, "timeout: 600", "Defaults", True),  # its heading says it
        (DEFAULT, "既定値は 600 秒。", "", True),
        (MAXIMUM, "grpc.MaxRecvMsgSize(4 * 1024 * 1024)", "", True),
        (MAXIMUM, "maxPayload: 16 * 1024", "", True),
        (MAXIMUM, "Messages of at most 4 MB are accepted.", "", True),
        (MAXIMUM, "db.SetMaxOpenConns(25)", "", True),
        (MAXIMUM, "MAX_CONNECTIONS=100", "", True),
        (MAXIMUM, "if size <= 4096: accept", "", True),
        (MAXIMUM, "送信サイズの上限は 4 MB。", "", True),
        (MAXIMUM, "本文は 300 文字まで。", "", True),
        (MAXIMUM, "Keep the relay up to date.", "", False),
        (MAXIMUM, "Maxwell wrote the relay.", "", False),
        (MINIMUM, "Key size: ≥2048 bits RSA", "", True),
        (MINIMUM, "Masts stand at least 12 metres above the quay.", "", True),
        (MINIMUM, "A minute later the mast fell.", "", False),
        (MINIMUM, "Set MinVersion to TLS12.", "", True),
        (MINIMUM, "min_size: 3", "", True),
        (MINIMUM, "Mast height: 12 m", "At least", True),  # a phrase in the heading
        (MINIMUM, "MinIO stores the backups.", "", False),
        (MINIMUM, "SESSION_TIMEOUT_MINUTES=30", "", False),
        (MINIMUM, "The build takes 30 min.", "", False),
        (AVERAGE, "平均 12 分で終わる。", "", True),
        (AVERAGE, "The mean payout is $500.", "", False),  # mean is also a verb: not read as average
        (BIRTH, "1909年、東京に生まれる。", "", True),
        (BIRTH, "フランシス・ベーコン(1561–1626)は1597年に出版した。", "", True),  # a life's span
        (BIRTH, "1942年発表。", "", False),  # a year, of a book
        (BIRTH, "山形浩生訳、2025。", "", False),  # 生 of a name is no birth
        (BIRTH, "Price was born in 1881.", "", True),
        (BIRTH, "He joined the club in 1947.", "Early life", False),
        (DEATH, "He died in 2014.", "", True),
        (DEATH, "1942年、33歳で亡くなった。", "", True),
        (DEATH, "1942年発表。", "", False),
        (DEATH, "The club was founded in 1862.", "Death and legacy", True),  # its heading says it
    ],
)
def test_a_sentence_says_the_value_asked(qualifier: Qualifier, text: str, heading: str, said: bool) -> None:
    folded = fold(text)
    assert says(qualifier, text, SaidText(folded, words_of(folded)), SaidText.of(fold(heading))) is said
