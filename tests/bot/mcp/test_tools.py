"""The MCP tools' pure parts (bot/mcp/tools.py), on the example vault's index: which paths may be
asked for, what the answer's metadata says, and input cleaned or refused as Slack's is."""

from __future__ import annotations

from pathlib import Path

import pytest
from mcp.server.mcpserver.exceptions import ToolError

from bot.mcp import tools as mcp_tools
from bot.mcp.tools import answer_metadata, is_page_path
from index.wiki import Wiki
from tests.conftest import EXAMPLE_VAULT, make_settings

BYTEDANCE = "wiki/entities/ByteDance.md"
MINDER = "wiki/entities/Minder.md"


@pytest.mark.parametrize(
    ("path", "allowed"),
    [
        ("wiki/entities/ByteDance.md", True),
        ("wiki/entities/Sakura Compute Inc..md", True),
        ("wiki/concepts/異常検知.md", True),
        ("notes.md", True),
        ("", False),
        ("/etc/passwd", False),
        ("../secrets.md", False),
        ("wiki/../../secrets.md", False),
        ("wiki/./entities/ByteDance.md", False),
        ("wiki//entities/ByteDance.md", False),
        ("wiki/entities/", False),
        ("wiki\\entities\\ByteDance.md", False),
        ("wiki/entities/ByteDance.md\x00.txt", False),
        ("wiki/entities/Byte\nDance.md", False),
        ("w/" * 600 + "x.md", False),
    ],
)
def test_which_paths_read_page_takes(path: str, allowed: bool) -> None:
    assert is_page_path(path) is allowed


@pytest.mark.parametrize(
    ("question", "status", "pages", "lang"),
    [
        ("Minder を開発したのはどこ?", "relation", [BYTEDANCE, MINDER], "ja"),
        ("Who developed Minder?", "relation", [BYTEDANCE, MINDER], "en"),
        ("ByteDance の本社はどこ?", "answered", [BYTEDANCE], "ja"),
        ("What does Minder detect?", "answered", [MINDER], "en"),
        ("what is the weather on mars?", "not_found", [], "en"),
    ],
)
def test_the_answer_metadata(wiki: Wiki, question: str, status: str, pages: list[str], lang: str) -> None:
    metadata = answer_metadata(wiki.answer(question))
    assert (metadata["status"], metadata["pages"], metadata["lang"]) == (status, pages, lang)
    assert 0.0 <= metadata["confidence"] <= 1.0
    if status != "not_found":
        assert metadata["confidence"] > 0.5


def test_a_part_the_wiki_does_not_state_is_given_back(wiki: Wiki) -> None:
    result = mcp_tools.answer_question(
        wiki, "How many GPUs does ByteRobust run on, and what does a banana cost?"
    )
    assert result["metadata"]["status"] == "answered" and "20 万 GPU" in result["sentences"][0]["text"]
    assert result["unanswered"] == ["what does a banana cost?"]
    assert mcp_tools.answer_question(wiki, "Who developed Minder?")["unanswered"] == []


def test_input_is_cleaned_as_slack_cleans_it(wiki: Wiki) -> None:
    """Whitespace collapsed; a lone surrogate (JSON can carry one, UTF-8 cannot) replaced."""
    result = mcp_tools.lookup_entity(wiki, "  Byte\u3000Dance \ud800 ")
    assert result["query"] == "Byte Dance ?"
    assert mcp_tools.answer_question(wiki, "Minder を\n開発したのは\tどこ?")["question"] == (
        "Minder を 開発したのは どこ?"
    )


def test_an_index_not_built_is_an_error_to_retry(tmp_path: Path) -> None:
    unbuilt = Wiki.open(EXAMPLE_VAULT, tmp_path / "index")
    settings = make_settings(tmp_path)
    for call in (
        lambda: mcp_tools.lookup_entity(unbuilt, "Minder"),
        lambda: mcp_tools.search_wiki(unbuilt, "Minder"),
        lambda: mcp_tools.answer_question(unbuilt, "Who developed Minder?"),
        lambda: mcp_tools.read_page(unbuilt, "wiki/entities/Minder.md"),
        lambda: mcp_tools.digest(unbuilt, settings, "2026-10-14"),
    ):
        with pytest.raises(ToolError, match=r"not ready .*try again"):
            call()
