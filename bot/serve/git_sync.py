"""The vault from git (``WIKI_GIT_URL``): cloned at start, kept current while the bot runs.

The git command line does the work, each command an asyncio subprocess (never blocking the event
loop) in its own session with no terminal, so git and ssh can never stop to ask for a password.

- **Start.** An empty or missing ``WIKI_DIR`` gets a shallow clone of the branch (``WIKI_GIT_BRANCH``,
  else the remote's default); an existing checkout there (a restart) is served at once and fetched
  in the background.
  The URL kept in the checkout's ``.git/config`` is the redacted one: the token stays in memory.
- **Follow.** Every ``WIKI_GIT_INTERVAL`` seconds, or at once when the push webhook asks
  (`request_fetch`), the branch tip is fetched and the work tree reset to it. Nothing is ever
  merged: the checkout is a mirror, a fast-forward moves it on and a force-push replaces it. The
  live index (bot/serve/freshness.py) sees the files change as it sees local saves.
- **Failures** (remote down, auth refused, timeout) are logged with git's reason, shown in
  ``/healthz`` and retried with back-off; the last good checkout keeps serving meanwhile. A command
  that times out (or is cancelled) is killed with its whole process group, helpers included.
- **Credentials** in the URL never reach a log line, ``/healthz``, an error message or a command
  line (which every user of the machine can read): git is given the URL without them, and an https
  token as an ``Authorization`` header in its environment (config/credentials.py).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import signal
import time
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from config.credentials import git_command_url, git_environment, redact_text, redact_url
from config.settings import Settings

log = logging.getLogger("sakuin.git")

CLONE_TIMEOUT_S = 300.0
FETCH_TIMEOUT_S = 120.0
LOCAL_TIMEOUT_S = 30.0
"""For commands that never leave the machine (rev-parse, reset)."""
KILL_GRACE_S = 5.0
"""How long a killed git's exit is waited for."""
RETRY_BASE_S = 5.0
"""The first retry after a failed fetch; each further failure doubles the wait."""
RETRY_MAX_S = 600.0
"""Retries of a failing remote are never further apart than this (or the interval, if longer)."""
CLONE_ATTEMPTS = 4
"""A start with no checkout to serve tries this many clones (waits of 5, 10, 20 s) before giving up."""


class GitError(Exception):
    """A git command failed; the message is git's reason with every credential redacted."""


@dataclass(frozen=True)
class GitStatus:
    """What ``/healthz`` shows of the vault's checkout."""

    remote: str
    """The URL, redacted."""
    branch: str | None
    """The branch followed; None while it is the remote's default and nothing was cloned yet."""
    commit: str | None
    """The commit the work tree is at (the last good checkout)."""
    checked_at: str | None
    """When the remote was last fetched successfully (ISO 8601, UTC)."""
    updated_at: str | None
    """When the work tree last moved to a new commit."""
    error: str | None
    """The reason the last fetch failed, until one succeeds."""
    failures: int
    """Fetches failed in a row."""

    def as_json(self) -> dict[str, object]:
        return {
            "remote": self.remote,
            "branch": self.branch,
            "commit": self.commit,
            "checked_at": self.checked_at,
            "updated_at": self.updated_at,
            "error": self.error,
            "failures": self.failures,
        }


