"""Two replicas behave as one bot: two real ``sakuin serve`` processes in their own working folders,
configured like a fresh deployment (Slack settings, ``WIKI_GIT_URL``, ``STATE_DB=postgresql://…``),
one fake Slack, one PostgreSQL server that also restarts under them."""

from __future__ import annotations

import asyncio
import inspect
import json
import os
import signal
import sys
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path

import aiohttp
import psycopg
import pytest

from bot.server import EVENTS_PATH
from tests.bot.conftest import SIGNING_SECRET
from tests.bot.fake_slack import CHANNEL_ID, FakeSlack, SlackSender, mention_event
from tests.bot.git_remote import Remote
from tests.conftest import REPO
from tests.postgres import Cluster, free_port
from tests.vaults import SMALL_VAULT

DIGEST_CHANNEL = "C0DIGEST"
CLI = "import sys; from bot.cli import main; raise SystemExit(main(sys.argv[1:]))"
WAIT_S = 60.0


@dataclass
class Replica:
    name: str
    folder: Path
    port: int
    process: asyncio.subprocess.Process
    log: list[str]

    @property
    def events_url(self) -> str:
        return f"http://127.0.0.1:{self.port}{EVENTS_PATH}"

    async def health(self) -> dict | None:
        try:
            async with (
                aiohttp.ClientSession() as session,
                session.get(f"http://127.0.0.1:{self.port}/healthz") as response,
            ):
                return await response.json()
        except aiohttp.ClientError:
            return None


async def start_replica(name: str, root: Path, slack: FakeSlack, remote: Remote, state_db: str) -> Replica:
    folder = root / name
    folder.mkdir()
    port = free_port()
    env = {
        **os.environ,
        "PYTHONPATH": str(REPO),
        "SLACK_BOT_TOKEN": "xoxb-replica-token",
        "SLACK_SIGNING_SECRET": SIGNING_SECRET,
        "SLACK_API_URL": slack.api_url,
        "WIKI_GIT_URL": remote.url,
        "STATE_DB": state_db,
        "PORT": str(port),
        "DIGEST_CHANNEL": DIGEST_CHANNEL,
        "DIGEST_TIME": "00:00",
        "DIGEST_TZ": "UTC",
        "DIGEST_POST_EMPTY": "true",
        "LOG_LEVEL": "INFO",
    }
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-c", CLI, "serve",
        cwd=folder, env=env, stdin=asyncio.subprocess.DEVNULL,
        stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.PIPE,
    )  # fmt: skip
    replica = Replica(name, folder, port, process, [])
    asyncio.get_running_loop().create_task(_collect(replica))
    return replica


async def _collect(replica: Replica) -> None:
    assert replica.process.stderr is not None
    async for line in replica.process.stderr:
        replica.log.append(line.decode("utf-8", "replace").rstrip())


async def eventually(check, what: str, timeout: float = WAIT_S) -> None:
    """Poll ``check`` (plain, or a coroutine function) until it is true."""
    deadline = time.monotonic() + timeout
    while not await _result(check()):
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        await asyncio.sleep(0.1)


@pytest.fixture
async def replicas(tmp_path: Path, postgres: Cluster, postgres_url: str) -> AsyncIterator[tuple]:
    remote = Remote(tmp_path / "git", SMALL_VAULT)
    async with FakeSlack() as slack:
        pair = [await start_replica(name, tmp_path, slack, remote, postgres_url) for name in ("one", "two")]
        try:

            async def ready() -> bool:
                for replica in pair:
                    if replica.process.returncode is not None:
                        raise AssertionError(f"{replica.name} exited:\n" + "\n".join(replica.log))
                states = [await replica.health() for replica in pair]
                return all(state is not None and state["status"] == "ready" for state in states)

            await eventually(ready, "both replicas to serve")
            yield pair, slack, postgres_url
        finally:
            for replica in pair:
                if replica.process.returncode is None:
                    replica.process.send_signal(signal.SIGTERM)
            for replica in pair:
                try:
                    await asyncio.wait_for(replica.process.wait(), 30)
                except TimeoutError:
                    replica.process.kill()
                    await replica.process.wait()


