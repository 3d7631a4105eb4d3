"""The HTTP server of ``sakuin serve``: ``POST /slack/events`` (Bolt), ``GET /healthz``,
``POST /hooks/git`` (the push webhook, when ``WIKI_GIT_WEBHOOK_SECRET`` is set) and ``/mcp`` (the
wiki over MCP, when ``MCP_TOKEN`` is set: `bot.mcp.http`).

A request to ``/slack/events`` reaches Bolt only when Slack signed it (`bot.serve.inbound`): any
other gets a 401 and one log line here, and the app never runs for it. A client that sends its
request slowly is dropped after `HttpTimeouts`, never held.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import logging
import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from urllib.parse import parse_qs

from aiohttp import web
from slack_bolt.app.async_app import AsyncApp

from bot.serve.access_log import quiet_access_log
from bot.serve.git_sync import GitSync
from bot.serve.inbound import RefusalLog, signature_problem
from bot.serve.push_relay import PushRelay
from bot.slack.manifest import EVENTS_PATH
from bot.state.store import StateStore
from config.settings import Settings
from index import Wiki

log = logging.getLogger(__name__)

HEALTH_PATH = "/healthz"
GIT_HOOK_PATH = "/hooks/git"
MAX_HOOK_BODY = 25 * 1024 * 1024
"""GitHub caps webhook payloads at 25 MB; the body is read in chunks only to check its signature."""


@dataclass(frozen=True)
class HttpTimeouts:
    """How long the server waits on a client."""

    idle_s: float = 75.0
    """For a request's headers to arrive, and between requests on a kept-alive connection (aiohttp's
    keep-alive timeout runs while headers arrive too). Longer than the 60 s idle timeout of the
    usual load balancers in front, so that they close an idle connection first."""
    body_s: float = 15.0
    """For a request's whole body (Slack's are small, and GitHub gives up on a webhook after 10 s)."""
    linger_s: float = 2.0
    """For the unread rest of a body after the answer, before the connection is closed."""


TIMEOUTS = web.AppKey("timeouts", HttpTimeouts)


def create_web_app(
    settings: Settings,
    wiki: Wiki,
    app: AsyncApp,
    sync: GitSync | None = None,
    relay: PushRelay | None = None,
    timeouts: HttpTimeouts = HttpTimeouts(),
    store: StateStore | None = None,
) -> web.Application:
    """Bolt's aiohttp application for every Slack request, plus the health check (of the index,
    the git checkout and the state ``store``) and, with a vault from git and a webhook secret, the
    push webhook (passed on to the other replicas by ``relay`` when the state is shared in
    PostgreSQL), and with ``MCP_TOKEN`` the MCP endpoint. `start_http` serves it with ``timeouts``."""
    web_app = app.web_app(path=EVENTS_PATH, port=settings.port)
    web_app[TIMEOUTS] = timeouts
    secret = settings.slack_signing_secret.get_secret_value() if settings.slack_signing_secret else ""
    web_app.middlewares.append(slack_signature_gate(secret, timeouts.body_s))

    async def healthz(request: web.Request) -> web.Response:
        """Liveness (the process answers), the index state and the git checkout, always HTTP 200.
        Anyone may ask, so error texts say what went wrong but not where on disk (`without_paths`)."""
        state = await asyncio.to_thread(wiki.state)
        body: dict[str, object] = {
            # A page saved a moment ago may not be answerable yet: not "ready" while that is so.
            "status": "updating" if state.updating and state.status == "ready" else state.status,
            "pages": state.pages,
            "updated_at": state.updated_at,
            "error": without_paths(state.last_error),
            "warning": state.removal_warning,
        }
        if sync is not None:
            git = sync.status().as_json()
            body["git"] = {**git, "error": without_paths(git["error"])}
        if store is not None:
            body["state"] = state_health(store)
        return web.json_response(body)

    web_app.router.add_get(HEALTH_PATH, healthz)
    if sync is not None and settings.wiki_git_webhook_secret is not None:
        web_app.router.add_post(
            GIT_HOOK_PATH,
            git_webhook(settings.wiki_git_webhook_secret.get_secret_value(), sync, relay, timeouts.body_s),
        )
    if settings.mcp_token is not None:
        from bot.mcp.http import add_mcp_endpoint  # the MCP SDK is loaded only when it is served

        add_mcp_endpoint(web_app, settings, wiki)
    return web_app


_QUOTED_PATH = re.compile(r"""(['"])(/[^'"]*)\1""")
_BARE_PATH = re.compile(r"""(?<![\w:/.~…-])/[^\s'"]+""")
_TRAILING = ",;:.)"


def without_paths(text: object) -> object:
    """An error text with each absolute path cut to its last part (``'/srv/x/index'`` becomes
    ``'…/index'``): the reason stays, the layout of the disk does not. URLs are left alone."""
    if not isinstance(text, str):
        return text
    text = _QUOTED_PATH.sub(lambda match: f"{match[1]}{_last_part(match[2])}{match[1]}", text)
    return _BARE_PATH.sub(lambda match: _last_part(match[0]), text)


def _last_part(path: str) -> str:
    core = path.rstrip(_TRAILING)
    return "…/" + core.rstrip("/").rsplit("/", 1)[-1] + path[len(core) :]


def state_health(store: StateStore) -> dict[str, object]:
    """The state store's part of ``/healthz``: whether it had to open its file anew."""
    reopened_at = store.reopened_at()
    warning = None
    if reopened_at is not None:
        warning = (
            "the state file was deleted or replaced while serving and opened anew:"
            " what was written before is not in it"
        )
    return {"reopened": reopened_at is not None, "reopened_at": reopened_at, "warning": warning}


Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


def slack_signature_gate(
    secret: str, body_timeout_s: float = HttpTimeouts.body_s
) -> Callable[[web.Request, Handler], Awaitable[web.StreamResponse]]:
    """Let a ``POST /slack/events`` through to Bolt only when Slack signed it with ``secret`` (and
    sent its body within ``body_timeout_s``).

    Bolt checks the signature too, but a malformed timestamp makes its check raise, and Bolt then
    hands the unverified body to the app's error handler; here nothing is parsed before the
    signature is right. Slack's ``ssl_check`` (unsigned, answered with an empty 200) is answered
    here as Bolt would."""
    refusals = RefusalLog(log)

    @web.middleware
    async def verify_slack_signature(request: web.Request, handler: Handler) -> web.StreamResponse:
        if request.method != "POST" or request.path != EVENTS_PATH:
            return await handler(request)
        try:
            async with asyncio.timeout(body_timeout_s):
                body = await request.read()
        except TimeoutError:
            return too_slow(request, body_timeout_s)
        if is_ssl_check(body):
            return web.Response(status=200)
        problem = signature_problem(
            secret,
            request.headers.get("X-Slack-Request-Timestamp"),
            request.headers.get("X-Slack-Signature"),
            body,
        )
        if problem is None and not is_utf8(body):
            problem = "a body that is not UTF-8"
        if problem is not None:
            refusals.refused("refused a Slack request from %s: %s", request.remote, problem)
            return web.json_response({"error": "invalid request"}, status=401)
        return await handler(request)

    return verify_slack_signature


def too_slow(request: web.Request, timeout_s: float) -> web.Response:
    """408 for a body that took longer than ``timeout_s``; the connection is closed after it."""
    log.warning(
        "dropped a request to %s from %s: its body took over %s s", request.path, request.remote, timeout_s
    )
    response = web.json_response({"error": "request body too slow"}, status=408)
    response.force_close()
    return response


def is_ssl_check(body: bytes) -> bool:
    """Slack's unsigned certificate check of a slash command's URL (``ssl_check=1&token=…``)."""
    return parse_qs(body.decode("utf-8", "replace")).get("ssl_check") == ["1"]


def is_utf8(body: bytes) -> bool:
    try:
        body.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


def git_webhook(
    secret: str, sync: GitSync, relay: PushRelay | None = None, body_timeout_s: float = HttpTimeouts.body_s
) -> Callable[[web.Request], Awaitable[web.Response]]:
    """``POST /hooks/git``: a push notification from GitHub (``X-Hub-Signature-256``, an HMAC of
    the body) or GitLab (``X-Gitlab-Token``, the secret itself). A valid one schedules a fetch at
    once and gets 202; a bad or missing signature gets 401 and changes nothing. An empty secret
    is refused: an empty token would match it and anyone could sign with it."""
    if not secret.strip():
        raise ValueError("the git webhook needs a non-empty secret (WIKI_GIT_WEBHOOK_SECRET)")
    announcing: set[asyncio.Task[None]] = set()
    refusals = RefusalLog(log)

    async def receive_push(request: web.Request) -> web.Response:
        token = request.headers.get("X-Gitlab-Token")
        signature = request.headers.get("X-Hub-Signature-256")
        digest = hmac.new(secret.encode("utf-8"), digestmod=hashlib.sha256)
        size = 0
        try:
            async with asyncio.timeout(body_timeout_s):
                async for chunk in request.content.iter_chunked(64 * 1024):
                    size += len(chunk)
                    if size > MAX_HOOK_BODY:
                        return web.json_response({"error": "payload too large"}, status=413)
                    digest.update(chunk)
        except TimeoutError:
            return too_slow(request, body_timeout_s)
        if not (
            (signature is not None and is_valid_signature(signature, digest.hexdigest()))
            or (token is not None and hmac.compare_digest(token.encode("utf-8"), secret.encode("utf-8")))
        ):
            refusals.refused("refused a git webhook from %s: bad or missing signature", request.remote)
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
    timeouts = web_app.get(TIMEOUTS) or HttpTimeouts()
    runner = web.AppRunner(
        web_app,
        access_log_class=quiet_access_log(HEALTH_PATH),
        keepalive_timeout=timeouts.idle_s,
        lingering_time=timeouts.linger_s,
    )
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
