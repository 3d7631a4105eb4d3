"""Socket Mode against the fake Slack's local WebSocket server: envelopes, acks, answers, reconnection."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import pytest

from bot.serve.app import create_app
from bot.serve.socket_mode import SocketModeConnection
from bot.slack.client import build_client
from bot.state.store import AsyncStateStore, open_state_store
from tests.bot.block_kit import assert_valid_blocks, message_text
from tests.bot.conftest import APP_TOKEN, bot_settings
from tests.bot.fake_slack import APP_ID, BOT_USER_ID, CHANNEL_ID, TEAM_ID, USER_ID, FakeSlack, mention_event
from tests.conftest import eventually


@asynccontextmanager
async def connected(
    tmp_path, fake_slack: FakeSlack, wiki, *, check_interval: float
) -> AsyncIterator[SocketModeConnection]:
    """The app over one `SocketModeConnection`, running (and checking itself every
    ``check_interval`` seconds) until the block ends."""
    settings = bot_settings(tmp_path, fake_slack, slack_signing_secret=None)
    with open_state_store(settings.state_db) as store:
        app = create_app(settings, wiki, AsyncStateStore(store), build_client(settings))
        connection = SocketModeConnection(app, APP_TOKEN, check_interval=check_interval)
        task = asyncio.create_task(connection.run())
        try:
            await fake_slack.wait_for_sockets(1)
            yield connection
        finally:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task


@pytest.fixture
async def connection(tmp_path, fake_slack: FakeSlack, linked_wiki) -> AsyncIterator[SocketModeConnection]:
    async with connected(tmp_path, fake_slack, linked_wiki, check_interval=0.1) as running:
        yield running


def command_payload(text: str, response_url: str) -> dict:
    return {
        "token": "legacy",
        "team_id": TEAM_ID,
        "team_domain": "fake",
        "channel_id": CHANNEL_ID,
        "channel_name": "general",
        "user_id": USER_ID,
        "user_name": "alice",
        "command": "/entity",
        "text": text,
        "api_app_id": APP_ID,
        "response_url": response_url,
        "trigger_id": "1.2.3",
    }


def event_payload(event: dict, event_id: str) -> dict:
    return {
        "token": "legacy",
        "team_id": TEAM_ID,
        "api_app_id": APP_ID,
        "event": event,
        "type": "event_callback",
        "event_id": event_id,
        "event_time": 1700000000,
        "authorizations": [{"team_id": TEAM_ID, "user_id": BOT_USER_ID, "is_bot": True}],
    }


async def test_connects_with_the_app_token_from_apps_connections_open(connection, fake_slack):
    (opened,) = fake_slack.calls_to("apps.connections.open")
    assert opened.token == APP_TOKEN
    assert await connection.handler.client.is_connected()


async def test_slash_command_is_acked_and_answered(connection, fake_slack):
    envelope = await fake_slack.push(
        "slash_commands", command_payload("ByteDance", fake_slack.response_url("sm"))
    )
    ack = await fake_slack.wait_for_ack(envelope)
    assert ack == {"envelope_id": envelope}
    (post,) = await fake_slack.wait_for_responses("sm")
    assert_valid_blocks(post.body["blocks"])
    assert post.body["blocks"][0]["text"]["text"] == "ByteDance"
    assert "MegaScale" in message_text(post.body["blocks"]) and "Minder" in message_text(post.body["blocks"])


async def test_mention_is_answered_in_thread_once_even_when_retried(connection, fake_slack):
    payload = event_payload(mention_event("Minder を開発したのはどこ?", "1700000100.000100"), "Ev0SOCKET")
    first = await fake_slack.push("events_api", payload)
    await fake_slack.wait_for_ack(first)
    retry = await fake_slack.push("events_api", payload, retry_attempt=1)
    await fake_slack.wait_for_ack(retry)
    (call,) = await fake_slack.wait_for_calls("chat.postMessage")
    await asyncio.sleep(0.5)
    assert len(fake_slack.calls_to("chat.postMessage")) == 1
    assert call.args["thread_ts"] == "1700000100.000100"
    assert call.args["blocks"][0]["type"] == "rich_text"  # the answer first


async def test_health_check_replaces_a_dead_client(connection, fake_slack):
    dead = connection.handler
    await dead.client.close()  # a client that will never reconnect by itself
    await fake_slack.wait_for_sockets(2)
    await eventually(lambda: connection.handler is not dead and connection.reconnects == 1)
    assert len(fake_slack.calls_to("apps.connections.open")) == 2
    envelope = await fake_slack.push(
        "slash_commands", command_payload("MegaScale", fake_slack.response_url("again"))
    )
    await fake_slack.wait_for_ack(envelope)
    (post,) = await fake_slack.wait_for_responses("again")
    assert post.body["blocks"][0]["text"]["text"] == "MegaScale"


async def test_a_short_outage_is_left_to_the_sdk(tmp_path, fake_slack, linked_wiki):
    """Slack drops the connection and is unreachable for one health check: the check waits for
    the SDK's own reconnect (it takes FAILURES_BEFORE_RECONNECT checks to replace the client)."""
    async with connected(tmp_path, fake_slack, linked_wiki, check_interval=3600) as connection:
        client = connection.handler.client
        fake_slack.hold_sockets()
        await fake_slack.close_sockets()
        await eventually(lambda: fake_slack.socket_connections == 1 and client.current_session.closed)
        replaced = await asyncio.wait_for(connection.check(), 10)  # a replacement would wait for Slack
        assert replaced is False, "the client was replaced during a short outage"
        fake_slack.release_sockets()
        await fake_slack.wait_for_sockets(2)
        await eventually(lambda: not client.current_session.closed, what="the SDK's reconnect")
        assert await connection.check() is False
        envelope = await fake_slack.push(
            "slash_commands", command_payload("Minder", fake_slack.response_url("sdk"))
        )
        await fake_slack.wait_for_ack(envelope)
        assert (connection.reconnects, connection.failures) == (0, 0)
        assert connection.handler.client is client
