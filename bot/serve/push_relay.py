"""Passing a push webhook on to every replica, through the shared PostgreSQL (``LISTEN``/``NOTIFY``).

A load balancer hands the push webhook to one replica; without this the others would only see the
push at their next ``WIKI_GIT_INTERVAL`` fetch, and a question reaching them would miss the new page.
The replica that received the webhook announces it (``NOTIFY sakuin_git_push``); every other
replica listens on its own connection and fetches at once. Only with ``STATE_DB=postgresql://…``
(replicas on one SQLite file share a host, and a webhook to each is the platform's business).

The listener reconnects with back-off when the database goes away, and asks for one fetch after
each reconnection, since a push announced meanwhile was not heard.
"""

from __future__ import annotations

import asyncio
import logging
import uuid
from collections.abc import Callable

import psycopg

from config.credentials import redact_text, redact_url

log = logging.getLogger("sakuin.git")

CHANNEL = "sakuin_git_push"
CONNECT_TIMEOUT_S = 5
RETRY_BASE_S = 0.5
RETRY_MAX_S = 30.0


class PushRelay:
    """One replica's end: `announce` a push it received, `listen` for the others'."""

    def __init__(self, url: str) -> None:
        self.url = str(url)
        self.sender = uuid.uuid4().hex
        self.listening = asyncio.Event()
        """Set while the listening connection is up (for tests and logs)."""

    async def announce(self) -> None:
        """Tell the other replicas a push arrived; a failure is logged (they fetch on their interval)."""
        try:
            async with await psycopg.AsyncConnection.connect(
                self.url, autocommit=True, connect_timeout=CONNECT_TIMEOUT_S
            ) as conn:
                await conn.execute("SELECT pg_notify(%s, %s)", (CHANNEL, self.sender))
        except psycopg.Error as error:
            log.warning(
                "could not pass the push on to the other replicas via %s: %s",
                redact_url(self.url),
                redact_text(str(error).strip(), self.url),
            )

    async def listen(self, on_push: Callable[[], None]) -> None:
        """Call ``on_push`` for every push another replica announces, forever (a background task)."""
        failures = 0
        while True:
            try:
                async with await psycopg.AsyncConnection.connect(
                    self.url, autocommit=True, connect_timeout=CONNECT_TIMEOUT_S
                ) as conn:
                    await conn.execute(f"LISTEN {CHANNEL}")
                    self.listening.set()
                    if failures:
                        log.info("listening for pushes again; fetching once for any missed")
                        on_push()
                    failures = 0
                    async for notify in conn.notifies():
                        if notify.payload != self.sender:
                            on_push()
            except psycopg.Error as error:
                self.listening.clear()
                failures += 1
                wait = min(RETRY_BASE_S * 2 ** (failures - 1), RETRY_MAX_S)
                if failures == 1:
                    log.warning(
                        "stopped listening for pushes from other replicas (%s); reconnecting",
                        redact_text(
                            str(error).strip().splitlines()[0] if str(error).strip() else "", self.url
                        ),
                    )
                await asyncio.sleep(wait)
