"""Slack's Web API failing or hanging never holds up an ack: through the real server against the fake
Slack, a command is acknowledged at once and answered, with one log line saying why, no traceback;
and ``sakuin serve`` says at start what to paste into Slack and what is wrong with its token."""

from __future__ import annotations

import asyncio
import logging
import os
import re
import sys
from pathlib import Path

import aiohttp
import pytest

from bot.slack.identity import EVENT_WAIT_S
from tests.bot.block_kit import message_text
from tests.bot.conftest import BOT_TOKEN, SIGNING_SECRET, RunningBot, running_bot
from tests.bot.fake_slack import FakeSlack, mention_event
from tests.bot.scenarios.test_http_commands import ACK_LIMIT_S
from tests.bot.serve.test_git_sync import closed_port
from tests.conftest import REPO, eventually
from tests.vaults import SMALL_VAULT, write_vault

CLI = "import sys; from bot.cli import main; raise SystemExit(main(sys.argv[1:]))"


def problems(caplog: pytest.LogCaptureFixture) -> list[logging.LogRecord]:
    return [record for record in caplog.records if record.levelno >= logging.WARNING]


async def answered_at_once(bot: RunningBot, name: str) -> dict:
    sent = await bot.sender.command("/entity", "ByteDance", response_url=bot.slack.response_url(name))
    assert sent.status == 200 and sent.text == "" and sent.seconds < ACK_LIMIT_S
    (answer,) = await bot.slack.wait_for_responses(name)
    return answer.body


async def test_a_command_is_acked_and_answered_when_auth_test_cannot_reach_slack(
    tmp_path, fake_slack, linked_wiki, caplog
):
    fake_slack.drop("auth.test", times=3)  # the call and both of the SDK's retries
    async with running_bot(tmp_path, fake_slack, linked_wiki) as bot:
        body = await answered_at_once(bot, "r1")
        assert body["blocks"][0]["text"]["text"] == "ByteDance"
        await eventually(lambda: problems(caplog), what="the log line on auth.test")
    (line,) = problems(caplog)
    assert line.getMessage().startswith("could not check the bot token: Slack is unreachable at ")
    assert line.exc_info is None and "Traceback" not in caplog.text


async def test_a_command_is_acked_and_answered_while_auth_test_hangs(tmp_path, fake_slack, linked_wiki):
    fake_slack.hang("auth.test")
    async with running_bot(tmp_path, fake_slack, linked_wiki) as bot:
        body = await answered_at_once(bot, "r1")
        assert "MegaScale" in message_text(body["blocks"])
        fake_slack.release.set()
        await fake_slack.wait_for_calls("auth.test")


async def test_an_event_waits_for_a_hanging_auth_test_at_most_a_moment(tmp_path, fake_slack, linked_wiki):
    fake_slack.hang("auth.test")
    async with running_bot(tmp_path, fake_slack, linked_wiki) as bot:
        sent = await bot.sender.event(mention_event("MegaScale を開発したのはどこ?"))
        assert sent.status == 200 and EVENT_WAIT_S <= sent.seconds < EVENT_WAIT_S + ACK_LIMIT_S / 2
        (call,) = await fake_slack.wait_for_calls("chat.postMessage")
        assert "ByteDance" in message_text(call.args["blocks"])


async def test_a_failing_response_url_is_one_line_without_a_traceback(
    tmp_path, fake_slack, linked_wiki, caplog
):
    async with running_bot(tmp_path, fake_slack, linked_wiki) as bot:
        # A response_url is used only on Slack's own host (here the fake's): its connection drops.
        fake_slack.drop("response:dead", times=4)  # the answer, the apology and their retries
        sent = await bot.sender.command("/entity", "ByteDance", response_url=fake_slack.response_url("dead"))
        assert sent.status == 200 and sent.seconds < ACK_LIMIT_S
        await eventually(lambda: "listener failed" in caplog.text, what="the log line")
    failed = next(record for record in problems(caplog) if "listener failed" in record.getMessage())
    assert re.search(r"\b\w+(?:Error|Disconnected)\b", failed.getMessage()) and failed.exc_info is None
    assert "Traceback" not in caplog.text


async def serve_until_listening(tmp_path: Path, slack: FakeSlack, **env: str) -> tuple[list[str], str]:
    """Start ``sakuin serve``, wait for its first lines (up to the token's check), ask /healthz,
    stop it; return its log lines and the base URL it served on."""
    port = closed_port()
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-c", CLI, "serve",
        cwd=tmp_path, stderr=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.DEVNULL,
        env={
            **os.environ,
            "PYTHONPATH": str(REPO),
            "SLACK_BOT_TOKEN": BOT_TOKEN,
            "SLACK_SIGNING_SECRET": SIGNING_SECRET,
            "SLACK_API_URL": slack.api_url,
            "WIKI_DIR": str(write_vault(tmp_path / "vault", SMALL_VAULT)),
            "HOST": "127.0.0.1",
            "PORT": str(port),
            **env,
        },
    )  # fmt: skip
    assert process.stderr is not None
    lines: list[str] = []
    try:
        identity = "bot.slack.identity"
        while not any(identity in line for line in lines) or not any("listening" in x for x in lines):
            line = await asyncio.wait_for(process.stderr.readline(), 60)
            assert line, "sakuin serve ended early:\n" + "".join(lines)
            lines.append(line.decode())
        async with aiohttp.ClientSession() as session, session.get(f"http://127.0.0.1:{port}/healthz") as got:
            assert got.status == 200
    finally:
        process.terminate()
        rest = await process.stderr.read()
        await process.wait()
    return [*lines, *rest.decode().splitlines(keepends=True)], f"127.0.0.1:{port}"


@pytest.mark.parametrize(
    ("token", "scopes", "said"),
    [
        (BOT_TOKEN, None, "INFO bot.slack.identity: Slack: workspace Fake (T0FAKE) as @sakuin (U0SAKUIN)"),
        ("xoxp-a-user-token", None, "ERROR bot.slack.identity: Slack refused the bot token (invalid_auth)"),
        (
            BOT_TOKEN,
            ("commands",),
            "ERROR bot.slack.identity: the bot token lacks chat:write, app_mentions:read",
        ),
    ],
)
async def test_serve_says_where_slack_sends_requests_and_what_is_wrong_with_the_token(
    tmp_path, fake_slack, token, scopes, said
):
    fake_slack.granted_scopes = scopes
    lines, address = await serve_until_listening(tmp_path, fake_slack, SLACK_BOT_TOKEN=token)
    text = "".join(lines)
    assert "Slack's request URL: https://<public host>/slack/events" in text
    assert f"http://{address}/slack/events" in text
    assert said in text
    assert "will be unused" not in text and "will be ignored" not in text  # Bolt's token notices
    assert "/healthz" not in text  # the probe is not logged at INFO
