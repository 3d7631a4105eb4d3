"""Building and updating the index: the single writer.

An update compares the vault with the catalog's fingerprints and touches only files that were
added, changed or removed, and the pages linked to them whose links now resolve elsewhere
(`index.catalog.linking`). One writer at a time across processes (a file lock in the index directory);
readers keep using the last committed state meanwhile. A missing, unreadable or old-schema index
is rebuilt into a new generation that replaces the old one atomically.

A build never holds the vault in memory: each page is parsed, written to the catalog, its passages
handed to the search store's writer processes, and dropped. Only a page's first passage carries
the paths it links to, which are known once every page's names are: it waits in a temporary table
until the links are resolved.
"""

from __future__ import annotations

import gc
import logging
import pickle
import time
from collections.abc import Callable, Collection, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path

from filelock import FileLock

from index.analysis import fold
from index.catalog.graph import Graph, is_knowledge, known_by, name_rows
from index.catalog.linking import OWN_KINDS, Linker, link_everything, link_rows
from index.catalog.reader import Catalog, CatalogError, catalog_first_seen, legacy_first_seen
from index.catalog.writer import CatalogWriter
from index.digest import birth_field
from index.generation import (
    LiveGeneration,
    WriterState,
    current_generation,
    new_generation,
    open_current,
    publish_generation,
)
from index.model import FileProblem, IndexReport, Page
from index.reading.log_page import log_page
from index.reading.pages import MAX_PAGE_BYTES, parse_page
from index.reading.vault import (
    RefusedFile,
    Scan,
    VaultFile,
    files_at,
    log_fingerprint,
    read_logs,
    read_vault_file,
    scan_vault,
    vault_layout,
    with_skipped,
)
from index.reading.wiki_log import LogEntry, parse_log
from index.reading.wikilinks import LinkResolver, strip_comments
from index.store.chunks import chunk_page, chunks_of, passages_of
from index.store.engine import SearchStore, StoreBatch
from index.web import path_token

log = logging.getLogger("sakuin.index")
LOCK_FILE = "write.lock"
PARALLEL_FROM_PAGES = 1000
"""Index in several processes only when this many pages are written at once (a full build)."""
REMOVED_SHARE = 0.5
REMOVED_FILES = 5
"""An update that removes more than `REMOVED_SHARE` of the vault's files, and more than
`REMOVED_FILES` of them, is warned about (logged, and in the index state until the vault changes
again): the index mirrors the vault, so a force-push of an empty tree empties it."""
Progress = Callable[[int, int], None]


@contextmanager
def collector_paused() -> Iterator[None]:
    """Pause Python's cyclic garbage collector. Loading the name table or building a generation
    allocates millions of objects and no cycles, and the collector would rescan all of them again
    and again (docs/benchmarks.md)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def _reusable(current: LiveGeneration | None, index_dir: Path) -> LiveGeneration | None:
    """The caller's state when no other process has written since it was read (saves a reload)."""
    if current is None or current.directory != current_generation(index_dir):
        return None
    if current.catalog.latest_stamp() != current.stamp:
        return None
    return current


def update_index(
    wiki_dir: Path,
    index_dir: Path,
    *,
    rebuild: bool = False,
    progress: Progress | None = None,
    current: LiveGeneration | None = None,
    workers: int = 1,
    lock_timeout: float = -1,
    paths: Collection[str] | None = None,
) -> tuple[LiveGeneration, IndexReport]:
    """Bring the index in line with the vault; returns the live state and what changed.

    ``paths`` (vault-relative, as a file watcher saw them change) limits an update to those files
    instead of comparing every file of the vault: the scan alone takes a second at 100,000 pages.
    An update that cannot rely on them (the first since the index was read, a vault whose layout
    changed) scans everything, and so does any update without them.

    ``current`` is the caller's live state: when nobody else wrote since, it is updated from
    what it holds instead of reading the catalog again. Readers of ``current`` never see the
    change; the returned state has it. ``workers`` > 1 lets a large build index in that many
    processes (forked: pass it only from a process that runs no other threads, such as the
    command line).
    """
    index_dir.mkdir(parents=True, exist_ok=True)
    with FileLock(str(index_dir / LOCK_FILE), timeout=lock_timeout), collector_paused():
        started = time.perf_counter()
        live = None if rebuild else (_reusable(current, index_dir) or open_current(index_dir))
        if live is None:
            return _build(wiki_dir, index_dir, progress, started, workers)
        return _update(wiki_dir, live, progress, started, paths)


