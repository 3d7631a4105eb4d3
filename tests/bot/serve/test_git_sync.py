"""The vault from git, against real repositories on disk (a bare remote, ``file://`` URLs)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import signal
import socket
import subprocess
import sys
import urllib.request
import uuid
from pathlib import Path

import pytest

from bot.serve.git_sync import GitError, GitSync
from bot.serve.server import HEALTH_PATH
from config.settings import GIT_VAULT
from tests.bot.conftest import BOT_TOKEN, SIGNING_SECRET, running_bot
from tests.bot.fake_slack import FakeSlack
from tests.bot.git_remote import GitHttp, Remote, git, processes_holding, silent_remote
from tests.conftest import REPO, eventually
from tests.postgres import free_port
from tests.vaults import SMALL_VAULT, entity

NEW_PAGE = "wiki/entities/Volcano Engine.md"
CLI = "import sys; from bot.cli import main; raise SystemExit(main(sys.argv[1:]))"


@pytest.fixture
def remote(tmp_path: Path) -> Remote:
    return Remote(tmp_path, SMALL_VAULT)


def closed_port() -> int:
    """A localhost port nobody listens on (connections are refused at once)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


async def test_clones_the_default_branch_into_a_missing_folder(remote: Remote, tmp_path: Path) -> None:
    vault = tmp_path / "deploy" / "vault"
    sync = GitSync(remote.url, vault)
    await sync.start()
    assert (vault / "wiki/entities/ByteDance.md").read_text(encoding="utf-8") == SMALL_VAULT[
        "wiki/entities/ByteDance.md"
    ]
    status = sync.status()
    assert (status.commit, status.branch, status.error, status.failures) == (remote.head(), "main", None, 0)
    assert git(vault, "rev-parse", "--is-shallow-repository") == "true"


async def test_clones_into_the_default_relative_folder(remote: Remote, tmp_path: Path) -> None:
    sync = GitSync(remote.url, GIT_VAULT)  # the tests run in tmp_path, as a service in its folder
    await sync.start()
    assert (tmp_path / GIT_VAULT / "wiki/entities/ByteDance.md").exists()
    assert await sync.fetch() is False


async def test_follows_pushes_additions_and_deletions(remote: Remote, tmp_path: Path) -> None:
    vault = tmp_path / "vault"
    sync = GitSync(remote.url, vault)
    await sync.start()
    assert await sync.fetch() is False

    head = remote.commit({NEW_PAGE: entity("Volcano Engine")}, "add Volcano Engine")
    assert await sync.fetch() is True
    assert (vault / NEW_PAGE).exists()
    assert sync.status().commit == head

    head = remote.remove("wiki/entities/Minder.md", "remove Minder")
    assert await sync.fetch() is True
    assert not (vault / "wiki/entities/Minder.md").exists()
    assert sync.status().commit == head


async def test_a_force_push_resets_the_checkout_to_the_remote(remote: Remote, tmp_path: Path) -> None:
    vault = tmp_path / "vault"
    remote.commit({NEW_PAGE: entity("Volcano Engine", body="first text")}, "add")
    sync = GitSync(remote.url, vault)
    await sync.start()
    (vault / "wiki/entities/ByteDance.md").write_text("edited on the server by hand", encoding="utf-8")

    head = remote.rewrite({NEW_PAGE: entity("Volcano Engine", body="rewritten text")}, "add, rewritten")
    assert await sync.fetch() is True
    assert "rewritten text" in (vault / NEW_PAGE).read_text(encoding="utf-8")
    assert git(vault, "rev-parse", "HEAD") == head
    assert git(vault, "status", "--porcelain") == ""  # local edits never merged, never kept


async def test_follows_the_configured_branch_only(remote: Remote, tmp_path: Path) -> None:
    remote.commit({NEW_PAGE: entity("Volcano Engine")}, "on wiki branch", push=False)
    remote.push(branch="published")
    vault = tmp_path / "vault"
    sync = GitSync(remote.url, vault, branch="published")
    await sync.start()
    assert (vault / NEW_PAGE).exists()
    assert sync.status().branch == "published"

    git(remote.work, "checkout", "--quiet", "-b", "scratch")
    remote.commit({"wiki/entities/Draft.md": entity("Draft")}, "draft", push=False)
    remote.push(branch="main")
    assert await sync.fetch() is False
    assert not (vault / "wiki/entities/Draft.md").exists()


async def stop(task: asyncio.Task[None]) -> None:
    task.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await asyncio.wait_for(task, 10)


