"""``POST /hooks/git`` and the git status in ``/healthz``, through the real server, against a real
bare repository and the live index."""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import json
import logging
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path

import aiohttp
import pytest

from bot.serve.freshness import Freshener, keep_fresh
from bot.serve.git_sync import GitSync
from bot.serve.server import GIT_HOOK_PATH, HttpTimeouts, git_webhook
from index.wiki import Wiki
from tests.bot.block_kit import message_text
from tests.bot.conftest import RunningBot, dribble_until_closed, running_bot
from tests.bot.fake_slack import FakeSlack
from tests.bot.git_remote import Remote
from tests.bot.serve.test_git_sync import closed_port
from tests.conftest import eventually
from tests.vaults import SMALL_VAULT, entity

SECRET = "hook-secret-0123456789"
PUSH = json.dumps({"ref": "refs/heads/main", "commits": [{"id": "abc"}]}).encode()
WAIT_S = 30.0


def github_signature(body: bytes, secret: str = SECRET) -> str:
    return "sha256=" + hmac.new(secret.encode(), body, hashlib.sha256).hexdigest()


async def post_hook(bot: RunningBot, body: bytes, headers: dict[str, str]) -> tuple[int, dict]:
    async with (
        aiohttp.ClientSession() as session,
        session.post(bot.base_url + GIT_HOOK_PATH, data=body, headers=headers) as response,
    ):
        text = await response.text()
        return response.status, json.loads(text) if response.content_type == "application/json" else {}


@dataclass
class GitBot:
    bot: RunningBot
    remote: Remote
    sync: GitSync
    wiki: Wiki


@pytest.fixture
async def git_bot(tmp_path: Path, fake_slack: FakeSlack) -> AsyncIterator[GitBot]:
    """The bot serving a vault cloned from a bare repository, with the live index and the git
    follower running as `sakuin serve` runs them (interval far longer than any test)."""
    remote = Remote(tmp_path / "git", SMALL_VAULT)
    vault = tmp_path / "vault"
    sync = GitSync(remote.url, vault, interval=3600)
    await sync.start()
    wiki = Wiki.open(vault, tmp_path / "index")
    tasks = [
        asyncio.create_task(keep_fresh(Freshener(wiki), vault, tmp_path / "index", scan_interval=3600)),
        asyncio.create_task(sync.follow()),
    ]
    try:
        await eventually(lambda: wiki.state().status == "ready", timeout=WAIT_S, what="the index")
        async with running_bot(
            tmp_path,
            fake_slack,
            wiki,
            sync=sync,
            wiki_dir=vault,
            wiki_git_url=remote.url,
            wiki_git_webhook_secret=SECRET,
        ) as bot:
            yield GitBot(bot, remote, sync, wiki)
    finally:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)


@pytest.mark.parametrize(
    "headers",
    [
        {"X-GitHub-Event": "push", "X-Hub-Signature-256": github_signature(PUSH)},
        {"X-Gitlab-Event": "Push Hook", "X-Gitlab-Token": SECRET},
    ],
    ids=["github", "gitlab"],
)
async def test_a_signed_push_makes_the_page_answerable_within_seconds(git_bot: GitBot, headers) -> None:
    git_bot.remote.commit(
        {"wiki/entities/Volcano Engine.md": entity("Volcano Engine", body="Qwertyzz クラウド事業。")},
        "add Volcano Engine",
    )
    before = git_bot.sync.fetches
    started = time.monotonic()
    status, body = await post_hook(git_bot.bot, PUSH, headers)
    assert (status, body) == (202, {"status": "fetch scheduled"})

    await eventually(
        lambda: [hit.path for hit in git_bot.wiki.search("Qwertyzz").hits] != [],
        timeout=WAIT_S,
        what="the pushed page to be found",
    )
    seconds = time.monotonic() - started
    assert git_bot.sync.fetches == before + 1
    print(f"push webhook to answerable: {seconds:.2f} s")

    sent = await git_bot.bot.sender.command(
        "/wiki", "Qwertyzz", response_url=git_bot.bot.slack.response_url("pushed")
    )
    assert sent.status == 200
    (post,) = await git_bot.bot.slack.wait_for_responses("pushed")
    assert "Volcano Engine" in message_text(post.body["blocks"])


@pytest.mark.parametrize(
    "headers",
    [
        {},
        {"X-Hub-Signature-256": github_signature(PUSH, "wrong-secret")},
        {"X-Hub-Signature-256": github_signature(PUSH + b" ")},
        {"X-Hub-Signature-256": "sha1=" + hmac.new(SECRET.encode(), PUSH, hashlib.sha1).hexdigest()},
        {"X-Hub-Signature-256": github_signature(PUSH).removeprefix("sha256=")},
        {"X-Hub-Signature-256": ""},
        {"X-Gitlab-Token": "wrong-secret"},
        {"X-Gitlab-Token": ""},
        {"X-Gitlab-Token": SECRET[:-1]},
    ],
    ids=[
        "none",
        "other-secret",
        "other-body",
        "sha1",
        "no-scheme",
        "empty",
        "gitlab-wrong",
        "gitlab-empty",
        "gitlab-prefix",
    ],
)
async def test_a_bad_or_missing_signature_is_refused(
    tmp_path: Path, fake_slack: FakeSlack, wiki, headers
) -> None:
    remote = Remote(tmp_path / "git", SMALL_VAULT)
    sync = GitSync(remote.url, tmp_path / "vault")
    await sync.start()
    async with running_bot(
        tmp_path, fake_slack, wiki, sync=sync, wiki_git_url=remote.url, wiki_git_webhook_secret=SECRET
    ) as bot:
        status, body = await post_hook(bot, PUSH, headers)
    assert status == 401 and body == {"error": "bad or missing signature"}
    assert not sync.fetch_requested