def _update(
    wiki_dir: Path,
    live: LiveGeneration,
    progress: Progress | None,
    started: float,
    paths: Collection[str] | None,
) -> tuple[LiveGeneration, IndexReport]:
    state = live.writer or WriterState.read(live.catalog)
    layout = vault_layout(wiki_dir)
    scan: Scan | None = None
    if paths is not None and state.layout == layout:
        files, others = files_at(wiki_dir, layout, paths)
        removed = [path for path in others if path in state.fingerprints]
    else:
        scan = scan_vault(wiki_dir)
        files, layout = list(scan.files), scan.survey.layout
        present = {file.path for file in files}
        removed = [path for path in state.fingerprints if path not in present]
    changed = [file for file in files if state.fingerprints.get(file.path) != file.fingerprint]
    added = sum(1 for file in changed if file.path not in state.fingerprints)
    logged = log_fingerprint(wiki_dir)
    if not (changed or removed or logged != live.catalog.log_fingerprint):
        live = replace(live, writer=replace(state, layout=layout))
        return live, _report(live.catalog, scan, started, added=0, changed=0, removed=0, rebuilt=False)
    log_changed = logged != live.catalog.log_fingerprint
    texts = read_logs(wiki_dir) if log_changed else None
    log_entries = _entries_of(texts) if texts is not None else None
    logs = log_pages(texts) if texts is not None else None
    step = _stepper(progress, 2 * len(changed))
    resolver, fingerprints = state.resolver.copy(), dict(state.fingerprints)
    writer = CatalogWriter(live.directory)
    try:
        linker = Linker(writer, resolver)
        departed = _departed((path, writer.first_seen_of(path), writer.title_of(path)) for path in removed)
        for path in removed:
            linker.remove(path)
            writer.remove_file(path)
            del fingerprints[path]
        now = _now()
        parsed: dict[str, Page] = {}
        found: list[FileProblem] = []
        for done, file in enumerate(changed, start=1):
            if writer.page_record(file.path) is not None:
                linker.remove(file.path)
            moved = departed if file.path not in state.fingerprints else None
            page = _write_file(writer, file, now, found, moved=moved)
            fingerprints[file.path] = file.fingerprint
            if page is not None and is_knowledge(page):
                linker.put(page)
                parsed[page.path] = page
            step(done)
        relinked = linker.finish() - set(parsed)
        reread = _files_of(wiki_dir, layout, relinked, scan)
        if changed or removed or logs is not None:
            with live.store.writing() as batch:
                for path in [*removed, *(file.path for file in changed), *relinked]:
                    batch.delete_page(path)
                if logs is not None:
                    for path in live.catalog.log_pages:
                        batch.delete_page(path)
                    _add_logs(batch, logs)
                for done, page in enumerate(parsed.values(), start=len(changed) + 1):
                    for chunk in chunk_page(page, writer.outlinks(page.path)):
                        batch.add(chunk)
                    step(done)
                for path in sorted(relinked):
                    page, _ = _read_page(reread[path]) if path in reread else (None, "")
                    if page is not None:
                        for chunk in chunk_page(page, writer.outlinks(path)):
                            batch.add(chunk)
            step(2 * len(changed))
        keys = {key: writer.has_key(key) for key in linker.keys}
        shrunk = warn_of_removal(len(removed), len(state.fingerprints), now)
        kept = shrunk if changed or removed else live.catalog.removal_warning  # only the log changed
        writer.finish(
            updated_at=_now(),
            log_entries=log_entries,
            log_fingerprint=logged,
            removal_warning=kept,
            log_pages=logs,
        )
    finally:
        writer.close()
    catalog = Catalog(live.directory)
    graph = Graph(catalog.rows, live.graph.names.with_keys(catalog.rows, keys), resolver)
    updated = LiveGeneration(
        live.directory, catalog, graph, live.store, WriterState(resolver, fingerprints, layout)
    )
    report = _report(
        catalog,
        scan,
        started,
        added=added,
        changed=len(changed) - added,
        removed=len(removed),
        rebuilt=False,
        found=found,
        removal_warning=shrunk,
        changed_paths=tuple(file.path for file in changed),
        removed_paths=tuple(removed),
    )
    return updated, report


