"""The catalog: every parsed page, its file fingerprint and the derived graph, kept on disk.

An index directory holds generations: ``CURRENT`` names the live one (``gen-0001`` …), which
holds the whoosh files and ``catalog.pickle``. A rebuild writes a new generation and switches
``CURRENT`` atomically, so readers in other processes never see a half-built index.
"""

from __future__ import annotations

import os
import pickle
import shutil
from dataclasses import dataclass, field
from pathlib import Path

from index.graph import Graph
from index.model import FileProblem, Page

SCHEMA_VERSION = 3
CATALOG_FILE = "catalog.pickle"
CURRENT_FILE = "CURRENT"


@dataclass
class Catalog:
    pages: dict[str, Page]
    fingerprints: dict[str, tuple[int, int]]
    first_seen: dict[str, str]
    skipped: dict[str, str]
    warnings: dict[str, str]
    graph: Graph
    updated_at: str
    version: int = SCHEMA_VERSION
    log_text: str = field(default="")

    def copy(self) -> Catalog:
        """A copy whose tables can change without touching this one (pages are immutable)."""
        return Catalog(
            dict(self.pages),
            dict(self.fingerprints),
            dict(self.first_seen),
            dict(self.skipped),
            dict(self.warnings),
            self.graph,
            self.updated_at,
            self.version,
            self.log_text,
        )

    @property
    def skipped_list(self) -> tuple[FileProblem, ...]:
        return tuple(FileProblem(path, reason) for path, reason in sorted(self.skipped.items()))

    @property
    def warning_list(self) -> tuple[FileProblem, ...]:
        return tuple(FileProblem(path, reason) for path, reason in sorted(self.warnings.items()))


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
    _write_atomically(index_dir / CURRENT_FILE, generation.name.encode())
    for old in index_dir.glob("gen-*"):
        if old not in (generation, previous) and old.is_dir():
            shutil.rmtree(old, ignore_errors=True)


def load_catalog(generation: Path) -> Catalog | None:
    """The catalog of a generation, or None when it is missing, unreadable or of an old schema."""
    try:
        with (generation / CATALOG_FILE).open("rb") as handle:
            catalog = pickle.load(handle)
    except (OSError, pickle.UnpicklingError, EOFError, AttributeError, ImportError, TypeError, ValueError):
        return None
    if not isinstance(catalog, Catalog) or catalog.version != SCHEMA_VERSION:
        return None
    return catalog


def save_catalog(generation: Path, catalog: Catalog) -> None:
    _write_atomically(generation / CATALOG_FILE, pickle.dumps(catalog, protocol=pickle.HIGHEST_PROTOCOL))


Stamp = tuple[int, int, int]


def catalog_stamp(generation: Path) -> Stamp | None:
    """Identifies one written catalog: each save is a new file (inode), so coarse clocks do not matter."""
    try:
        stat = (generation / CATALOG_FILE).stat()
    except OSError:
        return None
    return (stat.st_ino, stat.st_mtime_ns, stat.st_size)


def _write_atomically(path: Path, data: bytes) -> None:
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    with temporary.open("wb") as handle:
        handle.write(data)
        handle.flush()
        os.fsync(handle.fileno())
    os.replace(temporary, path)
