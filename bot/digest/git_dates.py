"""When the vault's files were added, from git: the digest's third signal (docs/digest.md).

Read here, at the edge, and handed to the domain as `GitAdditions`: running git is edge work (a
subprocess with a timeout, like `bot.serve.git_sync`, which keeps the checkout), and the domain stays a
function of what it is given. It is read when a digest is made, for the time since the start of the
day asked about (one ``git log`` over the commits since); the catalog keeps the vault's own dates.

- ``git log --first-parent -m -M --diff-filter=AR``: a file is added when the main line gained it
  (a merge adds what its branch added, at the merge); a renamed file keeps the time its old name was
  added, and one renamed from a file older than the day was there before.
- Every tracked file that no commit since then added was there before (``known_since``). The
  checkout `bot.serve.git_sync` keeps is shallow (``--depth 1``): its boundary commit shows every file as
  added, so the boundary's own changes are never read, and its time is where what git knows begins.
- Not a git work tree, no git, git failing or too slow: None, and the digest goes on without.
"""

from __future__ import annotations

import logging
import subprocess
import unicodedata
from datetime import datetime
from pathlib import Path

from index import GitAdditions

log = logging.getLogger(__name__)

GIT_TIMEOUT_S = 30.0
_COMMIT = "\x01"


class _GitFailed(Exception):
    pass


def git_additions(vault: Path, since: datetime | None) -> GitAdditions | None:
    """When the tracked files of ``vault`` were added, from ``since`` on (None: all of history);
    None when the vault is not in a git work tree or git cannot say."""
    try:
        inside = vault.is_dir() and _git(vault, "rev-parse", "--is-inside-work-tree").strip() == "true"
    except _GitFailed:  # not a git work tree, or no git: nothing to say
        inside = False
    if not inside:
        return None
    try:
        tracked = frozenset(_paths(_git(vault, "ls-files", "-z")))
        shallow = _shallow_commits(vault)
        history = _git(
            vault,
            "-c", "core.quotePath=false",
            "log", "--first-parent", "-m", "-M", "--diff-filter=AR", "--name-status", "-z", "--reverse",
            f"--format={_COMMIT}%H %cI",
            *([f"--since={since.isoformat()}"] if since else []),
            "--relative", "--", ".",
        )  # fmt: skip
    except _GitFailed as error:
        log.warning("digest: git history of %s not read: %s", vault, error)
        return None
    added: dict[str, str] = {}
    known_since = since.isoformat() if since else None
    for chunk in history.split(_COMMIT)[1:]:
        header, _, changes = chunk.partition("\0")
        commit, _, when = header.partition(" ")
        if commit in shallow:
            # A shallow clone's first commit "adds" every file it has: none of it is known.
            known_since = max(known_since or when, when, key=datetime.fromisoformat)
            continue
        _apply(added, _paths(changes.lstrip("\n")), when)
    return GitAdditions(added, tracked, known_since)


def _apply(added: dict[str, str], tokens: list[str], when: str) -> None:
    """One commit's ``A path`` and ``R<score> old new`` records, oldest commit first."""
    position = 0
    while position < len(tokens):
        status = tokens[position]
        if status.startswith("R") and position + 2 < len(tokens):
            old, new = tokens[position + 1], tokens[position + 2]
            if old in added:
                added[new] = added.pop(old)
            position += 3
        elif status.startswith("A") and position + 1 < len(tokens):
            added.setdefault(tokens[position + 1], when)
            position += 2
        else:
            position += 1


def _paths(output: str) -> list[str]:
    return [unicodedata.normalize("NFC", token) for token in output.split("\0") if token]


def _shallow_commits(vault: Path) -> frozenset[str]:
    """The boundary commits of a shallow clone (none in a full one)."""
    path = Path(_git(vault, "rev-parse", "--git-path", "shallow").strip())
    try:
        return frozenset((path if path.is_absolute() else vault / path).read_text().split())
    except OSError:
        return frozenset()


def _git(vault: Path, *args: str) -> str:
    try:
        done = subprocess.run(
            ["git", "-C", str(vault), *args],
            stdin=subprocess.DEVNULL,
            capture_output=True,
            timeout=GIT_TIMEOUT_S,
            start_new_session=True,  # no terminal: git never stops to ask anything
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired) as error:
        raise _GitFailed(str(error)) from None
    if done.returncode != 0:
        raise _GitFailed(done.stderr.decode("utf-8", "replace").strip() or f"exit status {done.returncode}")
    return done.stdout.decode("utf-8", "replace")
