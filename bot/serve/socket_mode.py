"""``sakuin socket``: the app over Socket Mode, with a health check that replaces a dead client.

The SDK reconnects by itself, but its client has had states it never leaves (closed, or stuck
reconnecting). Every ``check_interval`` seconds we ask ``await client.is_connected()``; after
``failures_before_reconnect`` failed checks in a row (so the SDK's own reconnects get a chance)
the handler is closed and a new one connects. Several connections of one app (a laptop and a
server) each receive a random share of the events: run one per app.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging

from slack_bolt.adapter.socket_mode.aiohttp import AsyncSocketModeHandler
from slack_bolt.app.async_app import AsyncApp

from config.settings import Settings

log = logging.getLogger(__name__)

CHECK_INTERVAL_S = 10.0
FAILURES_BEFORE_RECONNECT = 2


class SocketModeConnection:
    """One Socket Mode connection of ``app`` that keeps itself alive while `run` runs."""

    def __init__(
        self,
        app: AsyncApp,
        app_token: str,
        *,
        check_interval: float = CHECK_INTERVAL_S,
        failures_before_reconnect: int = FAILURES_BEFORE_RECONNECT,
    ) -> None:
        self.app = app
        self._app_token = app_token
        self.check_interval = check_interval
        self.failures_before_reconnect = failures_before_reconnect
        self.handler: AsyncSocketModeHandler | None = None
        self.failures = 0
        self.reconnects = 0

    async def connect(self) -> None:
        """Open a new handler (asking Slack for a WebSocket URL) and connect it."""
        self.handler = AsyncSocketModeHandler(self.app, app_token=self._app_token)
        await self.handler.connect_async()
        self.failures = 0
        log.info("Socket Mode connected")

    async def check(self) -> bool:
        """One health check; True when it had to replace the handler."""
        if self.handler is not None and await self.handler.client.is_connected():
            self.failures = 0
            return False
        self.failures += 1
        if self.failures < self.failures_before_reconnect:
            log.info(
                "Socket Mode connection is down (check %d); waiting for the SDK to reconnect", self.failures
            )
            return False
        log.warning("Socket Mode connection stayed down for %d checks; replacing the client", self.failures)
        await self.close()
        await self.connect()
        self.reconnects += 1
        return True

    async def run(self) -> None:
        """Connect, then check every ``check_interval`` seconds until cancelled; close on the way out."""
        try:
            await self.connect()
            while True:
                await asyncio.sleep(self.check_interval)
                await self.check()
        finally:
            await self.close()

    async def close(self) -> None:
        handler, self.handler = self.handler, None
        if handler is not None:
            with contextlib.suppress(
                Exception
            ):  # a broken client may fail to close; it is dropped either way
                await handler.close_async()


async def run_socket_mode(app: AsyncApp, settings: Settings) -> None:
    """Serve ``app`` over Socket Mode until cancelled (needs ``SLACK_APP_TOKEN``)."""
    if settings.slack_app_token is None:
        raise ValueError("SLACK_APP_TOKEN is required for Socket Mode")
    await SocketModeConnection(app, settings.slack_app_token.get_secret_value()).run()
