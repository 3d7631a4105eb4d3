"""Keeping the index fresh while the bot runs.

File events (watchfiles) trigger an incremental update a moment after a save, of the files the
events name (no scan of the whole vault: a second at 100,000 pages); a periodic scan of every file
catches what events miss (network filesystems, a ``git pull`` while events were dropped). Bursts
coalesce: while an update runs, further triggers only mark the index dirty (and add their files),
and one more update follows. Readers keep answering from the last committed index all along; a
failed update is logged with its reason, the previous index keeps serving, and the next update
compares every file.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Iterable
from pathlib import Path

from watchfiles import Change, awatch

from bot.memory import exempt_the_index, give_back_freed_memory
from index import PAGE_SUFFIXES, IndexReport, Wiki

log = logging.getLogger("sakuin.freshness")
DEBOUNCE_MS = 250


class Freshener:
    """Runs `Wiki.update` off the event loop, never twice at once, never losing a trigger.

    ``triggers`` counts the updates asked for, ``updates`` those run; ``watching`` is set while
    file events are followed. Each of ``on_update`` is called (on the event loop) with the report
    of every update that changed the index: what the wiki's inbox and page watches follow.
    """

    def __init__(self, wiki: Wiki) -> None:
        self.wiki = wiki
        self._dirty = False
        self._paths: set[str] | None = None
        """The files events named since the last update; None: every file is compared."""
        self._task: asyncio.Task[None] | None = None
        self.triggers = 0
        self.updates = 0
        self.watching = asyncio.Event()
        self.on_update: list[Callable[[IndexReport], None]] = []

    @property
    def running(self) -> bool:
        return self._task is not None and not self._task.done()

    def request(self, paths: Iterable[str] | None = None) -> None:
        """Ask for an update without waiting for it: one starts now, or, while one runs, the
        index is marked dirty and one more follows (however many were asked for meanwhile).
        ``paths``: the files that changed, when an event said so; else every file is compared."""
        self.triggers += 1
        self._dirty = True
        if paths is None:
            self._paths = None
        elif self._paths is not None:
            self._paths.update(paths)
        if not self.running:
            self._task = asyncio.create_task(self._update_while_dirty(), name="index-update")

    async def refresh(self) -> None:
        """Ask for an update of every file and wait until the index holds what was on disk when asked."""
        self.request()
        assert self._task is not None
        await asyncio.shield(self._task)

    def stop(self) -> None:
        """Stop following up; an update already in its thread finishes on its own."""
        if self._task is not None:
            self._task.cancel()

    async def _update_while_dirty(self) -> None:
        while self._dirty:
            self._dirty = False
            paths, self._paths = self._paths, set()
            report = await asyncio.to_thread(self._update, paths)
            if report is not None and (report.rebuilt or report.changed_paths or report.removed_paths):
                for listener in self.on_update:
                    try:
                        listener(report)
                    except Exception:
                        log.exception("a listener of index updates failed")

    def _update(self, paths: set[str] | None = None) -> IndexReport | None:
        try:
            report = self.wiki.update(paths=paths)
            if not self.updates or report.rebuilt or report.added or report.changed or report.removed:
                exempt_the_index()
        except Exception:
            log.exception("index update failed; the previous index keeps serving")
            self._paths = None  # what that update was told is lost with it: compare every file next
            return None
        finally:
            give_back_freed_memory()
        self.updates += 1
        # Once per change of a file: what this update read, and at the first one every known problem.
        skipped = {item.path for item in report.skipped}
        for item in (*report.skipped, *report.warnings) if self.updates == 1 else report.found:
            if item.path in skipped:
                log.warning("skipped %s: %s", item.path, item.reason)
            else:
                log.warning("indexed %s with a problem: %s", item.path, item.reason)
        if report.removal_warning:
            log.warning("%s", report.removal_warning)
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


async def keep_fresh(freshener: Freshener, wiki_dir: Path, index_dir: Path, scan_interval: float) -> None:
    """Follow the vault forever (run as a background task): watch, then build or update, then
    scan periodically. The watches are in place before the first update reads the vault, so a
    page saved while it runs is updated right after it, never left to the periodic scan."""
    watcher = asyncio.create_task(_watch_forever(freshener, wiki_dir, index_dir, scan_interval))
    scanner: asyncio.Task[None] | None = None
    try:
        await freshener.watching.wait()
        await freshener.refresh()
        scanner = asyncio.create_task(_scan_periodically(freshener, scan_interval))
        await watcher
    finally:
        watcher.cancel()
        if scanner is not None:
            scanner.cancel()
        freshener.stop()


async def _watch_forever(freshener: Freshener, wiki_dir: Path, index_dir: Path, scan_interval: float) -> None:
    while True:
        await _watch(freshener, wiki_dir, index_dir)
        await asyncio.sleep(scan_interval)


async def _watch(freshener: Freshener, wiki_dir: Path, index_dir: Path) -> None:
    """Follow file events until the watcher fails (watch limit, vault folder replaced …): the
    failure is logged, the periodic scan goes on meanwhile, and the caller starts watching again."""
    changes = awatch(
        wiki_dir,
        watch_filter=lambda change, path: is_page_change(change, path, index_dir),
        debounce=DEBOUNCE_MS,
        step=50,
        recursive=True,
        ignore_permission_denied=True,
    )
    try:
        # Set before the first step, which adds the watches before it first yields to the loop:
        # whoever wakes up on this signal runs only once the watches are in place.
        freshener.watching.set()
        async for events in changes:
            freshener.request(path for _, path in events)
    except Exception:
        log.exception("watching %s failed; the periodic scan goes on and watching restarts", wiki_dir)
    finally:
        freshener.watching.clear()


async def _scan_periodically(freshener: Freshener, interval: float) -> None:
    while True:
        await asyncio.sleep(interval)
        freshener.request()
