"""Keeping the index fresh while the bot runs.

File events (watchfiles) trigger an incremental update a moment after a save; a periodic scan
catches what events miss (network filesystems, a ``git pull`` while events were dropped). Bursts
coalesce: while an update runs, further triggers only mark the index dirty, and one more update
follows. Readers keep answering from the last committed index all along; a failed update is
logged with its reason and the previous index keeps serving.
"""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path

from watchfiles import Change, awatch

from index.model import IndexReport
from index.vault import PAGE_SUFFIXES
from index.wiki import Wiki

log = logging.getLogger("sakuin.freshness")
DEBOUNCE_MS = 250


class Freshener:
    """Runs `Wiki.update` off the event loop, never twice at once, never losing a trigger."""

    def __init__(self, wiki: Wiki) -> None:
        self.wiki = wiki
        self._running = asyncio.Lock()
        self._dirty = False
        self.updates = 0

    async def refresh(self) -> None:
        if self._running.locked():
            self._dirty = True
            return
        async with self._running:
            self._dirty = True
            while self._dirty:
                self._dirty = False
                await asyncio.to_thread(self._update)

    def _update(self) -> IndexReport | None:
        try:
            report = self.wiki.update()
        except Exception:
            log.exception("index update failed; the previous index keeps serving")
            return None
        self.updates += 1
        for item in report.skipped:
            log.warning("skipped %s: %s", item.path, item.reason)
        if report.added or report.changed or report.removed or report.rebuilt:
            log.info(
                "index %s: %d pages (%d added, %d changed, %d removed) in %.2f s",
                "built" if report.rebuilt else "updated",
                report.pages,
                report.added,
                report.changed,
                report.removed,
                report.seconds,
            )
        return report


def is_page_change(change: Change, path: str, index_dir: Path) -> bool:
    """Only page files matter; the index's own files (if inside the vault) never do."""
    resolved = Path(path)
    if resolved.is_relative_to(index_dir.resolve()):
        return False
    return path.endswith((*PAGE_SUFFIXES, "log.md"))


async def keep_fresh(wiki: Wiki, wiki_dir: Path, index_dir: Path, scan_interval: float) -> None:
    """Build or update at start, then follow the vault forever (run as a background task)."""
    freshener = Freshener(wiki)
    await freshener.refresh()
    scanner = asyncio.create_task(_scan_periodically(freshener, scan_interval))
    try:
        while True:
            await _watch(freshener, wiki_dir, index_dir)
            await asyncio.sleep(scan_interval)
    finally:
        scanner.cancel()


async def _watch(freshener: Freshener, wiki_dir: Path, index_dir: Path) -> None:
    """Follow file events until the watcher fails (watch limit, vault folder replaced …): the
    failure is logged, the periodic scan goes on meanwhile, and the caller starts watching again."""
    try:
        async for _ in awatch(
            wiki_dir,
            watch_filter=lambda change, path: is_page_change(change, path, index_dir),
            debounce=DEBOUNCE_MS,
            step=50,
            recursive=True,
            ignore_permission_denied=True,
        ):
            await freshener.refresh()
    except Exception:
        log.exception("watching %s failed; the periodic scan goes on and watching restarts", wiki_dir)


async def _scan_periodically(freshener: Freshener, interval: float) -> None:
    while True:
        await asyncio.sleep(interval)
        await freshener.refresh()
