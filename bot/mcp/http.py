"""``/mcp`` on ``sakuin serve``: the MCP server (bot/mcp/server.py) over streamable HTTP, on the
bot's own port, behind the bearer token ``MCP_TOKEN`` (without it the route does not exist).

The SDK's transport is an ASGI app; `bot.mcp.asgi_bridge` serves it from aiohttp, and its session
manager runs beside the web app for the app's lifetime. It runs stateless with JSON answers:
each POST is answered on its own, so any replica answers any request (no session to stick to)
and nothing stays open; there is nothing to push to a client, so ``GET`` (the server-to-client
stream) and ``DELETE`` (ending a session) answer 405, as the protocol allows. The SDK's Host
header check (against DNS rebinding, for servers on localhost with no credentials) is off: a
page a browser was tricked into loading cannot present the token.
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from functools import partial

from aiohttp import web
from mcp.server.streamable_http_manager import StreamableHTTPSessionManager
from mcp.server.transport_security import TransportSecuritySettings

from bot.mcp.asgi_bridge import serve_asgi
from bot.mcp.server import build_server
from config.settings import Settings
from index import Wiki

log = logging.getLogger(__name__)

MCP_PATH = "/mcp"
MAX_MCP_BODY = 256 * 1024
"""A tool call is a few hundred bytes (a question is at most 1,000 characters); the SDK answers
413 past this."""


def add_mcp_endpoint(web_app: web.Application, settings: Settings, wiki: Wiki) -> None:
    """Route ``/mcp`` (every method) to the MCP server, once ``MCP_TOKEN`` is set."""
    if settings.mcp_token is None:
        raise ValueError("/mcp needs a bearer token (MCP_TOKEN)")
    server = build_server(settings, wiki)
    asgi_app = server.streamable_http_app(
        streamable_http_path=MCP_PATH,
        stateless_http=True,
        json_response=True,
        max_request_body_size=MAX_MCP_BODY,
        transport_security=TransportSecuritySettings(enable_dns_rebinding_protection=False),
    )
    web_app.cleanup_ctx.append(partial(run_sessions, server.session_manager))
    web_app.router.add_route(
        "*", MCP_PATH, mcp_endpoint(settings.mcp_token.get_secret_value(), partial(serve_asgi, asgi_app))
    )


def mcp_endpoint(
    token: str, serve: Callable[[web.Request], Awaitable[web.StreamResponse]]
) -> Callable[[web.Request], Awaitable[web.StreamResponse]]:
    """The token first (401 for any request without it, whatever its method), then POST only."""
    if not token.strip():
        raise ValueError("/mcp needs a non-empty bearer token (MCP_TOKEN)")
    expected = token.encode("utf-8")

    async def endpoint(request: web.Request) -> web.StreamResponse:
        if not has_token(request.headers.get("Authorization", ""), expected):
            log.info("refused an MCP request from %s: missing or wrong bearer token", request.remote)
            return web.json_response(
                {"error": "missing or wrong bearer token"},
                status=401,
                headers={"WWW-Authenticate": 'Bearer realm="sakuin"'},
            )
        if request.method != "POST":
            return web.json_response(
                {"error": "POST a JSON-RPC message: this server keeps no stream or session"},
                status=405,
                headers={"Allow": "POST"},
            )
        return await serve(request)

    return endpoint


def has_token(header: str, expected: bytes) -> bool:
    """``Authorization: Bearer <token>``, compared in constant time."""
    scheme, _, given = header.strip().partition(" ")
    return scheme.lower() == "bearer" and hmac.compare_digest(given.strip().encode("utf-8"), expected)


async def run_sessions(manager: StreamableHTTPSessionManager, _app: web.Application) -> AsyncIterator[None]:
    """The session manager's lifetime is the web app's. It runs in a task of its own: its task
    group must be entered and left in one task, and aiohttp may start and clean up in two."""
    running = asyncio.Event()
    stopping = asyncio.Event()

    async def run() -> None:
        async with manager.run():
            running.set()
            await stopping.wait()

    task = asyncio.create_task(run(), name="mcp-sessions")
    started = asyncio.create_task(running.wait())
    await asyncio.wait((task, started), return_when=asyncio.FIRST_COMPLETED)
    if task.done():
        started.cancel()
        task.result()  # it failed to start: raise why
    try:
        yield
    finally:
        stopping.set()
        with contextlib.suppress(asyncio.CancelledError):
            await task
