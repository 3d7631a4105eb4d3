"""Requests the bot must not act on, through the real server: unsigned or malformed ones, and signed
ones asking to be answered somewhere other than Slack. None of them may make the server call
anyone: neither the (fake) Slack Web API with its token nor the URL the request names. And
clients the server must not wait on for ever."""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import AsyncIterator
from urllib.parse import urlencode

import aiohttp
import pytest
from slack_bolt.request.async_request import AsyncBoltRequest

from bot.answering.queue import AnswerQueue
from bot.blocks.buttons import OPEN_PAGE
from bot.serve.app import create_app
from bot.serve.inbound import RefusalLog, is_slack_response_url, signature_problem
from bot.serve.server import HttpTimeouts
from bot.slack.client import build_client
from bot.slack.manifest import EVENTS_PATH
from bot.state.store import AsyncStateStore, open_state_store
from tests.bot.conftest import SIGNING_SECRET, RunningBot, bot_settings, dribble_until_closed, running_bot
from tests.bot.fake_slack import (
    CHANNEL_ID,
    OTHER_TEAM_ID,
    USER_ID,
    FakeSlack,
    SlackSender,
    mention_event,
)

QUIET_S = 0.5
"""How long to keep listening for a call that must not come."""
FORGED = "v0=" + "0" * 64


@pytest.fixture
async def attacker() -> AsyncIterator[FakeSlack]:
    """A server on localhost the forged requests name as their response_url."""
    async with FakeSlack() as server:
        yield server


def forged_command(response_url: str) -> tuple[bytes, str]:
    form = {
        "team_id": OTHER_TEAM_ID,
        "channel_id": CHANNEL_ID,
        "user_id": USER_ID,
        "command": "/entity",
        "text": "ByteDance",
        "response_url": response_url,
    }
    return urlencode(form).encode(), "application/x-www-form-urlencoded"


def forged_mention(response_url: str) -> tuple[bytes, str]:
    body = {
        "team_id": OTHER_TEAM_ID,
        "type": "event_callback",
        "event_id": "Ev0FORGED",
        "event": mention_event("MegaScale とは"),
        "response_url": response_url,
    }
    return json.dumps(body).encode(), "application/json"


NOW = "now"
MALFORMED = {  # the two headers (None: left out); NOW: the current time
    "timestamp not a number": ("not-a-number", FORGED),
    "timestamp in exponent form": ("1.7e9", FORGED),
    "timestamp of 400 digits": ("9" * 400, FORGED),
    "timestamp in other digits": ("١٧٠٠٠٠٠٠٠٠", FORGED),
    "no timestamp": (None, FORGED),
    "no signature": (NOW, None),
    "neither": (None, None),
    "signature not ASCII": (NOW, "v0=é"),
    "signature wrong": (NOW, FORGED),
}


def slack_headers(timestamp: str | None, signature: str | None) -> dict[str, str]:
    stamp = str(int(time.time())) if timestamp == NOW else timestamp
    headers = {"X-Slack-Request-Timestamp": stamp, "X-Slack-Signature": signature}
    return {name: value for name, value in headers.items() if value is not None}


async def post_raw(bot: RunningBot, body: bytes, content_type: str, headers: dict[str, str]) -> int:
    url, headers = bot.sender.url, {"Content-Type": content_type, **headers}
    async with aiohttp.ClientSession() as session, session.post(url, data=body, headers=headers) as sent:
        return sent.status


@pytest.mark.parametrize("shape", [forged_command, forged_mention], ids=["command", "mention"])
@pytest.mark.parametrize("case", list(MALFORMED))
async def test_an_unsigned_request_is_a_401_that_calls_no_one(
    tmp_path, fake_slack, attacker, linked_wiki, caplog, shape, case
):
    body, content_type = shape(attacker.response_url("stolen"))
    async with running_bot(tmp_path, fake_slack, linked_wiki, slack_team_id="T0FAKE") as bot:
        assert await post_raw(bot, body, content_type, slack_headers(*MALFORMED[case])) == 401
        await asyncio.sleep(QUIET_S)
    assert fake_slack.calls == [] and fake_slack.responses == []
    assert attacker.calls == [] and attacker.responses == []
    refusals = [r for r in caplog.records if "refused a Slack request" in r.getMessage()]
    assert len(refusals) == 1 and refusals[0].levelno == logging.WARNING
    assert not any(record.exc_info for record in caplog.records) and "Traceback" not in caplog.text


