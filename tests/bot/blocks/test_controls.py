"""The controls under an answer: 👍/👎 values within Slack's limits, and room kept for them."""

from __future__ import annotations

import json

import pytest

from bot.blocks.controls import (
    FEEDBACK_BLOCK_ID,
    FOLLOW_BLOCK_ID,
    feedback_block,
    feedback_value,
    read_feedback_value,
    stop_row,
    with_controls,
    without_block,
)
from bot.blocks.elements import MAX_BLOCKS, actions, button, section
from tests.bot.block_kit import assert_valid_blocks

PAGE = "wiki/entities/Minder.md"


@pytest.mark.parametrize(
    ("question", "pages"),
    [
        ("Minder を開発したのはどこ?", (PAGE,)),
        ("", ()),
        ('"quotes" \\ and \n newlines', (PAGE, "wiki/sources/@2025__NSDI__Minder.md")),
        ("長い質問" * 500, (PAGE,)),
        ('"' * 1500, ()),  # every character doubles when escaped
        ("q", tuple(f"wiki/entities/{'x' * 90}{n}.md" for n in range(40))),
    ],
    ids=["japanese", "empty", "escapes", "long", "all quotes", "many pages"],
)
def test_a_value_fits_and_reads_back(question, pages):
    for vote in ("up", "down"):
        value = feedback_value(vote, question, pages)
        assert len(value) <= 2000
        read = read_feedback_value(value)
        assert read is not None and read.vote == vote
        assert read.pages == pages[: len(read.pages)] and (read.pages or not pages or len(question) > 1)
        if len(json.dumps([question, list(pages)], ensure_ascii=False)) < 1900:
            assert read.question == question and read.pages == pages
        else:
            assert question.startswith(read.question.removesuffix("…"))


def test_user_text_in_a_value_is_escaped():
    value = feedback_value("up", "<!channel> <@U0BOSS> A & B", [PAGE])
    assert "<!channel>" not in value and "<@U0BOSS>" not in value
    assert read_feedback_value(value).question == "<!channel> <@U0BOSS> A & B"


@pytest.mark.parametrize(
    "value",
    [
        "",
        "not json",
        "[]",
        '{"v": "meh", "q": "q", "p": []}',
        '{"v": "up", "q": 1, "p": []}',
        '{"v": "up", "q": "q", "p": "a"}',
        '{"v": "up", "q": "q", "p": [1]}',
    ],
)
def test_a_value_we_did_not_write_is_refused(value):
    assert read_feedback_value(value) is None


def test_the_controls_are_valid_block_kit():
    blocks = [feedback_block("Minder とは", [PAGE]), stop_row("1700000000.000100")]
    assert_valid_blocks(blocks)
    assert blocks[0]["type"] == "context_actions" and blocks[0]["elements"][0]["type"] == "feedback_buttons"
    assert "feedback" in blocks[0]["elements"][0]["action_id"]


def test_the_answer_gives_way_to_the_controls_and_keeps_its_action_rows():
    answer = [section(f"passage {n}") for n in range(49)] + [actions([button("Open", "open_page:0", PAGE)])]
    controls = [feedback_block("q", [PAGE]), stop_row("1.0")]
    blocks = with_controls(answer, controls)
    assert len(blocks) == MAX_BLOCKS
    assert blocks[-2:] == controls and blocks[-3]["type"] == "actions"
    assert "more not shown" in json.dumps(blocks)
    assert_valid_blocks(blocks)
    assert with_controls(answer[:3], controls) == [*answer[:3], *controls]


def test_without_block_removes_one_control():
    blocks = [section("answer"), feedback_block("q", []), stop_row("1.0")]
    assert [b.get("block_id") for b in without_block(blocks, FOLLOW_BLOCK_ID)] == [None, FEEDBACK_BLOCK_ID]
