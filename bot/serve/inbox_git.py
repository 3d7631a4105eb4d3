"""The wiki's inbox on a git branch (``WIKI_GIT_URL``): requests' files committed and pushed to
``WIKI_INBOX_BRANCH`` (default ``sakuin/inbox``; the tracked branch only if a team sets it so).

The push is made from a checkout of sakuin's own, beside the index (never the vault's checkout,
which is a mirror of the tracked branch): sparse, so only the inbox folder (and the root's files)
is ever written to disk, shallow, fetched afresh before each commit. A branch that does not exist
yet starts from the tracked branch's tip. A push that loses a race (another replica, an agent
pushed first) is fetched and made again; any other failure raises, and the inbox retries later.

git runs as the vault's fetch runs it (`bot.serve.git_sync.GitSync`): the same URL and token, the token
in git's environment and never on its command line, each command in its own process group with a
timeout, killed with its helpers.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from datetime import tzinfo
from pathlib import Path

from bot.loop.inbox import InboxWriter, VaultFolder, Where, write_request_file
from bot.serve.git_sync import FETCH_TIMEOUT_S, GitError, GitSync
from bot.state.requests import InboxRequest
from config.settings import Settings

PUSH_RACES = 3
"""How many times a push rejected because the branch moved is fetched and made again."""
AUTHOR = ("sakuin", "sakuin@users.noreply.invalid")
REJECTED = ("rejected", "non-fast-forward", "fetch first", "failed to update ref", "cannot lock ref")


class InboxBranch:
    def __init__(
        self,
        url: str,
        directory: Path,
        branch: str,
        inbox_dir: str,
        zone: tzinfo,
        *,
        base_branch: str | None = None,
        timeout_s: float = FETCH_TIMEOUT_S,
    ) -> None:
        self.git = GitSync(url, directory, branch=branch, fetch_timeout_s=timeout_s)
        self.directory = Path(directory)
        self.branch = branch
        self.base_branch = base_branch
        self.inbox_dir = inbox_dir
        self.zone = zone
        self.timeout_s = timeout_s
        self._lock = asyncio.Lock()

    @classmethod
    def from_settings(cls, settings: Settings) -> InboxBranch:
        assert settings.wiki_git_url is not None
        return cls(
            settings.wiki_git_url,
            inbox_checkout(settings),
            settings.wiki_inbox_branch,
            settings.wiki_inbox_dir,
            settings.zone,
            base_branch=settings.wiki_git_branch,
        )

    @property
    def where(self) -> Where:
        return Where(self.inbox_dir, self.branch, self.git.remote)

    async def deliver(self, requests: Sequence[InboxRequest]) -> None:
        async with self._lock:
            await self._prepare()
            for attempt in range(1, PUSH_RACES + 1):
                await self._check_out_tip()
                if not await asyncio.to_thread(self._write, requests):
                    return  # every file is there already (an earlier push that was not recorded)
                await self.git.run("add", "--all", "--", self.inbox_dir)
                if not await self.git.run("status", "--porcelain", "--", self.inbox_dir):
                    return
                await self.git.run("commit", "--quiet", "--no-verify", "-m", commit_message(requests))
                try:
                    await self.git.run(
                        "push", "--quiet", "--no-verify", "--", self.git.command_url,
                        f"HEAD:refs/heads/{self.branch}",
                        timeout=self.timeout_s,
                    )  # fmt: skip
                    return
                except GitError as error:
                    if attempt == PUSH_RACES or not any(word in str(error) for word in REJECTED):
                        raise

    async def reachable(self) -> tuple[bool, str, str]:
        """For ``sakuin doctor``: whether the push branch exists, and the branch requests start from
        (itself, or the tracked branch when it does not exist yet) with its tip; GitError when the
        remote cannot be reached with the token."""
        try:
            branch, commit = await self.git.remote_tip()
            return True, branch, commit
        except GitError as error:
            if not str(error).startswith("no branch"):
                raise
        base = GitSync(self.git.url, self.directory, branch=self.base_branch, fetch_timeout_s=self.timeout_s)
        branch, commit = await base.remote_tip()
        return False, branch, commit

    async def _prepare(self) -> None:
        if (self.directory / ".git").is_dir():
            return
        self.directory.mkdir(parents=True, exist_ok=True)
        await self.git.run("init", "--quiet")
        await self.git.run("config", "user.name", AUTHOR[0])
        await self.git.run("config", "user.email", AUTHOR[1])
        await self.git.run("config", "commit.gpgSign", "false")
        await self.git.run("sparse-checkout", "set", self.inbox_dir.rstrip("/"))

    async def _check_out_tip(self) -> None:
        """The inbox branch's tip (or the tracked branch's, when it does not exist yet), checked out
        clean."""
        try:
            await self.git.remote_tip()
            ref = f"refs/heads/{self.branch}"
        except GitError as error:
            if not str(error).startswith("no branch"):
                raise
            ref = f"refs/heads/{self.base_branch}" if self.base_branch else "HEAD"
        await self.git.run(
            "fetch", "--depth", "1", "--no-tags", "--quiet", "--", self.git.command_url, ref,
            timeout=self.timeout_s,
        )  # fmt: skip
        await self.git.run("checkout", "--quiet", "--force", "--detach", "FETCH_HEAD")
        await self.git.run("clean", "--quiet", "-d", "--force", "--", self.inbox_dir)

    def _write(self, requests: Sequence[InboxRequest]) -> bool:
        written = False
        for request in requests:
            written = write_request_file(self.directory, request, self.zone) or written
        return written


def commit_message(requests: Sequence[InboxRequest]) -> str:
    answered = [request for request in requests if request.status == "answered"]
    filed = [request for request in requests if request.status != "answered"]
    lines = []
    if filed:
        lines.append(f"sakuin: {len(filed)} question(s) for the wiki")
    if answered:
        lines.append(f"sakuin: {len(answered)} question(s) now answered by the wiki")
    body = [f"- {request.file}" for request in requests]
    return "\n".join([" / ".join(lines), "", *body])


def inbox_checkout(settings: Settings) -> Path:
    """sakuin's own checkout of the inbox branch: beside the index (a cache; the state store keeps
    every request until it landed)."""
    index = settings.index_dir
    return index.parent / f"{index.name}.inbox-git"


def inbox_writer(settings: Settings) -> InboxWriter:
    """The git branch with ``WIKI_GIT_URL``, else the vault's own inbox folder."""
    if settings.wiki_git_url is not None:
        return InboxBranch.from_settings(settings)
    return VaultFolder(settings.wiki_dir, settings.wiki_inbox_dir, settings.zone)
