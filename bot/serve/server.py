"""The HTTP server of ``sakuin serve``: ``POST /slack/events`` (Bolt), ``GET /healthz``,
``POST /hooks/git`` (the push webhook, when ``WIKI_GIT_WEBHOOK_SECRET`` is set) and ``/mcp`` (the
wiki over MCP, when ``MCP_TOKEN`` is set: bot/mcp/http.py)."""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import logging
from collections.abc import Awaitable, Callable

from aiohttp import web
from slack_bolt.app.async_app import AsyncApp

from bot.serve.access_log import quiet_access_log
from bot.serve.git_sync import GitSync
from bot.serve.push_relay import PushRelay
from config.settings import Settings
from index import Wiki

log = logging.getLogger(__name__)

EVENTS_PATH = "/slack/events"
HEALTH_PATH = "/healthz"
GIT_HOOK_PATH = "/hooks/git"
MAX_HOOK_BODY = 25 * 1024 * 1024
"""GitHub caps webhook payloads at 25 MB; the body is read in chunks only to check its signature."""


def create_web_app(
    settings: Settings,
    wiki: Wiki,
    app: AsyncApp,
    sync: GitSync | None = None,
    relay: PushRelay | None = None,
) -> web.Application:
    """Bolt's aiohttp application for every Slack request, plus the health check, with a vault
    from git and a webhook secret the push webhook (passed on to the other replicas by ``relay``
    when the state is shared in PostgreSQL), and with ``MCP_TOKEN`` the MCP endpoint."""
    web_app = app.web_app(path=EVENTS_PATH, port=settings.port)

    async def healthz(request: web.Request) -> web.Response:
        """Liveness (the process answers), the index state and the git checkout, always HTTP 200."""
        state = await asyncio.to_thread(wiki.state)
        body: dict[str, object] = {
            "status": state.status,
            "pages": state.pages,
            "updated_at": state.updated_at,
            "error": state.last_error,
            "warning": state.removal_warning,
        }
        if sync is not None:
            body["git"] = sync.status().as_json()
        return web.json_response(body)

    web_app.router.add_get(HEALTH_PATH, healthz)
    if sync is not None and settings.wiki_git_webhook_secret is not None:
        web_app.router.add_post(
            GIT_HOOK_PATH, git_webhook(settings.wiki_git_webhook_secret.get_secret_value(), sync, relay)
        )
    if settings.mcp_token is not None:
        from bot.mcp.http import add_mcp_endpoint  # the MCP SDK is loaded only when it is served

        add_mcp_endpoint(web_app, settings, wiki)
    return web_app


def git_webhook(
    secret: str, sync: GitSync, relay: PushRelay | None = None
) -> Callable[[web.Request], Awaitable[web.Response]]:
    """``POST /hooks/git``: a push notification from GitHub (``X-Hub-Signature-256``, an HMAC of
    the body) or GitLab (``X-Gitlab-Token``, the secret itself). A valid one schedules a fetch at
    once and gets 202; a bad or missing signature gets 401 and changes nothing. An empty secret
    is refused: an empty token would match it and anyone could sign with it."""
    if not secret.strip():
        raise ValueError("the git webhook needs a non-empty secret (WIKI_GIT_WEBHOOK_SECRET)")
    announcing: set[asyncio.Task[None]] = set()

    async def receive_push(request: web.Request) -> web.Response:
        token = request.headers.get("X-Gitlab-Token")
        signature = request.headers.get("X-Hub-Signature-256")
        digest = hmac.new(secret.encode("utf-8"), digestmod=hashlib.sha256)
        size = 0
        async for chunk in request.content.iter_chunked(64 * 1024):
            size += len(chunk)
            if size > MAX_HOOK_BODY:
                return web.json_response({"error": "payload too large"}, status=413)
            digest.update(chunk)
        if not (
            (signature is not None and is_valid_signature(signature, digest.hexdigest()))
            or (token is not None and hmac.compare_digest(token.encode("utf-8"), secret.encode("utf-8")))
        ):
            log.warning("refused a git webhook from %s: bad or missing signature", request.remote)
            return web.json_response({"error": "bad or missing signature"}, status=401)
        event = request.headers.get("X-GitHub-Event") or request.headers.get("X-Gitlab-Event") or "push"
        log.info("git webhook (%s): fetching %s now", event, sync.remote)
        sync.request_fetch()
        if relay is not None:
            task = asyncio.create_task(relay.announce())
            announcing.add(task)
            task.add_done_callback(announcing.discard)
        return web.json_response({"status": "fetch scheduled"}, status=202)

    return receive_push


def is_valid_signature(header: str, expected_hex: str) -> bool:
    """GitHub's ``sha256=<hex>`` against our HMAC, compared in constant time."""
    scheme, _, given = header.strip().partition("=")
    return scheme == "sha256" and hmac.compare_digest(given.strip().lower().encode(), expected_hex.encode())


async def start_http(web_app: web.Application, port: int, host: str = "0.0.0.0") -> web.AppRunner:
    """Start serving and return the runner (``runner.addresses`` has the port when ``port`` is 0)."""
    runner = web.AppRunner(web_app, access_log_class=quiet_access_log(HEALTH_PATH))
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
