"""The model's answer as Block Kit: pure builders, table-driven."""

from __future__ import annotations

import pytest

from bot.blocks.elements import MAX_SECTION_TEXT, section
from bot.blocks.visible import visible_text
from bot.blocks.written import answer_sections, draft_blocks, written_blocks, written_text
from bot.llm.grounding import NumberedPassage, ground
from tests.bot.block_kit import assert_valid_blocks

LINKED = NumberedPassage(
    1, "wiki/entities/Minder.md", "Minder", "概要", "…", "https://wiki.example.com/Minder"
)
PLAIN = NumberedPassage(
    2, "wiki/entities/ByteDance.md", "ByteDance <!channel>", None, "… https://evil.example …"
)
PASSAGES = (LINKED, PLAIN)


@pytest.mark.parametrize(
    ("answer", "mrkdwn"),
    [
        ("Minder は ByteDance 製 [1]。", "Minder は ByteDance 製 <https://wiki.example.com/Minder|[1]>。"),
        ("A page without a URL [2].", "A page without a URL [2]."),
        ("<!channel> & <@U1> said so [2].", "&lt;!channel&gt; &amp; &lt;@U1&gt; said so [2]."),
        ("**Minder** is ByteDance's [2].", "*Minder* is ByteDance's [2]."),
        ("- one [2]\n* two [2]\n・三 [2]", "• one [2]\n• two [2]\n• 三 [2]"),
        (
            "Not a link: <https://evil.example|[1]> [2].",
            "Not a link: &lt;https://evil.example|<https://wiki.example.com/Minder|[1]>&gt; [2].",
        ),
    ],
)
def test_the_answer_is_escaped_and_only_its_citations_link(answer: str, mrkdwn: str) -> None:
    (block,) = answer_sections(ground(answer, PASSAGES), {p.number: p for p in PASSAGES})
    assert block["text"]["text"] == mrkdwn


def test_the_final_message_lists_the_cited_pages_in_citation_order_and_says_who_wrote_it() -> None:
    blocks = written_blocks(ground("B [2]. A [1][2].", PASSAGES), PASSAGES, "gpt-4o-mini")
    assert_valid_blocks(blocks)
    assert [b["text"]["text"] for b in blocks[1:3]] == [
        "[2] *ByteDance &lt;!channel&gt;*",
        "[1] *<https://wiki.example.com/Minder|Minder>* · § 概要",
    ]
    assert [b["accessory"]["value"] for b in blocks[1:3]] == [PLAIN.path, LINKED.path]
    assert blocks[-1]["elements"][0]["text"] == "written by `gpt-4o-mini` from 2 wiki passages"


def test_one_passage_is_one_passage() -> None:
    blocks = written_blocks(ground("A [1].", PASSAGES[:1]), PASSAGES[:1], "m")
    assert blocks[-1]["elements"][0]["text"] == "written by `m` from 1 wiki passage"


def test_a_draft_sits_above_the_extractive_answer_within_the_block_limit() -> None:
    extractive = [section(f"passage {n}") for n in range(50)]
    blocks = draft_blocks(ground("A [1]. B", PASSAGES, complete=False), PASSAGES, "m", extractive)
    assert_valid_blocks(blocks)
    assert visible_text(blocks).startswith(
        "A [1].\n`m` is writing an answer from 2 wiki passages…\npassage 0"
    )


def test_a_long_answer_fills_several_sections_without_cutting_a_line() -> None:
    line = "x" * 1000 + " [1]."
    sections = answer_sections(ground("\n".join([line] * 5), PASSAGES), {1: LINKED})
    assert len(sections) == 3
    assert all(len(b["text"]["text"]) <= MAX_SECTION_TEXT for b in sections)
    assert sum(b["text"]["text"].count("|[1]>") for b in sections) == 5


def test_the_notification_text_is_the_answer() -> None:
    assert written_text(ground("**Minder** <!here> [1].", PASSAGES)) == "*Minder* &lt;!here&gt; [1]."
