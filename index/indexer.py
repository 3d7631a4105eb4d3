"""Building and updating the index: the single writer.

An update compares the vault with the catalog's fingerprints and touches only files that were
added, changed or removed. One writer at a time across processes (a file lock in the index
directory); readers keep using the last committed state meanwhile. A missing, unreadable or
old-schema index is rebuilt into a new generation that replaces the old one atomically.
"""

from __future__ import annotations

import gc
import logging
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from pathlib import Path

from filelock import FileLock

from index.catalog import (
    Catalog,
    Stamp,
    catalog_stamp,
    current_generation,
    load_catalog,
    new_generation,
    publish_generation,
    save_catalog,
)
from index.chunks import chunk_page
from index.graph import build_graph, is_knowledge
from index.model import IndexReport, Page
from index.pages import parse_page
from index.store import SearchStore
from index.vault import VaultFile, read_log, scan_vault, with_skipped

log = logging.getLogger("sakuin.index")
LOCK_FILE = "write.lock"
PARALLEL_FROM_PAGES = 1000
"""Index in several processes only when this many pages are written at once (a full build)."""
Progress = Callable[[int, int], None]


@dataclass
class LiveGeneration:
    """An index generation opened for reading: its directory, catalog and search store."""

    directory: Path
    catalog: Catalog
    store: SearchStore
    stamp: Stamp | None = None
    """The catalog file's identity when this state was read or written (detects other writers)."""


@contextmanager
def collector_paused() -> Iterator[None]:
    """Pause Python's cyclic garbage collector. Loading or rebuilding the catalog allocates
    millions of objects and no cycles, and the collector would rescan all of them again and
    again: a fifth of a one-page update at 10,000 pages (docs/benchmarks.md)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def open_current(index_dir: Path) -> LiveGeneration | None:
    """The live generation, or None when there is none or it cannot be read."""
    generation = current_generation(index_dir)
    if generation is None:
        return None
    stamp = catalog_stamp(generation)  # before reading: a save in between makes the next check reload
    with collector_paused():
        catalog = load_catalog(generation)
    if catalog is None:
        return None
    store = SearchStore(generation)
    try:
        store.open()
    except Exception as error:  # whoosh raises many kinds on damaged files
        log.warning("index at %s is unreadable (%s); it will be rebuilt", generation, error)
        return None
    return LiveGeneration(generation, catalog, store, stamp)


def _reusable(current: LiveGeneration | None, index_dir: Path) -> LiveGeneration | None:
    """The caller's state when no other process has written since it was read (saves a reload)."""
    if current is None or current.directory != current_generation(index_dir):
        return None
    if current.stamp is None or catalog_stamp(current.directory) != current.stamp:
        return None
    return LiveGeneration(current.directory, current.catalog.copy(), current.store, current.stamp)


def update_index(
    wiki_dir: Path,
    index_dir: Path,
    *,
    rebuild: bool = False,
    progress: Progress | None = None,
    current: LiveGeneration | None = None,
    on_commit: Callable[[LiveGeneration], None] | None = None,
    workers: int = 1,
    lock_timeout: float = -1,
) -> tuple[LiveGeneration, IndexReport]:
    """Bring the index in line with the vault; returns the live state and what changed.

    ``current`` is the caller's live state: when nobody else wrote since, a copy of it is updated
    instead of reading the catalog from disk again. Readers of ``current`` never see the change.
    ``on_commit`` receives the new state as soon as the text index is committed, before the
    catalog is written to disk: the caller can answer from it a second earlier. Should the
    process die in between, the next update finds the same files changed and applies them again.
    ``workers`` > 1 lets a large build index in that many processes (forked: pass it only from a
    process that runs no other threads, such as the command line).
    """
    index_dir.mkdir(parents=True, exist_ok=True)
    with FileLock(str(index_dir / LOCK_FILE), timeout=lock_timeout), collector_paused():
        started = time.perf_counter()
        opened = None if rebuild else (_reusable(current, index_dir) or open_current(index_dir))
        fresh = opened is None
        if opened is None:
            generation = new_generation(index_dir)
            store = SearchStore(generation)
            store.create()
            catalog = _empty_catalog()
            catalog.first_seen.update(_first_seen_before(index_dir))
        else:
            generation, catalog, store = opened.directory, opened.catalog, opened.store
        report, dirty = _apply_changes(wiki_dir, store, catalog, progress, started, fresh, workers)
        if not dirty:
            return LiveGeneration(generation, catalog, store, catalog_stamp(generation)), report
        if on_commit is not None and not fresh:
            on_commit(LiveGeneration(generation, catalog, store, None))
        save_catalog(generation, catalog)
        if fresh:
            publish_generation(index_dir, generation)
        return LiveGeneration(generation, catalog, store, catalog_stamp(generation)), report


