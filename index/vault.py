"""Which files of a vault are pages, and how to notice that they changed.

Two shapes (wiki-format §1): the harness layout, where knowledge lives directly in
``wiki/{sources,entities,concepts,questions,surveys}/`` and companions in ``wiki/{asks,briefs}/``;
and plain vaults (any ``.md`` or exported ``.txt`` outside dot-folders). Both skip ``_``-prefixed
files, catalogs, ``meta/`` and tooling.
"""

from __future__ import annotations

import os
import unicodedata
from dataclasses import dataclass
from pathlib import Path

from index.format import FOLDER_TYPES

KNOWLEDGE_DIRS = ("sources", "entities", "concepts", "questions", "surveys")
COMPANION_DIRS = ("asks", "briefs")
CATALOG_NAMES = frozenset({"index.md", "log.md", "hot.md", "overview.md", "claude.md"})
SKIPPED_DIRS = frozenset({"meta", "_attachments", "node_modules", "scripts", "bin"})
PAGE_SUFFIXES = (".md", ".txt")
LOG_PATH = "wiki/log.md"


@dataclass(frozen=True)
class VaultFile:
    path: str
    """Vault-relative POSIX path, NFC-normalised."""
    absolute: Path
    folder_type: str | None
    mtime_ns: int
    size: int

    @property
    def fingerprint(self) -> tuple[int, int]:
        return (self.mtime_ns, self.size)


def is_harness_vault(root: Path) -> bool:
    return (root / "wiki").is_dir()


def list_pages(root: Path) -> list[VaultFile]:
    """Every file that is a page, in a stable order."""
    files = _harness_files(root) if is_harness_vault(root) else _plain_files(root)
    return sorted(files, key=lambda file: file.path)


def _harness_files(root: Path) -> list[VaultFile]:
    found: list[VaultFile] = []
    for folder in (*KNOWLEDGE_DIRS, *COMPANION_DIRS):
        directory = root / "wiki" / folder
        if not directory.is_dir():
            continue
        prefix = f"wiki/{folder}/"
        with os.scandir(directory) as entries:
            for entry in entries:
                if entry.is_file() and _is_page_name(entry.name, (".md",)):
                    try:
                        stat = entry.stat()
                    except OSError:  # deleted since it was listed: the next scan settles it
                        continue
                    found.append(
                        VaultFile(
                            unicodedata.normalize("NFC", prefix + entry.name),
                            Path(entry.path),
                            FOLDER_TYPES[folder],
                            stat.st_mtime_ns,
                            stat.st_size,
                        )
                    )
    return found


def _plain_files(root: Path) -> list[VaultFile]:
    found: list[VaultFile] = []
    for directory, subdirs, names in os.walk(root):
        subdirs[:] = [d for d in subdirs if not d.startswith((".", "_")) and d.casefold() not in SKIPPED_DIRS]
        folder = Path(directory)
        folder_type = FOLDER_TYPES.get(folder.name.casefold()) if folder != root else None
        for name in names:
            if _is_page_name(name, PAGE_SUFFIXES) and name.casefold() not in CATALOG_NAMES:
                file = _vault_file(root, folder / name, folder_type)
                if file is not None:
                    found.append(file)
    return found


def _is_page_name(name: str, suffixes: tuple[str, ...]) -> bool:
    return name.endswith(suffixes) and not name.startswith(("_", "."))


def _vault_file(root: Path, absolute: Path, folder_type: str | None) -> VaultFile | None:
    """The file with its fingerprint, or None when it cannot be stat'ed (a dangling link)."""
    try:
        stat = absolute.stat()
    except OSError:
        return None
    relative = unicodedata.normalize("NFC", absolute.relative_to(root).as_posix())
    return VaultFile(relative, absolute, folder_type, stat.st_mtime_ns, stat.st_size)


def read_log(root: Path) -> str:
    """The text of ``wiki/log.md`` (or a root ``log.md`` in plain vaults), or ``""``."""
    for candidate in (root / LOG_PATH, root / "log.md"):
        if candidate.is_file():
            return candidate.read_bytes().decode("utf-8", errors="replace").replace("\r\n", "\n")
    return ""
