"""``/mcp`` on the real server (`running_bot`), through the MCP SDK's own streamable HTTP client:
the bearer token, the route that is not there without ``MCP_TOKEN``, and the tools, in both of the
protocol's eras (the ``initialize`` handshake of ``ClientSession``, and the SDK ``Client``'s
self-contained requests of 2026-07-28)."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from pathlib import Path

import aiohttp
import httpx2
import pytest
from mcp import Client, ClientSession, MCPError
from mcp.client.streamable_http import streamable_http_client

from bot.mcp.http import MAX_MCP_BODY, MCP_PATH, has_token
from index.wiki import Wiki
from tests.bot.conftest import BASE_URL, RunningBot, running_bot
from tests.bot.fake_slack import FakeSlack

TOKEN = "mcp-token-0123456789abcdef0123456789abcdef"
INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {
        "protocolVersion": "2025-06-18",
        "capabilities": {},
        "clientInfo": {"name": "test", "version": "1"},
    },
}
ACCEPT = "application/json, text/event-stream"


@pytest.fixture
async def mcp_bot(tmp_path: Path, fake_slack: FakeSlack, linked_wiki: Wiki) -> AsyncIterator[RunningBot]:
    async with running_bot(tmp_path, fake_slack, linked_wiki, wiki_base_url=BASE_URL, mcp_token=TOKEN) as bot:
        yield bot


def sdk_http(token: str | None = TOKEN) -> httpx2.AsyncClient:
    return httpx2.AsyncClient(headers={"Authorization": f"Bearer {token}"} if token else {})


async def post(bot: RunningBot, body: object, headers: dict[str, str]) -> tuple[int, dict[str, str], str]:
    async with (
        aiohttp.ClientSession() as session,
        session.post(bot.base_url + MCP_PATH, data=json.dumps(body), headers=headers) as response,
    ):
        return response.status, dict(response.headers), await response.text()


async def test_the_sdk_client_lists_and_calls_the_tools_over_http(mcp_bot: RunningBot) -> None:
    async with (
        sdk_http() as http,
        streamable_http_client(mcp_bot.base_url + MCP_PATH, http_client=http) as (read, write),
        ClientSession(read, write) as session,
    ):
        initialized = await session.initialize()
        assert initialized.server_info.name == "sakuin"
        tools = await session.list_tools()
        assert {tool.name for tool in tools.tools} == {
            "lookup_entity",
            "search_wiki",
            "answer_question",
            "read_page",
            "digest",
        }
        assert all(tool.annotations and tool.annotations.read_only_hint for tool in tools.tools)

        answer = await session.call_tool("answer_question", {"question": "Minder を開発したのはどこ?"})
        assert not answer.is_error
        assert answer.structured_content is not None
        assert answer.structured_content["metadata"] == {
            "status": "relation",
            "confidence": 1.0,
            "pages": ["wiki/entities/ByteDance.md", "wiki/entities/Minder.md"],
            "lang": "ja",
        }
        assert answer.structured_content["answer"].startswith("ByteDance — Minder の開発元")
        assert answer.structured_content["sentences"][0]["url"] == BASE_URL + "wiki/entities/Minder"

        lookup = await session.call_tool("lookup_entity", {"name": "ｂｙｔｅｄａｎｃｅ"})
        assert lookup.structured_content is not None
        assert lookup.structured_content["card"]["title"] == "ByteDance"
        assert lookup.structured_content["card"]["url"] == BASE_URL + "wiki/entities/ByteDance"


async def test_a_client_of_the_current_protocol_needs_no_session(mcp_bot: RunningBot) -> None:
    """2026-07-28: each request stands alone (any replica can answer it)."""
    async with (
        sdk_http() as http,
        Client(streamable_http_client(mcp_bot.base_url + MCP_PATH, http_client=http)) as client,
    ):
        result = await client.call_tool("answer_question", {"question": "Who developed Minder?"})
        assert result.structured_content is not None
        assert result.structured_content["metadata"]["status"] == "relation"
        assert result.structured_content["metadata"]["lang"] == "en"
        page = await client.call_tool("read_page", {"path": "wiki/entities/Minder.md"})
        assert page.structured_content is not None
        assert page.structured_content["sections"][0]["heading"] == "概要"


@pytest.mark.parametrize(
    "authorization",
    [None, "", "Bearer", "Bearer wrong-token", f"Basic {TOKEN}", f"Bearer {TOKEN}x", f"Bearer {TOKEN[:-1]}"],
)
async def test_a_request_without_the_token_gets_401(mcp_bot: RunningBot, authorization: str | None) -> None:
    headers = {"Content-Type": "application/json", "Accept": ACCEPT}
    if authorization is not None:
        headers["Authorization"] = authorization
    status, response_headers, body = await post(mcp_bot, INITIALIZE, headers)
    assert status == 401
    assert response_headers["WWW-Authenticate"].startswith("Bearer")
    assert "sakuin" not in body and "serverInfo" not in body


async def test_the_sdk_client_with_a_wrong_token_gets_nothing(mcp_bot: RunningBot) -> None:
    """The SDK turns the 401 into an error of the request (inside its task groups)."""
    with pytest.raises(ExceptionGroup) as refused:
        async with (
            sdk_http("wrong-token") as http,
            streamable_http_client(mcp_bot.base_url + MCP_PATH, http_client=http) as (read, write),
            ClientSession(read, write) as session,
        ):
            await session.initialize()
    assert refused.group_contains(MCPError, depth=None)


async def test_with_the_token_the_server_answers_only_posts(mcp_bot: RunningBot) -> None:
    headers = {"Authorization": f"Bearer {TOKEN}", "Accept": ACCEPT}
    async with aiohttp.ClientSession() as session:
        for method in ("GET", "DELETE", "PUT"):
            async with session.request(method, mcp_bot.base_url + MCP_PATH, headers=headers) as response:
                assert response.status == 405, method
                assert response.headers["Allow"] == "POST"
    status, _, body = await post(mcp_bot, INITIALIZE, {**headers, "Content-Type": "application/json"})
    assert status == 200
    assert json.loads(body)["result"]["serverInfo"]["name"] == "sakuin"


async def test_a_body_too_large_is_refused(mcp_bot: RunningBot) -> None:
    question = "あ" * MAX_MCP_BODY
    call = {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "answer_question"}}
    call["params"]["arguments"] = {"question": question}  # type: ignore[index]
    headers = {"Authorization": f"Bearer {TOKEN}", "Accept": ACCEPT, "Content-Type": "application/json"}
    status, _, _ = await post(mcp_bot, call, headers)
    assert status == 413


async def test_without_mcp_token_there_is_no_mcp_route(bot: RunningBot) -> None:
    headers = {"Authorization": f"Bearer {TOKEN}", "Content-Type": "application/json", "Accept": ACCEPT}
    status, _, _ = await post(bot, INITIALIZE, headers)
    assert status == 404
    assert (await bot.get("/healthz"))[0] == 200


@pytest.mark.parametrize(
    ("header", "expected"),
    [
        (f"Bearer {TOKEN}", True),
        (f"bearer {TOKEN}", True),
        (f"  Bearer   {TOKEN}  ", True),
        (f"Bearer {TOKEN} extra", False),
        (TOKEN, False),
        ("Bearer ", False),
        ("", False),
        ("Bearer トークン", False),
    ],
)
def test_the_bearer_header(header: str, expected: bool) -> None:
    assert has_token(header, TOKEN.encode()) is expected
