"""An ASGI application answering one aiohttp request: the MCP SDK's HTTP transport is ASGI (a
Starlette app), ``sakuin serve`` is aiohttp, and both share one port this way.

One HTTP request becomes one ASGI ``http`` scope: the body is passed on in chunks as the app
reads it, and the response is streamed back as the app sends it (so a Server-Sent Events answer
would stream too). After the body, ``receive`` waits until the app has answered and then says
the client is gone, as an ASGI server does when a connection ends. Lifespan events are not
sent: the caller runs what the app needs for its lifetime (see bot/mcp/http.py).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

from aiohttp import web

Message = MutableMapping[str, Any]
ASGIApp = Callable[
    [MutableMapping[str, Any], Callable[[], Awaitable[Message]], Callable[[Message], Awaitable[None]]],
    Awaitable[None],
]

CHUNK_BYTES = 64 * 1024
HOP_BY_HOP = frozenset({"connection", "keep-alive", "transfer-encoding", "upgrade"})
"""Headers that belong to one connection: aiohttp sets its own."""


async def serve_asgi(app: ASGIApp, request: web.Request) -> web.StreamResponse:
    """Run ``app`` for ``request`` and return the response it sent (500 if it sent none)."""
    answered = asyncio.Event()
    body_read = False
    started: Message | None = None
    response: web.StreamResponse | None = None

    async def receive() -> Message:
        nonlocal body_read
        if body_read:
            await answered.wait()
            return {"type": "http.disconnect"}
        chunk = await request.content.read(CHUNK_BYTES)
        more = bool(chunk) and not request.content.at_eof()
        body_read = not more
        return {"type": "http.request", "body": chunk, "more_body": more}

    async def send(message: Message) -> None:
        nonlocal started, response
        if message["type"] == "http.response.start":
            started = message
        elif message["type"] == "http.response.body" and started is not None:
            if response is None:
                response = await _prepared(request, started)
            body = message.get("body", b"")
            if body:
                await response.write(body)
            if not message.get("more_body", False):
                await response.write_eof()

    try:
        await app(_scope(request), receive, send)
    except ConnectionResetError:
        pass  # the client left mid-answer; nothing is left to tell it
    finally:
        answered.set()
    if response is None and started is not None:
        response = await _prepared(request, started)
        await response.write_eof()
    return response or web.json_response({"error": "no response"}, status=500)


def _scope(request: web.Request) -> dict[str, Any]:
    peer = request.transport.get_extra_info("peername") if request.transport else None
    host = request.transport.get_extra_info("sockname") if request.transport else None
    return {
        "type": "http",
        "asgi": {"version": "3.0", "spec_version": "2.3"},
        "http_version": f"{request.version.major}.{request.version.minor}",
        "method": request.method,
        "scheme": request.scheme,
        "path": request.path,
        "raw_path": request.raw_path.partition("?")[0].encode("latin-1"),
        "query_string": request.query_string.encode("latin-1"),
        "root_path": "",
        "headers": [(name.lower(), value) for name, value in request.raw_headers],
        "client": tuple(peer[:2]) if isinstance(peer, tuple) else None,
        "server": tuple(host[:2]) if isinstance(host, tuple) else None,
        "state": {},
    }


async def _prepared(request: web.Request, started: Message) -> web.StreamResponse:
    headers = [
        (name.decode("latin-1"), value.decode("latin-1"))
        for name, value in started.get("headers", ())
        if name.decode("latin-1").lower() not in HOP_BY_HOP
    ]
    response = web.StreamResponse(status=started["status"], headers=headers)
    await response.prepare(request)
    return response
