"""The wiki over the Model Context Protocol: five read-only tools, on stdio (``sakuin mcp``) and,
in ``sakuin serve``, on streamable HTTP at ``/mcp`` (bot/mcp/http.py).

The tools are the official SDK's (``mcp``, `MCPServer`); their work is `bot.mcp.tools`, run in a
worker thread as the rest of the edge calls the domain. Nothing here writes: not the vault, not
the index (beyond keeping it fresh), not the state store.
"""

from __future__ import annotations

import asyncio
from importlib.metadata import PackageNotFoundError, version
from typing import Annotated

from mcp.server.mcpserver import MCPServer
from mcp.types import ToolAnnotations
from pydantic import Field

from bot.mcp import tools as mcp_tools
from bot.mcp.tools import AnswerJson, DigestJson, LookupJson, PageJson, SearchJson
from config.settings import Settings
from index import MAX_QUERY_CHARS, Wiki

SERVER_NAME = "sakuin"
INSTRUCTIONS = (
    "sakuin answers from a team's research wiki (an Obsidian vault of entity, source and concept"
    " pages, mostly Japanese prose with English names; ask in Japanese or English). Start with"
    " answer_question for a question, lookup_entity for a name (a card: summary, typed relations,"
    " backlinks), search_wiki for passages; read_page gives a page's whole text by the path the"
    " others return; digest lists the sources added on a day. Cite pages by their path or url."
    " metadata.status says whether the wiki answered (answered, relation) or not (not_found):"
    " never present closest pages as an answer."
)
READ_ONLY = ToolAnnotations(read_only_hint=True, idempotent_hint=True, open_world_hint=False)

Name = Annotated[str, Field(description="a page's name, alias or a spelling of it (at most 200 characters)")]
Query = Annotated[str, Field(description=f"words or a question (at most {MAX_QUERY_CHARS} characters)")]
Limit = Annotated[int, Field(description=f"how many pages, 1 to {mcp_tools.MAX_SEARCH_LIMIT}")]
Question = Annotated[
    str, Field(description=f"a question in Japanese or English (at most {MAX_QUERY_CHARS} characters)")
]
PagePath = Annotated[str, Field(description="a page's vault-relative path, e.g. wiki/entities/ByteDance.md")]
Day = Annotated[
    str | None, Field(description="YYYY-MM-DD, a day in the wiki's time zone (default: yesterday)")
]


def build_server(settings: Settings, wiki: Wiki) -> MCPServer:
    """The MCP server of this wiki; the transport is the caller's."""
    server: MCPServer = MCPServer(
        SERVER_NAME,
        title="sakuin: the team's research wiki",
        instructions=INSTRUCTIONS,
        version=_version(),
        log_level=settings.log_level,  # type: ignore[arg-type]
        subscriptions=False,
    )

    @server.tool(annotations=READ_ONLY)
    async def lookup_entity(name: Name) -> LookupJson:
        """Find the page a name means (aliases, case, full-width letters, typos still find it) and its
        card: summary, typed relations grouped as the page groups them, backlinks. A name without a
        page gives the pages that mention it; an ambiguous one, the candidates."""
        return await asyncio.to_thread(mcp_tools.lookup_entity, wiki, name)

    @server.tool(annotations=READ_ONLY)
    async def search_wiki(query: Query, limit: Limit = mcp_tools.DEFAULT_SEARCH_LIMIT) -> SearchJson:
        """Full-text search (Japanese and English): the best pages, each with its best passage."""
        return await asyncio.to_thread(mcp_tools.search_wiki, wiki, query, limit)

    @server.tool(annotations=READ_ONLY)
    async def answer_question(question: Question) -> AnswerJson:
        """Answer a question from the wiki: the sentences (or the typed relation) that answer it, each
        with its page and section, and metadata {status: answered | relation | not_found,
        confidence, pages cited, lang}. When nothing answers, status is not_found and closest lists
        the nearest pages."""
        return await asyncio.to_thread(mcp_tools.answer_question, wiki, question)

    @server.tool(annotations=READ_ONLY)
    async def read_page(path: PagePath) -> PageJson:
        """A page's whole text as the index holds it (its sections, in order), by the exact path
        the other tools return. Only pages of the index."""
        return await asyncio.to_thread(mcp_tools.read_page, wiki, path)

    @server.tool(annotations=READ_ONLY)
    async def digest(date: Day = None) -> DigestJson:
        """The sources added to the wiki on a day, as the daily digest lists them."""
        return await asyncio.to_thread(mcp_tools.digest, wiki, settings, date)

    return server


def _version() -> str:
    try:
        return version("sakuin")
    except PackageNotFoundError:
        return ""
