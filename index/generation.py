"""The index directory's generations, and the one a process reads from.

An index directory holds generations: ``CURRENT`` names the live one (``gen-0001`` …), which
holds the whoosh files and ``catalog.sqlite3``. A rebuild writes a new generation and switches
``CURRENT`` atomically, so readers in other processes never see a half-built index; an update
changes the live generation in place, one transaction for the rows of the pages that changed.
`LiveGeneration` is one generation opened: its catalog, the link graph read from it, its search
store, and (in the process that writes) what the writer keeps between updates.
"""

from __future__ import annotations

import logging
import os
import shutil
from dataclasses import dataclass
from pathlib import Path

from index.catalog.graph import Graph
from index.catalog.reader import Catalog, CatalogError, Stamp
from index.reading.wikilinks import LinkResolver
from index.store.engine import SearchStore

log = logging.getLogger("sakuin.index")
CURRENT_FILE = "CURRENT"


def current_generation(index_dir: Path) -> Path | None:
    try:
        name = (index_dir / CURRENT_FILE).read_text(encoding="utf-8").strip()
    except OSError:
        return None
    generation = index_dir / name
    return generation if name.startswith("gen-") and generation.is_dir() else None


def new_generation(index_dir: Path) -> Path:
    index_dir.mkdir(parents=True, exist_ok=True)
    numbers = [int(p.name[4:]) for p in index_dir.glob("gen-*") if p.name[4:].isdigit()]
    generation = index_dir / f"gen-{max(numbers, default=0) + 1:04d}"
    generation.mkdir()
    return generation


def publish_generation(index_dir: Path, generation: Path) -> None:
    """Point CURRENT at ``generation`` atomically, then remove generations older than the one it
    replaces. That one stays until the next rebuild: readers in other processes may still be
    searching it until they notice the switch."""
    previous = current_generation(index_dir)
    temporary = index_dir / f".{CURRENT_FILE}.{os.getpid()}.tmp"
    with temporary.open("wb") as handle:
        handle.write(generation.name.encode())
        handle.flush()
        os.fsync(handle.fileno())
    os.replace(temporary, index_dir / CURRENT_FILE)
    for old in index_dir.glob("gen-*"):
        if old not in (generation, previous) and old.is_dir():
            shutil.rmtree(old, ignore_errors=True)


@dataclass
class WriterState:
    """What the writer keeps between updates in the process that makes them (readers need none)."""

    resolver: LinkResolver
    fingerprints: dict[str, tuple[int, int]]
    layout: str | None = None
    """The vault's layout at the last scan of every file (None: not scanned since it was read)."""

    @classmethod
    def read(cls, catalog: Catalog) -> WriterState:
        return cls(LinkResolver(catalog.rows.link_targets()), catalog.rows.fingerprints())


@dataclass
class LiveGeneration:
    """An index generation opened for reading: its directory, catalog, link graph and search store."""

    directory: Path
    catalog: Catalog
    graph: Graph
    store: SearchStore
    writer: WriterState | None = None

    @property
    def stamp(self) -> Stamp:
        return self.catalog.stamp


def open_current(index_dir: Path) -> LiveGeneration | None:
    """The live generation, or None when there is none or it cannot be read."""
    generation = current_generation(index_dir)
    if generation is None:
        return None
    try:
        catalog = Catalog(generation)
        graph = Graph(catalog.rows)
    except CatalogError as error:
        log.warning("%s; it will be rebuilt", error)
        return None
    store = SearchStore(generation)
    try:
        store.open()
    except Exception as error:  # whoosh raises many kinds on damaged files
        log.warning("index at %s is unreadable (%s); it will be rebuilt", generation, error)
        return None
    return LiveGeneration(generation, catalog, graph, store)
