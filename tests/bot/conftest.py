"""Fixtures for the Slack edge: the example vault's wiki (built once), settings, the fake Slack."""

from __future__ import annotations

import asyncio
import os
import time
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path

import aiohttp
import pytest

from bot.answering.queue import AnswerQueue
from bot.serve.app import create_app
from bot.serve.git_sync import GitSync
from bot.serve.server import HttpTimeouts, create_web_app, start_http
from bot.serve.wiki_loop import WikiLoop
from bot.slack.client import build_client
from bot.slack.manifest import EVENTS_PATH
from bot.state.store import AsyncStateStore, StateStore, open_state_store
from config.settings import Settings
from index.wiki import Wiki
from tests.bot.fake_slack import FakeSlack, SlackSender
from tests.conftest import EXAMPLE_VAULT, make_settings
from tests.postgres import Cluster, server_binaries

BASE_URL = "https://wiki.example.com/"


@pytest.fixture(scope="session")
def wiki_index(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The example vault indexed once per test session (Wiki objects opened on it are cheap)."""
    index_dir = tmp_path_factory.mktemp("example-index") / "index"
    Wiki.open(EXAMPLE_VAULT, index_dir).update()
    return index_dir


@pytest.fixture(scope="session")
def wiki(wiki_index: Path) -> Wiki:
    return Wiki.open(EXAMPLE_VAULT, wiki_index)


@pytest.fixture(scope="session")
def linked_wiki(wiki_index: Path) -> Wiki:
    """The same index, with page URLs (``WIKI_BASE_URL`` set)."""
    return Wiki.open(EXAMPLE_VAULT, wiki_index, BASE_URL)


@pytest.fixture
async def fake_slack() -> AsyncIterator[FakeSlack]:
    async with FakeSlack() as slack:
        yield slack


BOT_TOKEN = "xoxb-test-4242-secret-token"
APP_TOKEN = "xapp-1-A0SAKUIN-4242-secret-app-token"
SIGNING_SECRET = "test-signing-secret-0123456789abcdef"


@dataclass
class RunningBot:
    """`sakuin serve`'s web app on a free localhost port, talking to a fake Slack."""

    settings: Settings
    slack: FakeSlack
    sender: SlackSender
    store: StateStore
    base_url: str
    state: AsyncStateStore | None = None
    loop: WikiLoop | None = None
    """The wiki's loop ``running_bot`` was asked to make (its tasks are the test's to run)."""

    async def get(self, path: str) -> tuple[int, dict]:
        async with aiohttp.ClientSession() as session, session.get(self.base_url + path) as response:
            return response.status, await response.json()


def bot_settings(tmp_path: Path, slack: FakeSlack, **overrides: object) -> Settings:
    values: dict[str, object] = {
        "slack_bot_token": BOT_TOKEN,
        "slack_signing_secret": SIGNING_SECRET,
        "slack_app_token": APP_TOKEN,
        "slack_api_url": slack.api_url,
    }
    values.update(overrides)
    return make_settings(tmp_path, **values)


@asynccontextmanager
async def running_bot(
    tmp_path: Path,
    slack: FakeSlack,
    wiki: Wiki,
    *,
    sync: GitSync | None = None,
    answers: AnswerQueue | None = None,
    timeouts: HttpTimeouts | None = None,
    loop: Callable[[Settings, AsyncStateStore], WikiLoop] | None = None,
    **overrides: object,
) -> AsyncIterator[RunningBot]:
    """Start the real server (create_app + create_web_app) on 127.0.0.1 with a free port; ``sync``
    is the vault's git checkout, for ``/healthz`` and the push webhook; the answer queue is
    ``answers`` (default: one thread per core); the server waits on clients for ``timeouts``
    (default: `sakuin serve`'s); ``loop`` makes the wiki's loop (its inbox, answers later, watches)
    from the settings and the state (default: only the app's own inbox); its tasks are the test's
    to run."""
    settings = bot_settings(tmp_path, slack, **overrides)
    queue = answers or AnswerQueue()
    with open_state_store(settings.state_db) as store:
        state = AsyncStateStore(store)
        made = loop(settings, state) if loop is not None else None
        inbox = made.inbox if made is not None else None
        app = create_app(settings, wiki, state, build_client(settings), queue, inbox=inbox)
        web_app = create_web_app(settings, wiki, app, sync, timeouts=timeouts or HttpTimeouts(), store=store)
        runner = await start_http(web_app, 0, "127.0.0.1")
        base_url = f"http://127.0.0.1:{runner.addresses[0][1]}"
        try:
            async with SlackSender(base_url + EVENTS_PATH, SIGNING_SECRET) as sender:
                yield RunningBot(settings, slack, sender, store, base_url, state, made)
        finally:
            await runner.cleanup()
            queue.close()


async def dribble_until_closed(base_url: str, start: str, every_s: float = 0.2) -> tuple[float, bytes]:
    """Send ``start`` to the server at ``base_url`` raw, then one byte every ``every_s`` seconds
    until the server closes the connection; return how long that took and what it sent."""
    port = int(base_url.rsplit(":", 1)[1])
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    started = time.monotonic()
    writer.write(start.encode())

    async def dribble() -> None:
        while not writer.is_closing():
            writer.write(b"a")
            await asyncio.sleep(every_s)

    async def read_until_closed() -> bytes:
        # A server closing on bytes it has not read resets the connection instead of ending it:
        # that is a close too, and what arrived before it is kept.
        received = b""
        try:
            while chunk := await reader.read(65536):
                received += chunk
        except ConnectionResetError:
            pass
        return received

    sending = asyncio.create_task(dribble())
    try:
        received = await asyncio.wait_for(read_until_closed(), timeout=30)
        return time.monotonic() - started, received
    finally:
        sending.cancel()
        writer.close()


@pytest.fixture
async def bot(tmp_path: Path, fake_slack: FakeSlack, linked_wiki: Wiki) -> AsyncIterator[RunningBot]:
    async with running_bot(tmp_path, fake_slack, linked_wiki, wiki_base_url=BASE_URL) as running:
        yield running


@pytest.fixture(scope="session")
def postgres() -> Iterator[Cluster]:
    """One throwaway PostgreSQL server for the whole session. Without the server binaries the
    tests that need it are skipped on a developer's machine and fail on CI (``CI=true``)."""
    binaries = server_binaries()
    if binaries is None:
        message = "PostgreSQL server binaries (initdb, pg_ctl) not found"
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(message)
        pytest.skip(message)
    cluster = Cluster(binaries).start()
    try:
        yield cluster
    finally:
        cluster.stop()


@pytest.fixture
def postgres_url(postgres: Cluster) -> str:
    """A fresh, empty database of the session's server."""
    return postgres.database()