def answers(slack: FakeSlack, ts: str) -> list:
    return [
        call
        for call in slack.calls_to("chat.postMessage")
        if call.args.get("channel") == CHANNEL_ID and call.args.get("thread_ts") == ts
    ]


async def deliver_to_both(pair: list[Replica], event: dict, event_id: str) -> list[int]:
    """The same event to each replica, as Slack's first delivery and its retry would arrive."""
    async with (
        SlackSender(pair[0].events_url, SIGNING_SECRET) as first,
        SlackSender(pair[1].events_url, SIGNING_SECRET) as second,
    ):
        sent = await asyncio.gather(
            first.event(event, event_id=event_id), second.event(event, event_id=event_id, retry_num=1)
        )
    return [response.status for response in sent]


async def test_two_replicas_answer_an_event_once_and_post_the_digest_once(replicas) -> None:
    pair, slack, url = replicas
    for replica in pair:
        assert (replica.folder / ".sakuin/vault/wiki/entities/ByteDance.md").exists()  # cloned from git

    event = mention_event("ByteDance は何を開発した?", ts="1700000200.000100")
    assert await deliver_to_both(pair, event, "EvReplicaOnce") == [200, 200]
    # Both replicas decided before acknowledging (the claim runs before the ack): one answers.
    await slack.wait_for_calls("chat.postMessage")
    await eventually(lambda: len(answers(slack, event["ts"])) >= 1, "the answer")

    def digest_done() -> bool:
        with psycopg.connect(url) as conn:
            row = conn.execute(
                "SELECT status, posted FROM sakuin_digest_runs WHERE channel = %s", (DIGEST_CHANNEL,)
            ).fetchone()
        return row is not None and row[0] == "done"

    await eventually(lambda: asyncio.to_thread(digest_done), "the digest run to be done")
    await eventually(
        lambda: all(any("digest schedule" in line for line in r.log) for r in pair),
        "both schedules to run",
    )
    digests = [
        call for call in slack.calls_to("chat.postMessage") if call.args.get("channel") == DIGEST_CHANNEL
    ]
    assert len(digests) == 1, [call.args.get("metadata") for call in digests]
    assert len(answers(slack, event["ts"])) == 1
    assert sum("was already answered" in line for r in pair for line in r.log) == 1


async def test_the_database_restarting_under_running_replicas(replicas, postgres: Cluster) -> None:
    pair, slack, _ = replicas
    postgres.restart()
    event = mention_event("Minder とは?", ts="1700000300.000100")
    assert await deliver_to_both(pair, event, "EvAfterRestart") == [200, 200]
    await eventually(lambda: len(answers(slack, event["ts"])) >= 1, "the answer after the restart")

    # An event that arrives while the database is down waits for it, then is answered once.
    postgres.stop_server()
    during = mention_event("MegaScale とは?", ts="1700000400.000100")
    try:
        delivery = asyncio.create_task(deliver_to_both(pair, during, "EvDuringOutage"))
        await asyncio.sleep(1.0)
        assert answers(slack, during["ts"]) == []
    finally:
        postgres.start_server()
    assert await asyncio.wait_for(delivery, WAIT_S) == [200, 200]
    await eventually(lambda: len(answers(slack, during["ts"])) >= 1, "the answer after the outage")
    assert len(answers(slack, event["ts"])) == 1 and len(answers(slack, during["ts"])) == 1
    assert all(replica.process.returncode is None for replica in pair)
    logs = "\n".join(line for replica in pair for line in replica.log)
    assert "sakuin-test-password" not in logs, json.dumps(logs[-2000:])


async def _result(value: object) -> object:
    return await value if inspect.isawaitable(value) else value