def _build(
    wiki_dir: Path, index_dir: Path, progress: Progress | None, started: float, workers: int
) -> tuple[LiveGeneration, IndexReport]:
    """A new generation from every file of the vault, published when complete."""
    earlier = _first_seen_before(index_dir)
    scan = scan_vault(wiki_dir)
    present = {file.path for file in scan.files}
    departed = _departed((path, seen, None) for path, seen in earlier.items() if path not in present)
    step = _stepper(progress, 2 * len(scan.files))
    generation = new_generation(index_dir)
    store = SearchStore(generation)
    store.create()
    writer = CatalogWriter(generation, create=True)
    try:
        now = _now()
        found: list[FileProblem] = []
        targets: list[tuple[str, str, tuple[str, ...]]] = []
        parallel = workers if len(scan.files) >= PARALLEL_FROM_PAGES else 1
        with store.writing(workers=parallel) as batch:
            for done, file in enumerate(sorted(scan.files, key=lambda file: file.path), start=1):
                page = _write_file(writer, file, now, found, earlier.get(file.path), moved=departed)
                if page is not None and is_knowledge(page):
                    targets.append((page.path, page.title, page.aliases))
                    writer.add_links(link_rows(page))
                    writer.set_names(page.path, name_rows(known_by(page)), kinds=OWN_KINDS)
                    title, names, pieces = passages_of(page)
                    for chunk in chunks_of(page.path, (title, names, pieces), ())[1:]:
                        batch.add(chunk)
                    first = pickle.dumps((title, names, pieces[:1]), protocol=pickle.HIGHEST_PROTOCOL)
                    writer.keep_text(page.path, first)
                step(done)
            texts = read_logs(wiki_dir)
            logs = log_pages(texts)
            _add_logs(batch, logs)
            resolver = LinkResolver(targets)
            link_everything(writer, resolver)
            writer.index()
            for done, (path, first) in enumerate(writer.kept_texts(), start=len(scan.files) + 1):
                batch.add(chunks_of(path, pickle.loads(first), writer.outlinks(path))[0])
                step(done)
        writer.drop_texts()
        step(2 * len(scan.files))
        present = {file.path for file in scan.files}
        shrunk = warn_of_removal(sum(1 for path in earlier if path not in present), len(earlier), now)
        writer.finish(
            updated_at=_now(),
            log_entries=_entries_of(texts),
            log_fingerprint=log_fingerprint(wiki_dir),
            removal_warning=shrunk,
            log_pages=logs,
        )
        writer.publishable()
    finally:
        writer.close()
    catalog = Catalog(generation)
    graph = Graph(catalog.rows, resolver=resolver)
    publish_generation(index_dir, generation)
    live = LiveGeneration(
        generation,
        catalog,
        graph,
        store,
        WriterState(resolver, catalog.rows.fingerprints(), scan.survey.layout),
    )
    report = _report(
        catalog,
        scan,
        started,
        added=len(scan.files),
        changed=0,
        removed=0,
        rebuilt=True,
        found=found,
        removal_warning=shrunk,
    )
    return live, report


def log_pages(texts: list[tuple[str, str]]) -> list[Page]:
    """The wiki's logs (`index.reading.vault.read_logs`) as pages of their entries: no pages of the
    vault, their passages are searched apart (`index.reading.log_page`). Like a page, a log is
    searched in its first `MAX_PAGE_BYTES` only (its entries all feed the digest)."""
    return [log_page(path, text[:MAX_PAGE_BYTES]) for path, text in texts]


def _entries_of(texts: list[tuple[str, str]]) -> tuple[LogEntry, ...]:
    """The entries of the wiki's logs, one after the other, for the digest."""
    return parse_log(strip_comments("\n\n".join(text for _, text in texts)))


def _add_logs(batch: StoreBatch, logs: Iterable[Page]) -> None:
    for page in logs:
        for chunk in chunk_page(page, ()):
            batch.add(chunk)


def _write_file(
    writer: CatalogWriter,
    file: VaultFile,
    now: str,
    found: list[FileProblem],
    earlier: str | None = None,
    *,
    moved: dict[str, str] | None = None,
) -> Page | None:
    """Parse a file and write its rows (a file that cannot be a page is skipped with its reason);
    returns the page, and adds its problem to ``found``. It was first seen ``earlier`` (by a
    previous generation), else when the page it was moved or renamed from was (``moved``: see
    `_departed`), else ``now``."""
    page, problems = _read_page(file)
    if problems:
        found.append(FileProblem(file.path, problems))
    if page is None:
        log.warning("skipped %s: %s", file.path, problems)
        writer.put_file(file.path, file.fingerprint, earlier, problems, None)
        return None
    if problems:
        log.warning("indexed %s with a problem: %s", file.path, problems)
    if earlier is None and moved:
        earlier = moved.get(_stem_key(file.path)) or moved.get(fold(page.title))
    writer.put_file(file.path, file.fingerprint, earlier or now, None, problems or None)
    # The text lives in the search store; the catalog keeps what answers need.
    writer.put_page(
        replace(page, sections=()),
        knowledge=is_knowledge(page),
        token=path_token(page.path),
        born=birth_field(page),
    )
    return page