async def test_unsigned_requests_are_logged_once_a_minute_not_each(tmp_path, fake_slack, linked_wiki, caplog):
    body, content_type = forged_command(fake_slack.response_url("x"))
    async with running_bot(tmp_path, fake_slack, linked_wiki) as bot:
        for _ in range(20):
            assert await post_raw(bot, body, content_type, slack_headers(NOW, FORGED)) == 401
    assert [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING] == [
        "refused a Slack request from 127.0.0.1: a wrong X-Slack-Signature"
    ]


def test_a_refusal_log_counts_what_it_left_out(caplog):
    clock = [1000.0]
    refusals = RefusalLog(logging.getLogger("test.refusals"), interval_s=60, clock=lambda: clock[0])
    for at in (0, 1, 2, 59.9, 61, 62, 200):
        clock[0] = 1000.0 + at
        refusals.refused("refused %s", at)
    assert [r.getMessage() for r in caplog.records] == [
        "refused 0",
        "refused 61 (and 3 more like it in the last 61 s)",
        "refused 200 (and 1 more like it in the last 139 s)",
    ]
    assert all(r.levelno == logging.WARNING for r in caplog.records)


async def test_a_body_that_is_not_utf8_is_refused_even_when_signed(tmp_path, fake_slack, linked_wiki):
    body = b"command=%2Fentity&text=\xff\xfe"
    async with running_bot(tmp_path, fake_slack, linked_wiki) as bot:
        stamp = str(int(time.time()))
        signature = bot.sender.verifier.generate_signature(timestamp=stamp, body=body.decode("latin-1"))
        headers = {"X-Slack-Request-Timestamp": stamp, "X-Slack-Signature": signature}
        assert await post_raw(bot, body, "application/x-www-form-urlencoded", headers) == 401
    assert fake_slack.calls == []


async def test_a_failure_before_verification_is_not_answered_by_the_app_itself(
    tmp_path, fake_slack, attacker, linked_wiki, caplog
):
    """Bolt's own check raises on a malformed timestamp; the app's error handler then gets the
    unverified body. Dispatched to the app directly (as another adapter would), nothing answers."""
    settings = bot_settings(tmp_path, fake_slack, slack_team_id="T0FAKE")
    queue = AnswerQueue()
    try:
        with open_state_store(settings.state_db) as store:
            app = create_app(settings, linked_wiki, AsyncStateStore(store), build_client(settings), queue)
            for shape in (forged_command, forged_mention):
                body, content_type = shape(attacker.response_url("stolen"))
                request = AsyncBoltRequest(
                    body=body.decode(),
                    headers={
                        "content-type": content_type,
                        "x-slack-request-timestamp": "not-a-number",
                        "x-slack-signature": FORGED,
                    },
                )
                response = await app.async_dispatch(request)
                assert response.status >= 400
            await asyncio.sleep(QUIET_S)
    finally:
        queue.close()
    assert fake_slack.calls == [] and attacker.responses == []
    assert "failed before it was verified (ValueError): not answered" in caplog.text
    assert not any(record.exc_info for record in caplog.records)


async def test_a_signed_request_naming_another_response_url_is_not_posted_to(
    tmp_path, fake_slack, attacker, linked_wiki, caplog
):
    async with running_bot(tmp_path, fake_slack, linked_wiki) as bot:
        sent = await bot.sender.command("/entity", "ByteDance", response_url=attacker.response_url("c"))
        assert sent.status == 200 and sent.text == ""
        button = {
            "type": "button",
            "action_id": f"{OPEN_PAGE}:0",
            "value": "wiki/entities/ByteDance.md",
            "text": {"type": "plain_text", "text": "ByteDance"},
        }
        blocks = [{"type": "actions", "elements": [button]}]
        sent = await bot.sender.click(blocks, f"{OPEN_PAGE}:0", response_url=attacker.response_url("b"))
        assert sent.status == 200
        await asyncio.sleep(QUIET_S)
        await bot.sender.command("/entity", "ByteDance", response_url=fake_slack.response_url("ours"))
        await fake_slack.wait_for_responses("ours")  # a Slack response_url is still answered
    assert attacker.responses == [] and attacker.calls == []
    assert [c.method for c in fake_slack.calls if c.method != "auth.test"] == []
    assert caplog.text.count("its response_url is not on Slack's hooks host") == 1  # once a minute


API = "https://slack.com/api/"