class GitSync:
    """One vault checkout following one remote branch."""

    def __init__(
        self,
        url: str,
        directory: Path,
        *,
        branch: str | None = None,
        interval: float = 300.0,
        retry_base_s: float = RETRY_BASE_S,
        fetch_timeout_s: float = FETCH_TIMEOUT_S,
    ) -> None:
        self.url = str(url)
        self._command_url = git_command_url(self.url)
        self._environment = git_environment(self.url)
        self.directory = Path(directory)
        self.branch = branch
        self.interval = interval
        self.retry_base_s = retry_base_s
        self.fetch_timeout_s = fetch_timeout_s
        self._commit: str | None = None
        self._checked_at: str | None = None
        self._updated_at: str | None = None
        self._error: str | None = None
        self._failures = 0
        self._fetching = asyncio.Lock()
        self._again = False
        self._wake = asyncio.Event()
        self.fetches = 0
        """Fetches attempted (successful or not), for tests and logs."""

    @classmethod
    def from_settings(cls, settings: Settings) -> GitSync | None:
        if settings.wiki_git_url is None:
            return None
        return cls(
            settings.wiki_git_url,
            settings.wiki_dir,
            branch=settings.wiki_git_branch,
            interval=settings.wiki_git_interval,
        )

    @property
    def remote(self) -> str:
        return redact_url(self.url)

    def status(self) -> GitStatus:
        return GitStatus(
            remote=self.remote,
            branch=self.branch,
            commit=self._commit,
            checked_at=self._checked_at,
            updated_at=self._updated_at,
            error=self._error,
            failures=self._failures,
        )

    # -- start ----------------------------------------------------------------------------

    async def start(self) -> None:
        """Make ``directory`` a checkout of the branch; raises GitError when there is none to serve.

        An existing checkout is served as it is, at once: `follow` fetches it first thing (a remote
        that is slow or hangs never holds the start up). Otherwise the clone is tried
        ``CLONE_ATTEMPTS`` times with back-off.
        """
        if await self._is_checkout():
            self._commit = await self._head()
            self.branch = self.branch or await self._current_branch()
            log.info("vault checkout %s at %s (%s)", self.directory, _short(self._commit), self.remote)
            return
        if self.directory.exists() and any(self.directory.iterdir()):
            raise GitError(
                f"WIKI_DIR {self.directory} is not empty and not a git checkout: point WIKI_DIR at an"
                " empty or missing folder for the clone of WIKI_GIT_URL"
            )
        for attempt in range(1, CLONE_ATTEMPTS + 1):
            try:
                await self._clone()
                return
            except GitError as error:
                self._record_failure(str(error))
                if attempt == CLONE_ATTEMPTS:
                    raise GitError(f"could not clone {self.remote}: {error}") from None
                wait = self._retry_wait()
                log.error(
                    "cloning %s failed (attempt %d), retrying in %.0f s: %s",
                    self.remote,
                    attempt,
                    wait,
                    error,
                )
                await asyncio.sleep(wait)

    async def _clone(self) -> None:
        self.directory.parent.mkdir(parents=True, exist_ok=True)
        branch = ["--branch", self.branch] if self.branch else []
        started = time.monotonic()
        target = str(self.directory.absolute())
        await self._git(
            "clone", "--depth", "1", "--no-tags", "--quiet", *branch, "--", self._command_url, target,
            cwd=self.directory.parent, timeout=CLONE_TIMEOUT_S,
        )  # fmt: skip
        # Keep the token out of the checkout's config: every fetch names the URL (and gets the token
        # from the environment).
        await self._git("remote", "set-url", "origin", self.remote)
        self._commit = await self._head()
        self.branch = self.branch or await self._current_branch()
        now = _now()
        self._checked_at = self._updated_at = now
        self._error, self._failures = None, 0
        log.info(
            "cloned %s (%s) into %s at %s in %.1f s",
            self.remote,
            self.branch,
            self.directory,
            _short(self._commit),
            time.monotonic() - started,
        )

    # -- following ------------------------------------------------------------------------

    def request_fetch(self) -> None:
        """Fetch as soon as possible (the push webhook); returns at once."""
        self._wake.set()

    @property
    def fetch_requested(self) -> bool:
        """A fetch was asked for and `follow` has not started it yet."""
        return self._wake.is_set()

    async def follow(self) -> None:
        """Fetch every ``interval`` seconds, or when asked, forever (run as a background task); at
        once when the checkout was never fetched (a restart), after the back-off when it failed."""
        while True:
            if self._failures:
                wait = self._retry_wait()
            elif self._checked_at is None:
                wait = 0.0
            else:
                wait = self.interval
            # Not asyncio.wait_for: on Python 3.11 it swallows a cancellation that comes as the
            # event is set, and this loop would never end.
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(wait):
                    await self._wake.wait()
            self._wake.clear()
            await self.fetch()

    async def fetch(self) -> bool:
        """Bring the work tree to the remote branch's tip; True when it moved.

        Never raises for a git failure: it is logged and recorded, and the checkout stays as it
        was. Calls while a fetch runs are coalesced into one more fetch after it.
        """
        if self._fetching.locked():
            self._again = True
            async with self._fetching:
                return False
        async with self._fetching:
            moved = False
            self._again = True
            while self._again:
                self._again = False
                moved = await self._fetch_once() or moved
            return moved

    async def _fetch_once(self) -> bool:
        self.fetches += 1
        try:
            await self._git(
                "fetch", "--depth", "1", "--no-tags", "--quiet", "--", self._command_url,
                self.branch or "HEAD",
                timeout=self.fetch_timeout_s,
            )  # fmt: skip
            tip = await self._rev_parse("FETCH_HEAD")
            old = self._commit
            if tip != old:
                await self._git("reset", "--hard", "--quiet", tip)
                self._commit = tip
                self._updated_at = _now()
                log.info("vault updated from %s: %s -> %s", self.remote, _short(old), _short(tip))
        except GitError as error:
            self._record_failure(str(error))
            log.error(
                "fetching %s failed (%d in a row), retrying in %.0f s; still serving %s: %s",
                self.remote,
                self._failures,
                self._retry_wait(),
                _short(self._commit),
                error,
            )
            return False
        if self._failures:
            log.info("fetching %s works again after %d failure(s)", self.remote, self._failures)
        self._checked_at = _now()
        self._error, self._failures = None, 0
        return tip != old

    def _record_failure(self, reason: str) -> None:
        self._failures += 1
        self._error = reason

    def _retry_wait(self) -> float:
        """Back-off after ``_failures`` failures in a row: base, doubled each time, capped."""
        cap = max(self.interval, RETRY_MAX_S)
        return min(self.retry_base_s * 2 ** max(self._failures - 1, 0), cap)

    async def remote_tip(self) -> tuple[str, str]:
        """The branch followed and its tip on the remote (``git ls-remote``), without a checkout;
        GitError when the remote cannot be reached or has no such branch (``sakuin doctor``)."""
        ref = f"refs/heads/{self.branch}" if self.branch else "HEAD"
        listing = await self._git(
            "ls-remote", "--symref", "--", self._command_url, ref,
            cwd=Path.cwd(), timeout=self.fetch_timeout_s,
        )  # fmt: skip
        branch, commit = self.branch, None
        for line in listing.splitlines():
            name, _, target = line.partition("\t")
            if name.startswith("ref: "):
                branch = name.removeprefix("ref: ").removeprefix("refs/heads/")
            elif target == ref:
                commit = name
        if commit is None:
            raise GitError(
                f"no branch {self.branch} on the remote" if self.branch else "the remote has no commits"
            )
        return branch or "HEAD", commit

    # -- git ------------------------------------------------------------------------------

    async def _is_checkout(self) -> bool:
        if not (self.directory / ".git").exists():
            return False
        try:
            top = await self._git("rev-parse", "--show-toplevel")
        except GitError:
            return False
        return Path(top).resolve() == self.directory.resolve()

    async def _head(self) -> str:
        return await self._rev_parse("HEAD")

    async def _rev_parse(self, ref: str) -> str:
        return await self._git("rev-parse", "--verify", "--quiet", f"{ref}^{{commit}}")

    async def _current_branch(self) -> str | None:
        try:
            return await self._git("symbolic-ref", "--short", "-q", "HEAD") or None
        except GitError:
            return None

    async def run(self, *args: str, cwd: Path | None = None, timeout: float = LOCAL_TIMEOUT_S) -> str:
        """``git args`` in the checkout (or ``cwd``), with this remote's credentials and care: its
        own process group, a timeout, killed as a group; GitError (redacted) when it fails."""
        return await self._git(*args, cwd=cwd, timeout=timeout)

    @property
    def command_url(self) -> str:
        """The URL git is given on its command line: no credentials (they are in its environment)."""
        return self._command_url

    async def _git(self, *args: str, cwd: Path | None = None, timeout: float = LOCAL_TIMEOUT_S) -> str:
        """Run ``git args`` and return its stdout, stripped; GitError (redacted) when it fails."""
        process = await asyncio.create_subprocess_exec(
            "git",
            "-c", "advice.detachedHead=false", "-c", "gc.autoDetach=false",
            *args,
            cwd=cwd or self.directory,
            env=self._environment,
            stdin=asyncio.subprocess.DEVNULL,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
            start_new_session=True,  # no controlling terminal: git and ssh cannot prompt
        )  # fmt: skip
        try:
            stdout, stderr = await asyncio.wait_for(process.communicate(), timeout)
        except TimeoutError:
            await _end(process)
            raise GitError(f"git {args[0]} timed out after {timeout:g} s") from None
        except BaseException:
            await _end(process)
            raise
        if process.returncode != 0:
            reason = _reason(stderr.decode("utf-8", "replace")) or f"exit status {process.returncode}"
            raise GitError(f"git {args[0]}: {redact_text(reason, self.url)}")
        return stdout.decode("utf-8", "replace").strip()


async def _end(process: asyncio.subprocess.Process) -> None:
    """Kill git and everything it started, and reap it.

    Killing git alone is not enough: its helpers (``git remote-http`` waiting on a server that
    never answers, ssh) inherit its output pipes and keep them open, and the wait for git's exit
    waits for the pipes too, for ever. git leads a process group of its own (its session), so the
    whole group is killed; with every writer dead the pipes close and the wait returns. Something
    that left the group holding them is not waited for beyond ``KILL_GRACE_S``.
    """
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(process.pid, signal.SIGKILL)
    try:
        await asyncio.wait_for(process.wait(), KILL_GRACE_S)
    except TimeoutError:
        log.warning("git (pid %d) killed, but its output is still held open by another process", process.pid)


def _reason(text: str) -> str:
    """git's reason in one line: its first ``fatal:``/``error:`` lines (the first names what
    failed, the rest is boilerplate advice), else the last lines it wrote."""
    lines = [line.strip() for line in text.strip().splitlines() if line.strip()]
    errors = [line for line in lines if line.startswith(("fatal:", "error:"))]
    return " / ".join(errors[:2] or lines[-3:])


def _short(commit: str | None) -> str:
    return commit[:10] if commit else "nothing"


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")