async def test_no_webhook_without_a_secret(tmp_path: Path, fake_slack: FakeSlack, wiki) -> None:
    remote = Remote(tmp_path / "git", SMALL_VAULT)
    sync = GitSync(remote.url, tmp_path / "vault")
    await sync.start()
    async with running_bot(tmp_path, fake_slack, wiki, sync=sync, wiki_git_url=remote.url) as bot:
        status, _ = await post_hook(bot, PUSH, {"X-Hub-Signature-256": github_signature(PUSH)})
    assert status in (404, 405)
    assert not sync.fetch_requested


async def test_refused_webhooks_are_logged_once_a_minute_not_each(
    tmp_path: Path, fake_slack: FakeSlack, wiki, caplog
) -> None:
    url = "https://git.example/wiki.git"
    sync = GitSync(url, tmp_path / "vault")
    settings = {"wiki_git_url": url, "wiki_git_webhook_secret": SECRET}
    async with running_bot(tmp_path, fake_slack, wiki, sync=sync, **settings) as bot:
        for _ in range(20):
            status, _ = await post_hook(bot, PUSH, {"X-Hub-Signature-256": github_signature(PUSH, "wrong")})
            assert status == 401
    refusals = [r for r in caplog.records if "refused a git webhook" in r.getMessage()]
    assert len(refusals) == 1 and refusals[0].levelno == logging.WARNING


async def test_a_push_body_sent_a_byte_at_a_time_is_dropped(
    tmp_path: Path, fake_slack: FakeSlack, wiki
) -> None:
    url = "https://git.example/wiki.git"
    short = HttpTimeouts(idle_s=5.0, body_s=1.0, linger_s=0.5)
    sync = GitSync(url, tmp_path / "vault")
    settings = {"wiki_git_url": url, "wiki_git_webhook_secret": SECRET}
    async with running_bot(tmp_path, fake_slack, wiki, sync=sync, timeouts=short, **settings) as bot:
        start = f"POST {GIT_HOOK_PATH} HTTP/1.1\r\nHost: sakuin\r\nContent-Length: 100000\r\n\r\n"
        took, answer = await dribble_until_closed(bot.base_url, start)
    assert answer.startswith(b"HTTP/1.1 408") and took < short.body_s + short.linger_s + 1.0
    assert not sync.fetch_requested


async def test_healthz_shows_the_checkout_and_a_failing_remote_without_its_token(
    tmp_path: Path, fake_slack: FakeSlack, wiki
) -> None:
    remote = Remote(tmp_path / "git", SMALL_VAULT)
    vault = tmp_path / "vault"
    await GitSync(remote.url, vault).start()
    url = f"https://x-access-token:s3cr3t-token-value@127.0.0.1:{closed_port()}/team/wiki.git"
    sync = GitSync(url, vault)
    await sync.start()  # the checkout is served as it is
    assert await sync.fetch() is False  # and its fetch fails
    async with running_bot(tmp_path, fake_slack, wiki, sync=sync, wiki_git_url=url) as bot:
        status, body = await bot.get("/healthz")
    assert status == 200
    git = body["git"]
    assert git["remote"] == f"https://x-access-token:***@127.0.0.1:{url.split(':')[3]}"
    assert git["commit"] == remote.head() and git["branch"] == "main" and git["failures"] == 1
    assert git["error"].startswith("git fetch: ")
    assert "s3cr3t" not in json.dumps(body)


@pytest.mark.parametrize("secret", ["", "  "])
async def test_a_blank_secret_turns_no_webhook_on(
    tmp_path: Path, fake_slack: FakeSlack, wiki, secret: str
) -> None:
    remote = Remote(tmp_path / "git", SMALL_VAULT)
    sync = GitSync(remote.url, tmp_path / "vault")
    await sync.start()
    async with running_bot(
        tmp_path, fake_slack, wiki, sync=sync, wiki_git_url=remote.url, wiki_git_webhook_secret=secret
    ) as bot:
        for headers in (
            {"X-Gitlab-Token": secret},
            {"X-Hub-Signature-256": github_signature(PUSH, secret)},
        ):
            status, _ = await post_hook(bot, PUSH, headers)
            assert status in (404, 405)
    assert not sync.fetch_requested


@pytest.mark.parametrize("secret", ["", "  "])
async def test_the_webhook_handler_refuses_an_empty_secret(tmp_path: Path, secret: str) -> None:
    sync = GitSync(Remote(tmp_path / "git", SMALL_VAULT).url, tmp_path / "vault")
    with pytest.raises(ValueError, match="non-empty secret"):
        git_webhook(secret, sync)
