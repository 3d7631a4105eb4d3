"""``sakuin doctor``'s ``inbox`` check: can a question filed in the wiki's inbox land?

With ``WIKI_GIT_URL``: the push branch is reachable with the token and accepts a push (``git push
--dry-run`` of the tracked branch's tip, which asks the server for write access and writes
nothing). Without: the vault's inbox folder (``WIKI_INBOX_DIR``) is a folder, not a link, and
writable (or can be made).
"""

from __future__ import annotations

import asyncio
import os
import tempfile
from pathlib import Path

from bot.cli.doctor_report import Check
from bot.i18n import _
from bot.serve.git_sync import GitError, GitSync
from bot.serve.inbox_git import InboxBranch
from config.settings import Settings

NAME = "inbox"


async def check_inbox(settings: Settings) -> Check:
    if settings.wiki_git_url is not None:
        return await check_push_branch(settings)
    return await asyncio.to_thread(check_inbox_folder, settings.wiki_dir, settings.wiki_inbox_dir)


async def check_push_branch(settings: Settings) -> Check:
    branch = InboxBranch.from_settings(settings)
    try:
        exists, base, commit = await branch.reachable()
        with tempfile.TemporaryDirectory(prefix="sakuin-doctor-") as scratch:
            await dry_run_push(settings, Path(scratch))
    except GitError as error:
        return Check(
            NAME,
            False,
            _(
                "{remote}: {error}: the token in WIKI_GIT_URL needs write access to push requests to"
                " {branch} (WIKI_INBOX_BRANCH)"
            ).format(remote=branch.git.remote, error=error, branch=settings.wiki_inbox_branch),
        )
    if exists:
        detail = _("requests are pushed to {branch} of {remote} (at {commit})")
    else:
        detail = _("requests are pushed to {branch} of {remote} (made from {base} by the first request)")
    return Check(
        NAME,
        True,
        detail.format(
            branch=settings.wiki_inbox_branch, remote=branch.git.remote, commit=commit[:10], base=base
        ),
    )


async def dry_run_push(settings: Settings, scratch: Path) -> None:
    """Fetch the tracked branch's tip into ``scratch`` and push it to the inbox branch, dry."""
    assert settings.wiki_git_url is not None
    git = GitSync(settings.wiki_git_url, scratch, branch=settings.wiki_git_branch)
    await git.run("init", "--quiet")
    ref = f"refs/heads/{settings.wiki_git_branch}" if settings.wiki_git_branch else "HEAD"
    await git.run("fetch", "--depth", "1", "--no-tags", "--quiet", "--", git.command_url, ref, timeout=120)
    await git.run(
        "push", "--dry-run", "--quiet", "--no-verify", "--", git.command_url,
        f"FETCH_HEAD:refs/heads/{settings.wiki_inbox_branch}-sakuin-doctor",
        timeout=120,
    )  # fmt: skip


def check_inbox_folder(wiki_dir: Path, inbox_dir: str) -> Check:
    folder = wiki_dir
    for part in Path(inbox_dir).parts:
        folder = folder / part
        if folder.is_symlink() or (folder.exists() and not folder.is_dir()):
            return Check(
                NAME, False, _("{folder} is not a folder (a link?): set WIKI_INBOX_DIR").format(folder=folder)
            )
        if not folder.exists():
            break
    writable = folder if folder.exists() else _existing_parent(folder)
    if not os.access(writable, os.W_OK | os.X_OK):
        return Check(
            NAME,
            False,
            _("{folder} is not writable: requests cannot be filed in the vault").format(folder=writable),
        )
    return Check(NAME, True, _("requests are written into {folder}").format(folder=wiki_dir / inbox_dir))


def _existing_parent(path: Path) -> Path:
    while not path.exists() and path != path.parent:
        path = path.parent
    return path