async def test_a_restart_serves_the_existing_checkout_and_fetches(remote: Remote, tmp_path: Path) -> None:
    vault = tmp_path / "vault"
    await GitSync(remote.url, vault).start()
    old = remote.head()
    head = remote.commit({NEW_PAGE: entity("Volcano Engine")}, "while the bot was down")
    restarted = GitSync(remote.url, vault, interval=300)
    await restarted.start()  # serves the checkout as it is; the fetch is follow's, at once
    assert restarted.status().commit == old and restarted.fetches == 0
    follow = asyncio.create_task(restarted.follow())
    try:
        await eventually(lambda: restarted.status().commit == head, what="the first fetch")
    finally:
        await stop(follow)
    assert restarted.fetches == 1
    assert (vault / NEW_PAGE).exists()


async def test_a_remote_that_never_answers_is_timed_out_reported_and_retried(
    remote: Remote, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """`git fetch` of an http remote runs `git remote-http`, which holds git's output pipes: the
    timeout must end both (the whole process group), or the fetch waits for ever."""
    vault = tmp_path / "vault"
    await GitSync(remote.url, vault).start()
    with silent_remote() as url:
        sync = GitSync(url, vault, retry_base_s=0.01, fetch_timeout_s=1)
        await sync.start()
        with caplog.at_level(logging.ERROR, logger="sakuin.git"):
            follow = asyncio.create_task(sync.follow())
            try:
                await eventually(
                    lambda: sync.status().failures >= 2, timeout=20, what="two fetches to time out"
                )
            finally:
                await stop(follow)
            assert processes_holding(url) == []  # timed out, or cancelled mid-retry: the group is gone
        status = sync.status()
        assert status.error == "git fetch timed out after 1 s"
        assert status.commit == remote.head()
        assert "git fetch timed out after 1 s" in caplog.text and "still serving" in caplog.text


async def test_healthz_shows_a_fetch_that_timed_out(
    remote: Remote, tmp_path: Path, fake_slack: FakeSlack, wiki
) -> None:
    vault = tmp_path / "vault"
    await GitSync(remote.url, vault).start()
    with silent_remote() as url:
        sync = GitSync(url, vault, fetch_timeout_s=1)
        await sync.start()
        async with running_bot(tmp_path, fake_slack, wiki, sync=sync, wiki_git_url=url) as bot:
            assert await asyncio.wait_for(sync.fetch(), 20) is False
            status, body = await bot.get(HEALTH_PATH)
        assert processes_holding(url) == []
    assert status == 200
    assert body["git"]["error"] == "git fetch timed out after 1 s"
    assert body["git"]["failures"] == sync.fetches >= 1  # each fetch timed out, and counted
    assert body["git"]["commit"] == remote.head()


async def test_serve_restarts_at_once_over_a_hanging_remote_and_leaves_no_git_behind(
    remote: Remote, tmp_path: Path
) -> None:
    """A real `sakuin serve` over an existing checkout whose remote hangs: HTTP answers at once with
    the checkout while the fetch goes on behind it, and SIGTERM ends that fetch's git too."""
    vault = tmp_path / "vault"
    await GitSync(remote.url, vault).start()
    port = free_port()
    with silent_remote() as url, (tmp_path / "serve.log").open("wb") as log_file:
        env = {
            **os.environ,
            "PYTHONPATH": str(REPO),
            "SLACK_BOT_TOKEN": BOT_TOKEN,
            "SLACK_SIGNING_SECRET": SIGNING_SECRET,
            "WIKI_GIT_URL": url,
            "WIKI_DIR": str(vault),
            "PORT": str(port),
            "HOST": "127.0.0.1",
        }
        process = await asyncio.create_subprocess_exec(
            sys.executable, "-c", CLI, "serve",
            cwd=tmp_path, env=env, stdin=subprocess.DEVNULL, stdout=log_file, stderr=log_file,
        )  # fmt: skip
        health: list[dict] = []

        def answers() -> bool:
            if process.returncode is not None:
                raise AssertionError("serve exited:\n" + (tmp_path / "serve.log").read_text())
            address = f"http://127.0.0.1:{port}{HEALTH_PATH}"
            with contextlib.suppress(OSError), urllib.request.urlopen(address, timeout=1) as response:
                health.append(json.load(response))
            return bool(health)

        try:
            await eventually(answers, timeout=20, what="serve to answer /healthz")
            await eventually(lambda: processes_holding(url), what="the fetch to run behind the server")
            process.send_signal(signal.SIGTERM)
            code = await asyncio.wait_for(process.wait(), 20)
        finally:
            if process.returncode is None:
                process.kill()
                await process.wait()
        assert processes_holding(url) == []
    assert code == 0
    assert health[0]["git"]["commit"] == remote.head() and health[0]["git"]["error"] is None


async def test_a_failing_remote_keeps_the_last_checkout_and_recovers(
    remote: Remote, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    vault = tmp_path / "vault"
    sync = GitSync(remote.url, vault, interval=300, retry_base_s=5)
    await sync.start()
    good = sync.status().commit
    remote.commit({NEW_PAGE: entity("Volcano Engine")}, "pushed while the remote is unreachable")
    moved = remote.bare.rename(tmp_path / "elsewhere.git")

    with caplog.at_level(logging.ERROR, logger="sakuin.git"):
        assert await sync.fetch() is False
        assert await sync.fetch() is False
    status = sync.status()
    assert status.commit == good and status.failures == 2
    assert status.error and "git fetch" in status.error and "remote.git" in status.error
    assert (vault / "wiki/entities/ByteDance.md").exists() and not (vault / NEW_PAGE).exists()
    assert any(
        "fetching" in record.getMessage() and "still serving" in record.getMessage()
        for record in caplog.records
    )
    assert sync._retry_wait() == 10  # back-off: 5 s, then 10 s

    moved.rename(remote.bare)
    assert await sync.fetch() is True
    status = sync.status()
    assert (status.error, status.failures, status.commit) == (None, 0, remote.head())


@pytest.mark.parametrize(
    ("failures", "interval", "base", "wait"),
    [
        (0, 300, 5, 5),
        (1, 300, 5, 5),
        (2, 300, 5, 10),
        (4, 300, 5, 40),
        (8, 300, 5, 600),  # capped at RETRY_MAX_S
        (20, 3600, 5, 3600),  # a longer interval is the cap
    ],
)
def test_retry_back_off(failures: int, interval: float, base: float, wait: float) -> None:
    sync = GitSync("file:///nowhere", Path("unused"), interval=interval, retry_base_s=base)
    sync._failures = failures
    assert sync._retry_wait() == wait


@pytest.mark.parametrize(
    "userinfo",
    ["x-access-token:s3cr3t-token-value", "oauth2:s3cr3t-token-value", "s3cr3t-token-value"],
)
async def test_a_token_in_the_url_never_shows(
    userinfo: str, remote: Remote, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    url = f"https://{userinfo}@127.0.0.1:{closed_port()}/team/wiki.git"
    with caplog.at_level(logging.DEBUG):
        sync = GitSync(url, tmp_path / "fresh", retry_base_s=0.01)
        with pytest.raises(GitError) as raised:
            await sync.start()
        # A checkout whose remote has become unreachable: the fetch error is recorded, not raised.
        await GitSync(remote.url, tmp_path / "vault").start()
        broken = GitSync(url, tmp_path / "vault")
        assert await broken.fetch() is False
    shown = [str(raised.value), repr(sync.status()), repr(broken.status()), caplog.text, sync.remote]
    assert all("s3cr3t" not in text for text in shown), shown
    assert "127.0.0.1" in str(raised.value) and "***" in sync.remote
    assert broken.status().error and "s3cr3t" not in broken.status().error
    assert "s3cr3t" not in (tmp_path / "vault/.git/config").read_text()


async def test_refuses_to_clone_over_a_folder_that_is_not_a_checkout(remote: Remote, tmp_path: Path) -> None:
    vault = tmp_path / "vault"
    (vault / "notes").mkdir(parents=True)
    (vault / "notes/mine.md").write_text("# mine", encoding="utf-8")
    with pytest.raises(GitError, match="not empty and not a git checkout"):
        await GitSync(remote.url, vault).start()
    assert (vault / "notes/mine.md").exists()


@pytest.mark.parametrize("user", ["x-access-token", "oauth2"])
async def test_the_token_goes_to_the_server_and_never_on_a_command_line(
    user: str, remote: Remote, tmp_path: Path
) -> None:
    token = f"s3cr3t-{uuid.uuid4().hex}"
    async with GitHttp(remote, user, token) as server:
        vault = tmp_path / "vault"
        sync = GitSync(server.url, vault)
        await sync.start()
        assert sync.status().commit == remote.head()
        head = remote.commit({NEW_PAGE: entity("Volcano Engine")}, "add Volcano Engine")
        assert await sync.fetch() is True and (vault / NEW_PAGE).exists()
        assert await sync.remote_tip() == ("main", head)
    assert server.authorized >= 3 and server.exposed == []
    assert token not in (vault / ".git/config").read_text()


async def test_a_refused_token_is_an_error_without_it(remote: Remote, tmp_path: Path) -> None:
    token = f"s3cr3t-{uuid.uuid4().hex}"
    async with GitHttp(remote, "x-access-token", "the-right-token", watch=(token,)) as server:
        url = server.url.replace("the-right-token", token)
        with pytest.raises(GitError) as raised:
            await GitSync(url, tmp_path / "vault", retry_base_s=0.01).start()
    assert server.refused >= 1 and server.authorized == 0 and server.exposed == []
    assert token not in str(raised.value) and "127.0.0.1" in str(raised.value)
