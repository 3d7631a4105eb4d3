"""Splitting a passage into sentences: pure, table-driven."""

from __future__ import annotations

import pytest

from index.asking.splitting import key_spans, split_sentences, table_row


def sentences(text: str) -> list[str]:
    return [
        s.text
        for s in split_sentences(text, path="wiki/entities/Evil Corp.md", section="", ordinal=0, rank=0)
    ]


@pytest.mark.parametrize(
    ("text", "leads"),
    [
        # the lines a sentence ending in a colon introduces stand under it, up to the next prose
        (
            "To restart:\ncranectl resume\nIt is rare.",
            [("To restart:", ""), ("cranectl resume", "to restart:"), ("It is rare.", "")],
        ),
        (
            "設定は次のとおり：\n- port: 8080\n- host: a\n以上。",
            [
                ("設定は次のとおり：", ""),
                ("port: 8080", "設定は次のとおり:"),
                ("host: a", "設定は次のとおり:"),
                ("以上。", ""),
            ],
        ),
        # a list item that introduces code leads its code, not the next item
        (
            "1. Use RE2:\n   const r = 1\n2. Limit input.",
            [("Use RE2:", ""), ("const r = 1", "use re2:"), ("Limit input.", "")],
        ),
        # a heading ends them too
        ("Keys:\n### Other\n- a: 1", [("Keys:", ""), ("a: 1", "")]),
    ],
)
def test_the_lines_a_sentence_introduces(text: str, leads: list[tuple[str, str]]) -> None:
    found = split_sentences(text, path="wiki/x.md", section="", ordinal=0, rank=0)
    assert [(s.text, s.lead) for s in found] == leads


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # a sentence ends at 。！？!? and at a full stop before a capital
        (
            "Evil Corp は企業。本社は東京！ Why? It is big. Michael R. Lyu said so.",
            ["Evil Corp は企業。", "本社は東京！", "Why?", "It is big.", "Michael R. Lyu said so."],
        ),
        # nor at a title's full stop before a name
        (
            "Salter visited the Rev. Foyster. Prof. Hans Thirring came. React vs. Vue won.",
            ["Salter visited the Rev. Foyster.", "Prof. Hans Thirring came.", "React vs. Vue won."],
        ),
        # never inside Slack's special mentions: the sentence stays whole (escaped at the edge)
        ("Evil Corp は <!channel> を呼ぶ。次の文。", ["Evil Corp は <!channel> を呼ぶ。", "次の文。"]),
        ("Evil Corp は <!here> を呼ぶ。", ["Evil Corp は <!here> を呼ぶ。"]),
        (
            "Ask <!subteam^S0123|@team>! Then <@U0BOSS>? Done.",
            ["Ask <!subteam^S0123|@team>!", "Then <@U0BOSS>?", "Done."],
        ),
        # nor inside a Slack link, whose URL and label may hold ? and !
        ("See <https://a.b/c?d=1!|x> for more. Next.", ["See <https://a.b/c?d=1!|x> for more.", "Next."]),
        # nor inside a code span holding ". " or 。
        ("Run `make test. Then deploy` first. Next.", ["Run `make test. Then deploy` first.", "Next."]),
        ("設定は `a。b` で行う。次。", ["設定は `a。b` で行う。", "次。"]),
        ("Use ``x`!? y`` here. Next.", ["Use ``x`!? y`` here.", "Next."]),
        # nor inside a URL with ? or ! in it; its trailing punctuation still ends the sentence
        ("資料は https://a.b/c?d=1!e&f=2 にある。次。", ["資料は https://a.b/c?d=1!e&f=2 にある。", "次。"]),
        ("See https://a.b/c?d=1. Next one.", ["See https://a.b/c?d=1.", "Next one."]),
        ("Is it https://a.b/c? Yes!", ["Is it https://a.b/c?", "Yes!"]),
        ("資料は https://a.b/c。次。", ["資料は https://a.b/c。", "次。"]),
        # nor inside a short Japanese quote or aside: what is quoted is part of the sentence
        (
            "彼はメダルに「私は何を知るか？」と刻ませた。次。",
            ["彼はメダルに「私は何を知るか？」と刻ませた。", "次。"],
        ),
        ("題は『終わり！』（初版は？）だった。次。", ["題は『終わり！』（初版は？）だった。", "次。"]),
        # a comparison, an unclosed < or a lone backtick protects nothing
        ("a < b! c > d", ["a < b!", "c > d"]),
        ("a <b! cd", ["a <b!", "cd"]),
        ("It is `odd! Right.", ["It is `odd!", "Right."]),
    ],
)
def test_sentences_are_never_cut_inside_a_mention_a_code_span_or_a_url(
    text: str, expected: list[str]
) -> None:
    assert sentences(text) == expected


@pytest.mark.parametrize(
    ("line", "row"),
    [
        ("Setting: port · Default: 8000", True),  # a table row read under its header
        ("Visit: 9 · Date: Mar 21, 1943 · Finding: horse-stamping", True),
        ("Agreed rent: £30 per year", False),  # a Key: value bullet stands in its paragraph
        ("Minder は 2 つの段階で動く · 詳細は下", False),
        ("本番規模: 20 万 GPU", False),
    ],
)
def test_table_rows(line: str, row: bool) -> None:
    (sentence,) = split_sentences(line, path="wiki/x.md", section="", ordinal=0, rank=0)
    assert table_row(sentence) is row


@pytest.mark.parametrize(
    ("line", "keys"),
    [
        ("Author: Andrew Clarke", ["Author"]),
        ("Setting: port · Default: 8000", ["Setting", "Default"]),  # each cell of a table row
        ("確信度：medium", ["確信度"]),  # a full-width colon
        ("Visit: 9 · a cell without a key · Finding: none", ["Visit", "Finding"]),
        ("See [the docs](https://a.b/c): more", []),  # a line cut at a link's colon has no key
        ("A plain sentence, no key.", []),
        ("この学校は「ペリパトス（Peripatos：歩道）」と呼ばれた。", []),  # a colon inside brackets
    ],
)
def test_the_keys_of_a_fact_line(line: str, keys: list[str]) -> None:
    assert [line[start:end] for start, end in key_spans(line)] == keys
