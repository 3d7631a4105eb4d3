"""``sakuin mcp``: the command spawned as an agent spawns it, spoken to with the MCP SDK's own
stdio client. Every tool, questions in Japanese and English, bad input answered as an error the
agent can read (and the server still serving), and a page saved while the server runs."""

from __future__ import annotations

import asyncio
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from mcp import ClientSession, StdioServerParameters, stdio_client

from tests.conftest import EXAMPLE_VAULT, eventually
from tests.vaults import SMALL_VAULT, entity, write_vault

SAKUIN = Path(sys.executable).with_name("sakuin")
TOOLS = {"lookup_entity", "search_wiki", "answer_question", "read_page", "digest"}


@asynccontextmanager
async def sakuin_mcp(tmp_path: Path, vault: Path = EXAMPLE_VAULT) -> AsyncIterator[ClientSession]:
    """``sakuin mcp`` on ``vault`` with a fresh index; its stderr goes to ``tmp_path/stderr.txt``."""
    environment = {
        "WIKI_DIR": str(vault),
        "INDEX_DIR": str(tmp_path / "index"),
        "STATE_DB": str(tmp_path / "state.sqlite3"),
        "UI_LANGUAGE": "en",
        "WATCH_INTERVAL": "600",
    }
    server = StdioServerParameters(command=str(SAKUIN), args=["mcp"], env=environment, cwd=tmp_path)
    with (tmp_path / "stderr.txt").open("w", encoding="utf-8") as errors:
        async with (
            stdio_client(server, errlog=errors) as (read, write),
            ClientSession(read, write) as session,
        ):
            await session.initialize()
            yield session


async def call(session: ClientSession, tool: str, **arguments: Any) -> dict[str, Any]:
    result = await session.call_tool(tool, arguments)
    assert not result.is_error, result.content
    assert result.structured_content is not None
    return result.structured_content


async def refusal(session: ClientSession, tool: str, **arguments: Any) -> str:
    result = await session.call_tool(tool, arguments)
    assert result.is_error, result.structured_content
    return " ".join(getattr(block, "text", "") for block in result.content)


async def test_every_tool_answers_over_stdio(tmp_path: Path) -> None:
    async with sakuin_mcp(tmp_path) as session:
        listed = await session.list_tools()
        assert {tool.name for tool in listed.tools} == TOOLS
        assert all(tool.output_schema for tool in listed.tools)

        japanese = await call(session, "answer_question", question="Minder を開発したのはどこ?")
        assert japanese["metadata"] == {
            "status": "relation",
            "confidence": 1.0,
            "pages": ["wiki/entities/ByteDance.md", "wiki/entities/Minder.md"],
            "lang": "ja",
        }
        assert japanese["relation"]["label"] == "開発元"
        assert japanese["relation"]["targets"][0]["path"] == "wiki/entities/ByteDance.md"

        english = await call(session, "answer_question", question="What does Minder detect?")
        assert english["metadata"]["status"] == "answered"
        assert english["metadata"]["lang"] == "en"
        assert english["metadata"]["pages"] == ["wiki/entities/Minder.md"]
        assert 0 < english["metadata"]["confidence"] <= 1
        assert "障害マシン" in english["answer"]
        assert english["sentences"][0]["path"] == "wiki/entities/Minder.md"

        unknown = await call(session, "answer_question", question="what is the weather on mars?")
        assert unknown["metadata"]["status"] == "not_found"
        assert unknown["metadata"]["pages"] == []
        assert unknown["answer"] is None

        lookup = await call(session, "lookup_entity", name="ｂｙｔｅｄａｎｃｅ")
        assert lookup["match"]["path"] == "wiki/entities/ByteDance.md"
        card = lookup["card"]
        assert "バイトダンス" in card["aliases"]
        related = {page["path"] for group in card["relations"] for page in group["pages"]}
        assert "wiki/entities/Minder.md" in related
        assert card["backlinks_total"] >= len(card["backlinks"]) > 0

        search = await call(session, "search_wiki", query="障害マシン検出", limit=3)
        assert 0 < len(search["hits"]) <= 3
        assert "Minder" in search["hits"][0]["title"]
        english_search = await call(session, "search_wiki", query="faulty machine detection")
        assert any("Minder" in hit["title"] for hit in english_search["hits"])

        page = await call(session, "read_page", path="wiki/entities/Minder.md")
        assert page["title"] == "Minder"
        assert [section["heading"] for section in page["sections"]][:2] == ["概要", "仕組み"]
        assert "LSTM-VAE" in page["sections"][1]["text"]

        day = await call(session, "digest", date="2026-10-14")
        assert day["date"] == "2026-10-14"
        assert "wiki/sources/@2025__SOSP__Robust LLM Training Infrastructure at ByteDance.md" in {
            item["path"] for item in day["sources"]
        }
        assert (await call(session, "digest"))["date"]  # yesterday, whatever day that is

    report = (tmp_path / "stderr.txt").read_text(encoding="utf-8")
    assert "index built" in report  # stdout is the protocol's alone


