"""A streamed answer's Markdown and the blocks that end it: pure builders, table-driven."""

from __future__ import annotations

import pytest

from bot.blocks.elements import section
from bot.blocks.streamed import stream_cut_blocks, stream_end_blocks, stream_markdown
from bot.blocks.visible import visible_text
from bot.llm.grounding import ground
from tests.bot.block_kit import assert_valid_blocks
from tests.bot.blocks.test_written import PASSAGES


@pytest.mark.parametrize(
    ("answer", "markdown"),
    [
        ("Minder は ByteDance 製 [1]。二つ目 [2]。", "Minder は ByteDance 製 [1]。二つ目 [2]。"),
        ("  Minder is ByteDance's [1]. It runs [2].", "Minder is ByteDance's [1]. It runs [2]."),
        ("- one [2]\n  - two [1]", "- one [2]\n- two [1]"),
        ("**Minder** [1]\n\n二行目 [2]", "**Minder** [1]\n二行目 [2]"),
        ("<!channel> & <@U1> said so [2].", "&lt;!channel&gt; &amp; &lt;@U1&gt; said so [2]."),
    ],
)
def test_sentences_stream_as_escaped_markdown_line_by_line(answer: str, markdown: str) -> None:
    assert stream_markdown(ground(answer, PASSAGES).sentences) == markdown


def test_sentences_appended_later_continue_the_line_or_start_a_new_one() -> None:
    sentences = ground("A [1]. B [2].\nC [1].", PASSAGES).sentences
    shown = stream_markdown(sentences[:1])
    assert shown + stream_markdown(sentences[1:], after=sentences[0]) == "A [1]. B [2].\nC [1]."


def test_the_end_lists_the_cited_pages_and_who_wrote_it() -> None:
    blocks = stream_end_blocks(ground("A [2]. B [1][2].", PASSAGES), PASSAGES, "m")
    assert_valid_blocks(blocks)
    assert [block["text"]["text"][:3] for block in blocks if "accessory" in block] == ["[2]", "[1]"]
    assert visible_text(blocks).endswith("written by `m` from 2 wiki passages")


def test_a_cut_answer_ends_with_the_extractive_answer_below_a_note() -> None:
    extractive = [section("the wiki's own answer")]
    blocks = stream_cut_blocks(ground("A [1]. B", PASSAGES), PASSAGES, "m", extractive)
    assert_valid_blocks(blocks)
    text = visible_text(blocks)
    assert "`m` stopped before finishing its answer" in text and text.endswith("the wiki's own answer")