@pytest.mark.parametrize(
    ("url", "api_url", "allowed"),
    [
        ("https://hooks.slack.com/commands/T0/1/abc", API, True),
        ("https://hooks.slack.com:443/actions/T0/1/abc", API, True),
        ("http://hooks.slack.com/commands/T0/1/abc", API, False),  # not https
        ("https://hooks.slack.com:8443/commands/x", API, False),
        ("https://hooks.slack.com.evil.example/commands/x", API, False),
        ("https://evil.example/?hooks.slack.com", API, False),
        ("https://user@hooks.slack.com/commands/x", API, False),
        ("https://slack.com/api/chat.postMessage", API, True),  # SLACK_API_URL's own origin
        ("https://hooks.slack-gov.com/commands/x", "https://slack-gov.com/api/", True),
        ("https://hooks.slack-gov.com/commands/x", API, False),
        ("http://127.0.0.1:5000/response/r1", "http://127.0.0.1:5000/api/", True),  # the fake Slack
        ("http://127.0.0.1:5001/response/r1", "http://127.0.0.1:5000/api/", False),  # another port
        ("http://localhost:5000/response/r1", "http://127.0.0.1:5000/api/", False),
        ("http://169.254.169.254/latest/meta-data", API, False),
        ("file:///etc/passwd", API, False),
        ("https://hooks.slack.com:notaport/x", API, False),
        ("https://[::1/x", API, False),
        ("", API, False),
        (None, API, False),
        (["https://hooks.slack.com/commands/x"], API, False),
    ],
)
def test_which_response_urls_are_slacks(url, api_url, allowed):
    assert is_slack_response_url(url, api_url) is allowed


BODY = b"token=x&command=%2Fentity"
STAMP = "1700000000"


def signed(stamp: str = STAMP, body: bytes = BODY, secret: str = SIGNING_SECRET) -> str:
    return SlackSender("", secret).verifier.generate_signature(timestamp=stamp, body=body.decode())


@pytest.mark.parametrize(
    ("secret", "timestamp", "signature", "at", "problem"),
    [
        (SIGNING_SECRET, STAMP, signed(), 1700000000, None),
        (SIGNING_SECRET, STAMP, signed(), 1700000000 + 299, None),
        (SIGNING_SECRET, STAMP, signed(), 1700000000 + 301, "a stale X-Slack-Request-Timestamp"),
        (SIGNING_SECRET, STAMP, signed(), 1700000000 - 301, "a stale X-Slack-Request-Timestamp"),
        (SIGNING_SECRET, None, signed(), 1700000000, "no X-Slack-Request-Timestamp"),
        (SIGNING_SECRET, "not-a-number", signed(), 1700000000, "a malformed X-Slack-Request-Timestamp"),
        (SIGNING_SECRET, " 1700000000", signed(), 1700000000, "a malformed X-Slack-Request-Timestamp"),
        (SIGNING_SECRET, "-1", signed(), 1700000000, "a malformed X-Slack-Request-Timestamp"),
        (SIGNING_SECRET, "", signed(), 1700000000, "a malformed X-Slack-Request-Timestamp"),
        (SIGNING_SECRET, STAMP, None, 1700000000, "no X-Slack-Signature"),
        (SIGNING_SECRET, STAMP, signed().upper(), 1700000000, "a malformed X-Slack-Signature"),
        (SIGNING_SECRET, STAMP, "v0=é", 1700000000, "a malformed X-Slack-Signature"),
        (SIGNING_SECRET, STAMP, signed(secret="other"), 1700000000, "a wrong X-Slack-Signature"),
        (SIGNING_SECRET, STAMP, signed(stamp="1700000001"), 1700000000, "a wrong X-Slack-Signature"),
        ("", STAMP, signed(), 1700000000, "no signing secret is configured"),
    ],
)
def test_signature_problems(secret, timestamp, signature, at, problem):
    assert signature_problem(secret, timestamp, signature, BODY, now=at) == problem


SHORT = HttpTimeouts(idle_s=1.0, body_s=1.0, linger_s=0.5)
HEAD = f"POST {EVENTS_PATH} HTTP/1.1\r\nHost: sakuin\r\n"


@pytest.mark.parametrize(
    "start",
    [
        HEAD + "X-Slow: ",  # headers that never end
        HEAD + "Content-Length: 100000\r\nContent-Type: application/json\r\n\r\n",  # a body that never ends
        "GET /healthz HTTP/1.1\r\nHost: sakuin\r\n\r\nGET /healthz HTTP/1.1\r\nX-Slow: ",  # a second request
    ],
    ids=["headers", "body", "second request"],
)
async def test_a_client_sending_a_byte_at_a_time_is_dropped(tmp_path, fake_slack, linked_wiki, start):
    async with running_bot(tmp_path, fake_slack, linked_wiki, timeouts=SHORT) as bot:
        took, _ = await dribble_until_closed(bot.base_url, start)
    assert took < SHORT.idle_s + SHORT.body_s + SHORT.linger_s + 1.0