def _read_page(file: VaultFile) -> tuple[Page | None, str]:
    """The page in a file and what was wrong with it; no file's oddity stops the others."""
    try:
        data = read_vault_file(file.root, file.spelled, MAX_PAGE_BYTES + 1)  # one more: too long?
        result = parse_page(file.path, data, file.folder_type)
    except RefusedFile as error:  # a link or a FIFO put in place of the file since the walk
        return None, error.reason
    except OSError as error:
        return None, f"unreadable: {error.strerror or error}"
    except Exception as error:  # e.g. a self-referencing YAML anchor: RecursionError
        return None, f"could not be read as a page: {type(error).__name__}: {error}"
    return result.page, "; ".join(result.problems)


def warn_of_removal(removed: int, before: int, when: str) -> str | None:
    """What to say when an update removed most of the vault's files (see `REMOVED_SHARE`); logged."""
    if removed <= REMOVED_FILES or removed <= REMOVED_SHARE * before:
        return None
    warning = (
        f"{removed} of the vault's {before} files were removed at {when}: "
        "the index mirrors the vault, check that this was meant (a force-push of an empty tree?)"
    )
    log.warning("%s", warning)
    return warning


def _departed(pages: Iterable[tuple[str, str | None, str | None]]) -> dict[str, str]:
    """File name and title (folded) → when the index first saw the pages that are gone, from
    (path, first seen, title): a page that appears under one of them in the same update was moved
    or renamed, and is not new. A name two departed pages share tells nothing and is left out."""
    found: dict[str, str | None] = {}
    for path, seen, title in pages:
        if not seen:
            continue
        for key in {_stem_key(path), fold(title) if title else ""} - {""}:
            found[key] = None if key in found else seen
    return {key: seen for key, seen in found.items() if seen}


def _stem_key(path: str) -> str:
    return fold(path.rsplit("/", 1)[-1].removesuffix(".md"))


def _first_seen_before(index_dir: Path) -> dict[str, str]:
    """When the previous index first saw each page: a rebuild must not make old pages new."""
    generation = current_generation(index_dir)
    if generation is None:
        return {}
    try:
        return Catalog(generation).first_seen.as_dict()
    except CatalogError:
        return catalog_first_seen(generation) or legacy_first_seen(generation)


def _stepper(progress: Progress | None, total: int) -> Callable[[int], None]:
    """Reading is quick and writing the index is slow: each takes half of the progress bar."""
    return (lambda done: progress(done, total)) if progress else (lambda done: None)


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def _files_of(wiki_dir: Path, layout: str, paths: Collection[str], scan: Scan | None) -> dict[str, VaultFile]:
    """The files of pages to read again, from the scan this update made or else by their paths
    (and by a scan after all when a page is not where its path says: a name spelled otherwise)."""
    if scan is None:
        files, missing = files_at(wiki_dir, layout, paths)
        if not missing:
            return {file.path: file for file in files}
        scan = scan_vault(wiki_dir)
    return {file.path: file for file in scan.files if file.path in paths}


def _report(
    catalog: Catalog,
    scan: Scan | None,
    started: float,
    *,
    added: int,
    changed: int,
    removed: int,
    rebuilt: bool,
    found: list[FileProblem] | None = None,
    removal_warning: str | None = None,
    changed_paths: tuple[str, ...] = (),
    removed_paths: tuple[str, ...] = (),
) -> IndexReport:
    return IndexReport(
        pages=len(catalog.pages),
        added=added,
        changed=changed,
        removed=removed,
        skipped=catalog.skipped_list,
        seconds=round(time.perf_counter() - started, 3),
        rebuilt=rebuilt,
        warnings=catalog.warning_list,
        survey=with_skipped(scan.survey, catalog.skipped) if scan is not None else None,
        found=tuple(found or ()),
        removal_warning=removal_warning,
        changed_paths=changed_paths,
        removed_paths=removed_paths,
    )
