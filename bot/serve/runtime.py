"""The long-running modes: `sakuin serve` (HTTP) and `sakuin socket` (Socket Mode).

Both open the wiki without building it (Slack is acknowledged at once, answering "the index is
being built" until it is ready), then run background tasks beside the Slack app: keeping the
index fresh, posting the daily digest, the wiki's loop (its inbox, questions answered later, watched
pages: bot/serve/wiki_loop.py) and, with ``WIKI_GIT_URL``, following the vault's remote
(cloned before anything else when there is no checkout to serve yet) and, with the state in
PostgreSQL, hearing the pushes that reached other replicas. SIGTERM stops them cleanly.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
from collections.abc import AsyncIterator, Coroutine
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path

from slack_bolt.async_app import AsyncApp
from slack_sdk.web.async_client import AsyncWebClient

from bot.answering.queue import AnswerQueue, favour_the_event_loop
from bot.digest.schedule import schedule_digest
from bot.memory import collect_less_often, limit_arenas
from bot.serve.app import create_app
from bot.serve.freshness import Freshener, keep_fresh
from bot.serve.git_sync import GitSync
from bot.serve.push_relay import PushRelay
from bot.serve.wiki_loop import wiki_loop
from bot.slack.client import build_client
from bot.slack.identity import BotIdentity
from bot.state.store import AsyncStateStore, StateStore, open_state_store
from config.modes import require_mode
from config.settings import Settings, require_listen_address, require_wiki_dir
from index import Wiki

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Bot:
    app: AsyncApp
    wiki: Wiki
    sync: GitSync | None = None
    """The vault's git checkout, when WIKI_GIT_URL is set."""
    relay: PushRelay | None = None
    """Passes push webhooks on to the other replicas, when the state is in PostgreSQL."""
    store: StateStore | None = None
    """The state store, for ``/healthz``."""


async def run_http(settings: Settings) -> None:
    require_mode(settings, "sakuin serve")
    require_listen_address(settings)
    from bot.serve.server import create_web_app, serve_http
    from bot.slack.manifest import EVENTS_PATH

    async def serve() -> None:
        async with start_bot(settings) as bot:
            log.info(
                "Slack's request URL: https://<public host>%s, reaching this server at http://%s:%s%s"
                " (`sakuin manifest --url https://<public host>` writes it into the app manifest)",
                EVENTS_PATH,
                settings.host,
                settings.port,
                EVENTS_PATH,
            )
            await serve_http(
                create_web_app(settings, bot.wiki, bot.app, bot.sync, bot.relay, store=bot.store),
                settings.port,
                settings.host,
            )

    await until_terminated(serve())


async def run_socket(settings: Settings) -> None:
    require_mode(settings, "sakuin socket")
    from bot.serve.socket_mode import run_socket_mode

    async def serve() -> None:
        async with start_bot(settings) as bot:
            await run_socket_mode(bot.app, settings)

    await until_terminated(serve())


async def until_terminated(work: Coroutine[object, object, None]) -> None:
    """Run ``work`` until it returns or SIGTERM comes (how service managers and containers stop a
    service): then it is cancelled, so every cleanup runs (the background tasks end, git is killed
    with its helpers: they would outlive the process otherwise) and the process exits with 0."""
    task = asyncio.ensure_future(work)
    loop = asyncio.get_running_loop()
    loop.add_signal_handler(signal.SIGTERM, task.cancel)
    try:
        await task
    except asyncio.CancelledError:
        current = asyncio.current_task()
        if current is not None and current.cancelling():
            raise  # cancelled from outside (Ctrl-C), not by SIGTERM
        log.info("stopped (SIGTERM)")
    finally:
        loop.remove_signal_handler(signal.SIGTERM)


@asynccontextmanager
async def start_bot(settings: Settings) -> AsyncIterator[Bot]:
    """The app and its wiki, with the background tasks running until the block ends."""
    require_wiki_dir(settings)
    limit_arenas()
    collect_less_often()
    favour_the_event_loop()
    sync = GitSync.from_settings(settings)
    if sync is not None:
        await sync.start()
    relay = (
        PushRelay(settings.state_db) if sync is not None and not isinstance(settings.state_db, Path) else None
    )
    wiki = Wiki.open(settings.wiki_dir, settings.index_dir, settings.wiki_base_url)
    client: AsyncWebClient = build_client(settings)
    identity = BotIdentity(settings, client)
    with await asyncio.to_thread(open_state_store, settings.state_db) as store:
        state = AsyncStateStore(store)
        loop = wiki_loop(settings, wiki, state, client)
        freshener = Freshener(wiki)
        freshener.on_update.append(loop.on_index_update)
        background = [
            asyncio.create_task(identity.check(), name="auth.test"),
            asyncio.create_task(
                keep_fresh(freshener, settings.wiki_dir, settings.index_dir, settings.watch_interval),
                name="freshness",
            ),
            asyncio.create_task(schedule_digest(settings, wiki, client, state), name="digest"),
        ]
        background += [asyncio.create_task(work, name=name) for name, work in loop.tasks().items()]
        if sync is not None:
            background.append(asyncio.create_task(sync.follow(), name="git"))
        if sync is not None and relay is not None:
            background.append(asyncio.create_task(relay.listen(sync.request_fetch), name="git-pushes"))
        answers = AnswerQueue()
        try:
            app = create_app(settings, wiki, state, client, answers, identity, inbox=loop.inbox)
            yield Bot(app, wiki, sync, relay, store)
        finally:
            answers.close()
            for task in background:
                task.cancel()
            for task in background:
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task