def _read_changed(changed: list[VaultFile], catalog: Catalog, step: Callable[[int], None]) -> dict[str, Page]:
    """Parse changed files into the catalog; a file that cannot be a page is skipped with its reason."""
    now = datetime.now(UTC).isoformat(timespec="seconds")
    parsed: dict[str, Page] = {}
    for done, file in enumerate(changed, start=1):
        catalog.fingerprints[file.path] = file.fingerprint
        for table in (catalog.skipped, catalog.warnings, catalog.pages):
            table.pop(file.path, None)
        page, problems = _read_page(file)
        if page is None:
            catalog.skipped[file.path] = problems
            log.warning("skipped %s: %s", file.path, problems)
        else:
            parsed[file.path] = catalog.pages[file.path] = page
            catalog.first_seen.setdefault(file.path, now)
            if problems:
                catalog.warnings[file.path] = problems
                log.warning("indexed %s with a problem: %s", file.path, problems)
        step(done)
    return parsed


def _relinked(
    files: tuple[VaultFile, ...],
    catalog: Catalog,
    previous: dict[str, tuple[str, ...]],
    parsed: dict[str, Page],
) -> dict[str, Page]:
    """Unchanged pages whose links now resolve elsewhere (a page they link to was added, removed or
    renamed): read again so the text index holds their current links, as a full build would."""
    by_path = {file.path: file for file in files}
    again: dict[str, Page] = {}
    for path, links in catalog.graph.outlinks.items():
        if path in parsed or previous.get(path) == links or path not in by_path:
            continue
        page, _ = _read_page(by_path[path])
        if page is not None:
            again[path] = page
    return again


def _read_page(file: VaultFile) -> tuple[Page | None, str]:
    """The page in a file and what was wrong with it; no file's oddity stops the others."""
    try:
        result = parse_page(file.path, Path(file.absolute).read_bytes(), file.folder_type)
    except OSError as error:
        return None, f"unreadable: {error.strerror or error}"
    except Exception as error:  # e.g. a self-referencing YAML anchor: RecursionError
        return None, f"could not be read as a page: {type(error).__name__}: {error}"
    return result.page, "; ".join(result.problems)


def _first_seen_before(index_dir: Path) -> dict[str, str]:
    """When the previous index first saw each page: a rebuild must not make old pages new."""
    generation = current_generation(index_dir)
    previous = load_catalog(generation) if generation else None
    return dict(previous.first_seen) if previous else {}


def _empty_catalog() -> Catalog:
    return Catalog({}, {}, {}, {}, {}, build_graph({}), updated_at="")


def _apply_changes(
    wiki_dir: Path,
    store: SearchStore,
    catalog: Catalog,
    progress: Progress | None,
    started: float,
    rebuilt: bool,
    workers: int = 1,
) -> tuple[IndexReport, bool]:
    """Apply what changed; also say whether anything did (else nothing needs writing)."""
    scan = scan_vault(wiki_dir)
    files = scan.files
    present = {file.path for file in files}
    removed = [path for path in catalog.fingerprints if path not in present]
    changed = [file for file in files if catalog.fingerprints.get(file.path) != file.fingerprint]
    added = sum(1 for file in changed if file.path not in catalog.fingerprints)
    for path in removed:
        for table in (
            catalog.pages,
            catalog.fingerprints,
            catalog.skipped,
            catalog.warnings,
            catalog.first_seen,
        ):
            table.pop(path, None)
    # Reading is quick and writing the index is slow: each takes half of the progress bar.
    total = 2 * len(changed)
    step = (lambda done: progress(done, total)) if progress else (lambda done: None)
    parsed = _read_changed(changed, catalog, step)
    log_text = read_log(wiki_dir)
    dirty = bool(changed or removed or rebuilt or log_text != catalog.log_text)
    catalog.log_text = log_text
    if rebuilt:
        for path in [path for path in catalog.first_seen if path not in present]:
            del catalog.first_seen[path]
    if changed or removed or rebuilt:
        previous_links = catalog.graph.outlinks
        catalog.graph = build_graph(catalog.pages)
        if not rebuilt:
            parsed.update(_relinked(files, catalog, previous_links, parsed))
    if changed or removed:
        with store.writing(workers=workers if len(parsed) >= PARALLEL_FROM_PAGES else 1) as batch:
            if not rebuilt:
                for path in [*removed, *parsed]:
                    batch.delete_page(path)
            for done, page in enumerate(parsed.values(), start=len(changed) + 1):
                if is_knowledge(page):
                    for chunk in chunk_page(page, catalog.graph.outlinks.get(page.path, ())):
                        batch.add(chunk)
                # The text now lives in the store; the catalog keeps what answers need.
                catalog.pages[page.path] = replace(page, sections=())
                step(done)
        step(total)
    if dirty:
        catalog.updated_at = datetime.now(UTC).isoformat(timespec="seconds")
    report = IndexReport(
        pages=len(catalog.pages),
        added=added,
        changed=len(changed) - added,
        removed=len(removed),
        skipped=catalog.skipped_list,
        seconds=round(time.perf_counter() - started, 3),
        rebuilt=rebuilt,
        warnings=catalog.warning_list,
        survey=with_skipped(scan.survey, catalog.skipped),
    )
    return report, dirty
