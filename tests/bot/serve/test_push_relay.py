"""Pushes passed on between replicas through a real PostgreSQL (LISTEN/NOTIFY)."""

from __future__ import annotations

import asyncio

from bot.serve.push_relay import PushRelay
from tests.conftest import eventually
from tests.postgres import Cluster


async def listening(relay: PushRelay, heard: list[str], name: str) -> asyncio.Task[None]:
    task = asyncio.create_task(relay.listen(lambda: heard.append(name)))
    await asyncio.wait_for(relay.listening.wait(), 30)
    return task


async def test_a_push_reaches_every_other_replica_and_survives_a_restart(
    postgres: Cluster, postgres_url: str
) -> None:
    one, two, three = PushRelay(postgres_url), PushRelay(postgres_url), PushRelay(postgres_url)
    heard: list[str] = []
    tasks = [
        await listening(relay, heard, name) for relay, name in ((one, "one"), (two, "two"), (three, "three"))
    ]
    try:
        await one.announce()
        await eventually(lambda: sorted(heard) == ["three", "two"], what="the other replicas to hear it")

        heard.clear()
        postgres.restart()
        # After reconnecting each listener fetches once (a push may have been missed meanwhile) ...
        await eventually(lambda: sorted(heard) == ["one", "three", "two"], what="fetches after the restart")
        await asyncio.gather(*(asyncio.wait_for(r.listening.wait(), 30) for r in (one, two, three)))
        heard.clear()
        # ... and hears the next push as before.
        await two.announce()
        await eventually(lambda: sorted(heard) == ["one", "three"], what="the push after the restart")
    finally:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)


async def test_announcing_without_the_database_is_only_logged(postgres: Cluster, caplog) -> None:
    relay = PushRelay(f"postgresql://postgres:pw-secret-42@127.0.0.1:{postgres.port}/no_such_database")
    await relay.announce()
    assert "could not pass the push on" in caplog.text and "pw-secret-42" not in caplog.text
