"""The HTTP server of ``sakuin serve``: ``POST /slack/events`` (Bolt) and ``GET /healthz``."""

from __future__ import annotations

import asyncio
import logging

from aiohttp import web
from slack_bolt.app.async_app import AsyncApp

from config.settings import Settings
from index.wiki import Wiki

log = logging.getLogger(__name__)

EVENTS_PATH = "/slack/events"
HEALTH_PATH = "/healthz"


def create_web_app(settings: Settings, wiki: Wiki, app: AsyncApp) -> web.Application:
    """Bolt's aiohttp application for every Slack request, plus the health check."""
    web_app = app.web_app(path=EVENTS_PATH, port=settings.port)

    async def healthz(request: web.Request) -> web.Response:
        """Liveness (the process answers) and the index state, always HTTP 200."""
        state = await asyncio.to_thread(wiki.state)
        return web.json_response(
            {
                "status": state.status,
                "pages": state.pages,
                "updated_at": state.updated_at,
                "error": state.last_error,
            }
        )

    web_app.router.add_get(HEALTH_PATH, healthz)
    return web_app


async def start_http(web_app: web.Application, port: int, host: str = "0.0.0.0") -> web.AppRunner:
    """Start serving and return the runner (``runner.addresses`` has the port when ``port`` is 0)."""
    runner = web.AppRunner(web_app)
    await runner.setup()
    await web.TCPSite(runner, host, port).start()
    log.info("listening on %s", ", ".join(f"{h}:{p}" for h, p, *_ in runner.addresses))
    return runner


async def serve_http(web_app: web.Application, port: int, host: str = "0.0.0.0") -> None:
    """Serve until cancelled, then close connections cleanly."""
    runner = await start_http(web_app, port, host)
    try:
        await asyncio.Event().wait()
    finally:
        await runner.cleanup()
