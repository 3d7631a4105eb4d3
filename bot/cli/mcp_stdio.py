"""``sakuin mcp``: the wiki's MCP server (`bot.mcp.server`) on stdin/stdout, its index kept fresh."""

from __future__ import annotations

import asyncio
import contextlib

from bot.mcp.server import build_server
from bot.serve.freshness import Freshener, keep_fresh
from config.settings import Settings
from index import Wiki


async def serve_stdio(settings: Settings, wiki: Wiki) -> None:
    """``sakuin mcp``: serve on stdin/stdout until the client closes them, the index kept fresh
    meanwhile (a page saved while an agent holds the server open is answerable seconds later)."""
    server = build_server(settings, wiki)
    freshness = asyncio.create_task(
        keep_fresh(Freshener(wiki), settings.wiki_dir, settings.index_dir, settings.watch_interval),
        name="freshness",
    )
    try:
        await server.run_stdio_async()
    finally:
        freshness.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await freshness
