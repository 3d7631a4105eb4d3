"""Block Kit validation for tests: slack_sdk's model classes plus the limits they do not check."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from slack_sdk.models.blocks import Block
from slack_sdk.models.views import View

MAX_MESSAGE_BLOCKS = 50
MAX_VIEW_BLOCKS = 100


def assert_valid_blocks(blocks: Sequence[dict[str, Any]], max_blocks: int = MAX_MESSAGE_BLOCKS) -> None:
    """Every block parses and validates with slack_sdk.models; counts, lengths and ids are within limits."""
    assert 0 < len(blocks) <= max_blocks, f"{len(blocks)} blocks (limit {max_blocks})"
    block_ids = [block["block_id"] for block in blocks if "block_id" in block]
    assert len(block_ids) == len(set(block_ids)), f"duplicate block_id in {block_ids}"
    for block in blocks:
        parsed = Block.parse(block)
        assert parsed is not None, f"unknown block {block}"
        parsed.to_dict()  # runs the validators of the block and of everything inside it
        _assert_block_limits(block)


def assert_valid_view(view: dict[str, Any]) -> None:
    View(**view).to_dict()
    assert_valid_blocks(view["blocks"], MAX_VIEW_BLOCKS)


def _assert_block_limits(block: dict[str, Any]) -> None:
    kind = block["type"]
    if kind == "section":
        assert 0 < len(block["text"]["text"]) <= 3000
    if kind == "header":
        assert 0 < len(block["text"]["text"]) <= 150
    if kind == "context":
        assert 0 < len(block["elements"]) <= 10
    if kind == "actions":
        assert 0 < len(block["elements"]) <= 25
        action_ids = [element["action_id"] for element in block["elements"]]
        assert len(action_ids) == len(set(action_ids)), f"duplicate action_id in {action_ids}"
    for element in _elements(block):
        if element["type"] == "button":
            assert 0 < len(element["text"]["text"]) <= 75
            assert len(element.get("value", "")) <= 2000
        if element["type"] == "static_select":
            assert 0 < len(element["options"]) <= 100
            for option in element["options"]:
                assert len(option["text"]["text"]) <= 75 and len(option["value"]) <= 150
        assert len(element.get("action_id", "")) <= 255


def _elements(block: dict[str, Any]) -> list[dict[str, Any]]:
    found = list(block.get("elements", [])) if block["type"] == "actions" else []
    if "accessory" in block:
        found.append(block["accessory"])
    return found


def message_text(blocks: Sequence[dict[str, Any]]) -> str:
    """All the text of a message, for asserting what a reader would see (and what must not be there)."""
    return json.dumps(list(blocks), ensure_ascii=False)
