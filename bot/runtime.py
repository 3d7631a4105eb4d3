"""The long-running modes: `sakuin serve` (HTTP) and `sakuin socket` (Socket Mode).

Both open the wiki without building it (Slack is acknowledged at once, answering "the index is
being built" until it is ready), then run background tasks beside the Slack app: keeping the
index fresh, posting the daily digest and, with ``WIKI_GIT_URL``, following the vault's remote
(cloned before anything else, so there is a vault to open) and, with the state in PostgreSQL,
hearing the pushes that reached other replicas.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from pathlib import Path

from slack_bolt.async_app import AsyncApp
from slack_sdk.web.async_client import AsyncWebClient

from bot.app import create_app
from bot.digest import schedule_digest
from bot.freshness import keep_fresh
from bot.git_sync import GitSync
from bot.push_relay import PushRelay
from bot.slack_client import build_client
from bot.state import open_state_store
from config.settings import Settings, SettingsError, require
from index.wiki import Wiki

log = logging.getLogger("sakuin")


async def run_http(settings: Settings) -> None:
    require(settings, "slack_bot_token", "slack_signing_secret")
    from bot.server import create_web_app, serve_http

    async def serve(app: AsyncApp, wiki: Wiki, sync: GitSync | None, relay: PushRelay | None) -> None:
        await serve_http(create_web_app(settings, wiki, app, sync, relay), settings.port)

    await _run(settings, serve)


async def run_socket(settings: Settings) -> None:
    require(settings, "slack_bot_token", "slack_app_token")
    from bot.socket_mode import run_socket_mode

    async def serve(app: AsyncApp, wiki: Wiki, sync: GitSync | None, relay: PushRelay | None) -> None:
        await run_socket_mode(app, settings)

    await _run(settings, serve)


Serve = Callable[[AsyncApp, Wiki, GitSync | None, PushRelay | None], Awaitable[None]]


async def _run(settings: Settings, serve: Serve) -> None:
    sync = GitSync.from_settings(settings)
    relay = None
    if sync is not None:
        await sync.start()
        if not isinstance(settings.state_db, Path):
            relay = PushRelay(settings.state_db)
    if not settings.wiki_dir.is_dir():
        raise SettingsError(f"invalid setting WIKI_DIR: {settings.wiki_dir} is not a folder")
    wiki = Wiki.open(settings.wiki_dir, settings.index_dir, settings.wiki_base_url)
    client: AsyncWebClient = build_client(settings)
    with open_state_store(settings.state_db) as store:
        app = create_app(settings, wiki, store, client)
        background = [
            asyncio.create_task(
                keep_fresh(wiki, settings.wiki_dir, settings.index_dir, settings.watch_interval),
                name="freshness",
            ),
            asyncio.create_task(schedule_digest(settings, wiki, client, store), name="digest"),
        ]
        if sync is not None:
            background.append(asyncio.create_task(sync.follow(), name="git"))
        if sync is not None and relay is not None:
            background.append(asyncio.create_task(relay.listen(sync.request_fetch), name="git-pushes"))
        try:
            await serve(app, wiki, sync, relay)
        finally:
            for task in background:
                task.cancel()
            for task in background:
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task
