"""A real git remote on disk for tests: a bare repository and a clone of it to push from."""

from __future__ import annotations

import subprocess
from pathlib import Path

from tests.vaults import write_vault

IDENTITY = ("-c", "user.name=sakuin tests", "-c", "user.email=tests@sakuin.invalid")


def git(cwd: Path, *args: str) -> str:
    done = subprocess.run(
        ["git", *IDENTITY, *args],
        cwd=cwd,
        check=True,
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
    )
    return done.stdout.strip()


class Remote:
    """``bare`` is the remote (``url`` is its ``file://`` URL); ``work`` is where pushes come from."""

    def __init__(self, root: Path, files: dict[str, str | bytes], branch: str = "main") -> None:
        self.bare = root / "remote.git"
        self.work = root / "author"
        self.branch = branch
        self.bare.mkdir(parents=True)
        git(self.bare, "init", "--quiet", "--bare", f"--initial-branch={branch}")
        self.work.mkdir()
        git(self.work, "init", "--quiet", f"--initial-branch={branch}")
        git(self.work, "remote", "add", "origin", self.url)
        self.commit(files, "first pages")

    @property
    def url(self) -> str:
        return self.bare.resolve().as_uri()

    def commit(self, files: dict[str, str | bytes], message: str, *, push: bool = True) -> str:
        write_vault(self.work, files)
        git(self.work, "add", "--all")
        git(self.work, "commit", "--quiet", "-m", message)
        if push:
            self.push()
        return self.head()

    def remove(self, relative: str, message: str) -> str:
        git(self.work, "rm", "--quiet", relative)
        git(self.work, "commit", "--quiet", "-m", message)
        self.push()
        return self.head()

    def push(self, *, force: bool = False, branch: str | None = None) -> None:
        target = branch or self.branch
        git(self.work, "push", "--quiet", *(["--force"] if force else []), "origin", f"HEAD:{target}")

    def head(self) -> str:
        return git(self.work, "rev-parse", "HEAD")

    def rewrite(self, files: dict[str, str | bytes], message: str) -> str:
        """Replace the last commit and force-push it (history rewritten under the bot)."""
        write_vault(self.work, files)
        git(self.work, "add", "--all")
        git(self.work, "commit", "--quiet", "--amend", "-m", message)
        self.push(force=True)
        return self.head()
