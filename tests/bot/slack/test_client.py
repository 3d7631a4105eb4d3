"""build_client against the fake Slack: base URL, and retries of 429 (after Retry-After), 500, drops."""

import time

import pytest
from slack_sdk.errors import SlackApiError

from bot.slack.client import build_client
from tests.conftest import make_settings


def client_for(tmp_path, fake_slack):
    return build_client(
        make_settings(tmp_path, slack_bot_token="xoxb-test", slack_api_url=fake_slack.api_url)
    )


async def test_calls_go_to_the_configured_api_url_with_the_token(tmp_path, fake_slack):
    response = await client_for(tmp_path, fake_slack).auth_test()
    assert response["user_id"] == "U0SAKUIN"
    assert [(c.method, c.token) for c in fake_slack.calls] == [("auth.test", "xoxb-test")]


async def test_rate_limit_waits_for_retry_after_then_posts(tmp_path, fake_slack):
    fake_slack.fail("chat.postMessage", status=429, retry_after=1)
    started = time.monotonic()
    response = await client_for(tmp_path, fake_slack).chat_postMessage(channel="C1", text="hi")
    elapsed = time.monotonic() - started
    assert response["ok"]
    calls = fake_slack.calls_to("chat.postMessage", answered=False)
    assert [c.status for c in calls] == [429, 200]
    assert calls[1].at - calls[0].at >= 1.0 and elapsed < 5


@pytest.mark.parametrize("status", [500, 503])
async def test_server_errors_are_retried(tmp_path, fake_slack, status):
    fake_slack.fail("chat.postMessage", status=status, retry_after=None)
    response = await client_for(tmp_path, fake_slack).chat_postMessage(channel="C1", text="hi")
    assert response["ok"]
    assert [c.status for c in fake_slack.calls_to("chat.postMessage", answered=False)] == [status, 200]


async def test_dropped_connections_are_retried(tmp_path, fake_slack):
    fake_slack.drop("chat.postMessage")
    response = await client_for(tmp_path, fake_slack).chat_postMessage(channel="C1", text="hi")
    assert response["ok"]
    assert [c.status for c in fake_slack.calls_to("chat.postMessage", answered=False)] == [0, 200]


async def test_retries_give_up_eventually(tmp_path, fake_slack):
    fake_slack.fail("chat.postMessage", status=500, retry_after=None, times=10)
    with pytest.raises(SlackApiError):
        await client_for(tmp_path, fake_slack).chat_postMessage(channel="C1", text="hi")
    assert len(fake_slack.calls_to("chat.postMessage", answered=False)) == 3  # 1 try + 2 retries