BAD_INPUT: list[tuple[str, dict[str, Any], str]] = [
    ("read_page", {"path": "../../../etc/passwd"}, "vault-relative path"),
    ("read_page", {"path": "/etc/passwd"}, "vault-relative path"),
    ("read_page", {"path": "wiki/entities/../../../etc/passwd"}, "vault-relative path"),
    ("read_page", {"path": "wiki\\entities\\Minder.md"}, "vault-relative path"),
    ("read_page", {"path": "wiki/log.md"}, "not a page of the wiki"),
    ("read_page", {"path": "wiki/meta/lint-report.md"}, "not a page of the wiki"),
    ("read_page", {"path": "wiki/entities/Nobody.md"}, "not a page of the wiki"),
    ("lookup_entity", {"name": "   "}, "name is empty"),
    ("lookup_entity", {"name": "x" * 201}, "at most 200"),
    ("answer_question", {"question": "質" * 1001}, "at most 1000"),
    ("search_wiki", {"query": "Minder", "limit": 0}, "between 1 and 20"),
    ("search_wiki", {"query": "Minder", "limit": 21}, "between 1 and 20"),
    ("digest", {"date": "2026-02-30"}, "2026-01-31"),
    ("digest", {"date": "yesterday"}, "2026-01-31"),
]
"""(tool, arguments, words of the error): one server answers them all (a spawn is seconds)."""


async def test_bad_input_is_an_error_the_agent_can_read(tmp_path: Path) -> None:
    async with sakuin_mcp(tmp_path) as session:
        for tool, arguments, expected in BAD_INPUT:
            message = await refusal(session, tool, **arguments)
            assert expected in message, (tool, arguments, message)
        # and the server goes on answering
        assert (await call(session, "lookup_entity", name="Minder"))["match"]["title"] == "Minder"


async def test_a_page_saved_while_the_server_runs_is_served(tmp_path: Path) -> None:
    vault = write_vault(tmp_path / "vault", SMALL_VAULT)
    async with sakuin_mcp(tmp_path, vault) as session:
        assert (await call(session, "lookup_entity", name="Kite Labs"))["match"] is None
        write_vault(vault, {"wiki/entities/Kite Labs.md": entity("Kite Labs", body="速いチェックポイント。")})
        found: list[str] = []

        async def ask_until_found() -> None:
            while not found:
                match = (await call(session, "lookup_entity", name="Kite Labs"))["match"]
                if match is not None:
                    found.append(match["path"])
                await asyncio.sleep(0.05)

        asking = asyncio.create_task(ask_until_found())
        try:
            await eventually(lambda: found, timeout=30, what="the saved page in lookup_entity")
        finally:
            asking.cancel()
        assert found == ["wiki/entities/Kite Labs.md"]
