"""Which files of a vault are pages, which are not and why, and how to notice that they changed.

Three layouts (wiki-format §1). A vault with a ``wiki/`` folder is read there: every ``.md`` under
``wiki/`` at any depth is a page, typed by its first folder when its frontmatter says nothing;
the human note layer beside it (``papers/``, ``notes/`` …) is left out. A plain vault reads every
``.md`` file. A folder of exports (no Markdown note at all, like ``tests/fixtures/seeds/``) reads
its ``.txt`` files; anywhere else ``.txt`` files are attachments.

Never pages, in any layout: dot-folders and dot-files (never even walked), tooling folders,
``_``-folders and ``_``-files, ``meta/``, ``raw/`` and ``inbox/`` folders, catalogs and guides by
name. Every Markdown file that is not a page is counted with its reason, per top folder
(`VaultSurvey`), so ``sakuin index`` and ``sakuin doctor`` can say what was left out.

Only regular files are read, and no symbolic link is ever followed inside the vault: not a link
to a file or folder outside it (``Environ.md -> /proc/self/environ``), not a link to a device
(``/dev/zero``), and not a link to another note of the same vault either (that note is read under
its own name already; following some links and not others would make what is read depend on where
a link points at the moment of reading). A linked file or folder, a FIFO, a device or a socket is
left out and counted under its reason (`SYMLINK`, `NOT_REGULAR`). The vault's root itself may be a
link (``WIKI_DIR`` names it): it is where the vault is. `read_vault_file` opens every folder on the
way from the root and then the file with ``O_NOFOLLOW`` and checks the opened file is a regular
one, so a file or folder swapped for a link between the walk and the read is not followed either.
"""

from __future__ import annotations

import errno
import os
import stat
import unicodedata
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

from index.model import FolderCount, VaultSurvey
from index.reading.format import (
    CATALOG_NAMES,
    FOLDER_TYPES,
    GUIDE_NAMES,
    INBOX_DIRS,
    LOG_NAME,
    META_DIRS,
    RAW_DIRS,
    TOOLING_DIRS,
    WIKI_DIR,
    folder_type,
)

WIKI, PLAIN, EXPORTS = "wiki", "plain", "exports"
NOTE_SUFFIX, EXPORT_SUFFIX = ".md", ".txt"
PAGE_SUFFIXES = (NOTE_SUFFIX, EXPORT_SUFFIX)
"""Files that may be pages: what a watcher of the vault listens for."""

OUTSIDE_WIKI = "outside wiki/ (human note layer)"
CATALOG = "catalog"
GUIDE = "guide"
META = "meta/ folder"
RAW = "raw material"
INBOX = "inbox/ folder (requests)"
UNDERSCORE = "_-prefixed"
UNREADABLE = "could not be read"
SYMLINK = "symbolic link"
"""A linked file or folder: never followed (see the module's docstring)."""
NOT_REGULAR = "not a regular file"
"""A FIFO, a device or a socket named like a page: reading it could block or never end."""
TEXT_ATTACHMENT = "text file beside Markdown notes"
NOT_NOTES = frozenset({CATALOG, GUIDE, TEXT_ATTACHMENT, INBOX})
"""Left out by design and never a note: they do not count towards the 'most left out' warning."""
ROOT = "."
"""The top folder of files directly in the vault's root."""
WARNED_FOLDERS = 5


@dataclass(frozen=True)
class VaultFile:
    path: str
    """Vault-relative POSIX path, NFC-normalised."""
    root: str
    """The vault's root, as given."""
    spelled: str
    """The path from the root as the file system spells it (which may be NFD): what is read."""
    folder_type: str | None
    mtime_ns: int
    size: int

    @property
    def fingerprint(self) -> tuple[int, int]:
        return (self.mtime_ns, self.size)


@dataclass(frozen=True)
class Scan:
    """One walk of the vault: its pages, and the survey of what was read and left out."""

    files: tuple[VaultFile, ...]
    survey: VaultSurvey


def scan_vault(root: Path) -> Scan:
    """Every file that is a page, in a stable order, and the count of every one that is not."""
    layout = vault_layout(root)
    pages: list[VaultFile] = []
    texts: list[tuple[tuple[str, ...], os.DirEntry[str]]] = []
    indexed: Counter[str] = Counter()
    left_out: dict[str, Counter[str]] = {}
    base = str(root)
    stack: list[tuple[str, tuple[str, ...], str | None]] = [(base, (), None)]
    while stack:
        directory, parts, inherited = stack.pop()  # parts: NFC names from the root
        try:
            with os.scandir(directory) as listing:
                entries = list(listing)
        except OSError:  # removed or unreadable since it was listed: the next scan settles it
            continue
        for entry in entries:
            name = unicodedata.normalize("NFC", entry.name)
            if name.startswith("."):
                continue
            try:
                is_dir = entry.is_dir(follow_symlinks=False)
                linked_folder = not is_dir and entry.is_symlink() and entry.is_dir()
            except OSError:
                continue
            if is_dir or linked_folder:
                if name.casefold() in TOOLING_DIRS:
                    continue
                reason = inherited or _folder_reason(layout, parts, name)
                if is_dir:
                    stack.append((entry.path, (*parts, name), reason))
                elif reason is None:  # a folder the vault would read: say that it was not
                    top = top_folder("/".join((*parts, name, "")), layout)
                    left_out.setdefault(top, Counter())[SYMLINK] += 1
                continue
            relative = (*parts, name)
            if name.endswith(EXPORT_SUFFIX):
                if (inherited or _file_reason(layout, relative)) is None:
                    texts.append((relative, entry))
                continue
            if not name.endswith(NOTE_SUFFIX):
                continue
            top = top_folder("/".join(relative), layout)
            reason = inherited or _file_reason(layout, relative) or _kind_reason(entry)
            file = None if reason else _vault_file(base, entry, relative, _type_of(layout, relative))
            if file is None:
                left_out.setdefault(top, Counter())[reason or UNREADABLE] += 1
            else:
                pages.append(file)
                indexed[top] += 1
    if layout == PLAIN and not pages and texts:
        layout = EXPORTS
    for relative, entry in texts:
        top = top_folder("/".join(relative), layout)
        reason = TEXT_ATTACHMENT if layout != EXPORTS else _kind_reason(entry)
        file = None if reason else _vault_file(base, entry, relative, _type_of(layout, relative))
        if file is None:
            left_out.setdefault(top, Counter())[reason or UNREADABLE] += 1
        else:
            pages.append(file)
            indexed[top] += 1
    pages.sort(key=lambda file: file.path)
    return Scan(tuple(pages), build_survey(layout, indexed, left_out))


def vault_layout(root: Path) -> str:
    """``wiki`` or ``plain`` (a folder of exports is told apart only by a whole scan). A linked
    ``wiki/`` is not followed, so it does not make a wiki layout either."""
    return WIKI if _is_folder(root / WIKI_DIR) else PLAIN


def _is_folder(path: Path) -> bool:
    try:
        return stat.S_ISDIR(os.lstat(path).st_mode)
    except OSError:
        return False


def files_at(root: Path, layout: str, paths: Iterable[str]) -> tuple[list[VaultFile], list[str]]:
    """The pages among ``paths`` (vault-relative) by the rules `scan_vault` walks by, and the paths
    that are no page now (removed, or never one): what an update needs when it is told which
    files changed instead of scanning every one. ``layout`` is the vault's, from its last scan."""
    files: list[VaultFile] = []
    others: list[str] = []
    for path in dict.fromkeys(paths):
        file = _file_at(root, layout, path)
        if file is None:
            others.append(unicodedata.normalize("NFC", path))
        else:
            files.append(file)
    return files, others


def _file_at(root: Path, layout: str, path: str) -> VaultFile | None:
    """The page at ``path`` as the file system spells it (NFC only in the page's own path)."""
    parts = tuple(unicodedata.normalize("NFC", part) for part in path.split("/"))
    if not parts[-1].endswith(NOTE_SUFFIX) or any(part.startswith(".") or not part for part in parts):
        return None
    for depth, name in enumerate(parts[:-1]):
        if name.casefold() in TOOLING_DIRS or _folder_reason(layout, parts[:depth], name):
            return None
    if _file_reason(layout, parts):
        return None
    found = _regular_stat(root, path)
    if found is None:
        return None
    return VaultFile(
        "/".join(parts), str(root), path, _type_of(layout, parts), found.st_mtime_ns, found.st_size
    )


def _regular_stat(root: Path, spelled: str) -> os.stat_result | None:
    """The file's status when it and every folder on its way from the root are no link and it is a
    regular file (what `scan_vault` reads), else None. The read checks again (`read_vault_file`)."""
    folder = root
    for name in spelled.split("/")[:-1]:
        folder = folder / name
        if not _is_folder(folder):
            return None
    try:
        found = os.lstat(root / spelled)
    except OSError:
        return None
    return found if stat.S_ISREG(found.st_mode) else None


def survey_vault(root: Path, skipped: Mapping[str, str] | None = None) -> VaultSurvey:
    """Per top folder, how many notes are pages and how many are left out, and why. ``skipped``:
    pages the indexer could not read (path → reason), counted as left out. Reads only the tree."""
    survey = scan_vault(root).survey
    return with_skipped(survey, skipped) if skipped else survey


def with_skipped(survey: VaultSurvey, skipped: Mapping[str, str]) -> VaultSurvey:
    """The survey with pages that could not be read moved from indexed to left out, each under
    the reason it was skipped for (the one the problem-files table shows)."""
    indexed = Counter({folder.folder: folder.indexed for folder in survey.folders})
    left_out = {folder.folder: Counter(dict(folder.left_out)) for folder in survey.folders}
    for path, reason in skipped.items():
        top = top_folder(path, survey.layout)
        if indexed[top] > 0:
            indexed[top] -= 1
            left_out.setdefault(top, Counter())[reason or UNREADABLE] += 1
    return build_survey(survey.layout, indexed, left_out)


def build_survey(
    layout: str, indexed: Mapping[str, int], left_out: Mapping[str, Counter[str]]
) -> VaultSurvey:
    folders = tuple(
        FolderCount(
            folder,
            indexed.get(folder, 0),
            tuple(sorted(left_out.get(folder, Counter()).items(), key=lambda item: (-item[1], item[0]))),
        )
        for folder in sorted({*indexed, *left_out}, key=lambda name: (name == ROOT, name.casefold()))
        if indexed.get(folder, 0) or sum(left_out.get(folder, Counter()).values())
    )
    return VaultSurvey(layout, folders, _warning(folders))


def top_folder(path: str, layout: str) -> str:
    """``wiki/sources`` for anything under it in a wiki/ vault, else the first folder, else ``.``."""
    parts = path.split("/")
    if layout == WIKI and parts[0] == WIKI_DIR:
        return f"{WIKI_DIR}/{parts[1]}" if len(parts) > 2 else WIKI_DIR
    return parts[0] if len(parts) > 1 else ROOT


def _warning(folders: tuple[FolderCount, ...]) -> str | None:
    """Set when most notes (Markdown files other than catalogs and guides) are left out."""
    indexed = sum(folder.indexed for folder in folders)
    missed = {
        folder.folder: sum(count for reason, count in folder.left_out if reason not in NOT_NOTES)
        for folder in folders
    }
    total = indexed + sum(missed.values())
    if not total:
        return "no notes found: no Markdown file outside dot-folders, catalogs and guides"
    if sum(missed.values()) <= indexed:
        return None
    worst = sorted((item for item in missed.items() if item[1]), key=lambda item: (-item[1], item[0]))
    named = ", ".join(f"{folder} ({count})" for folder, count in worst[:WARNED_FOLDERS])
    more = f" and {len(worst) - WARNED_FOLDERS} more folders" if len(worst) > WARNED_FOLDERS else ""
    return f"most notes were left out ({total - indexed} of {total}): {named}{more}"


def _folder_reason(layout: str, parts: tuple[str, ...], name: str) -> str | None:
    """Why nothing in this folder is a page, or None when its files may be."""
    if layout == WIKI and not parts and name != WIKI_DIR:
        return OUTSIDE_WIKI
    folded = name.casefold()
    if folded in META_DIRS:
        return META
    if folded in RAW_DIRS:
        return RAW
    if folded in INBOX_DIRS:
        return INBOX
    return UNDERSCORE if name.startswith("_") else None


def _file_reason(layout: str, relative: tuple[str, ...]) -> str | None:
    name = relative[-1].casefold()
    if layout == WIKI and len(relative) == 1:
        return OUTSIDE_WIKI
    if name in CATALOG_NAMES or LOG_NAME.match(name):
        return CATALOG
    if name in GUIDE_NAMES:
        return GUIDE
    return UNDERSCORE if name.startswith("_") else None


def _type_of(layout: str, relative: tuple[str, ...]) -> str | None:
    """The type a page's folders give it: in ``wiki/``, its first folder (listed or not); in a
    plain vault, the first folder named like a wiki folder (``sources``, ``entities`` …)."""
    folders = relative[:-1]
    if layout == WIKI:
        return folder_type(folders[1]) if len(folders) > 1 else None
    known = next((FOLDER_TYPES[f.casefold()] for f in folders if f.casefold() in FOLDER_TYPES), None)
    return known


def _kind_reason(entry: os.DirEntry[str]) -> str | None:
    """Why a file named like a page cannot be one by its kind: a link, or not a regular file."""
    try:
        if entry.is_symlink():
            return SYMLINK
        return None if entry.is_file(follow_symlinks=False) else NOT_REGULAR
    except OSError:
        return UNREADABLE


def _vault_file(
    root: str, entry: os.DirEntry[str], relative: tuple[str, ...], page_type: str | None
) -> VaultFile | None:
    """The file with its fingerprint, or None when it cannot be stat'ed (removed since it was listed)."""
    try:
        found = entry.stat(follow_symlinks=False)
    except OSError:
        return None
    spelled = entry.path[len(root) :].lstrip(os.sep).replace(os.sep, "/")
    return VaultFile("/".join(relative), root, spelled, page_type, found.st_mtime_ns, found.st_size)


class RefusedFile(OSError):
    """A file that is not read: a symbolic link on its way from the root, or not a regular file.
    ``reason`` is the survey's (`SYMLINK`, `NOT_REGULAR`)."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


_FOLDER_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC
_FILE_FLAGS = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_NOCTTY | os.O_CLOEXEC
"""``O_NONBLOCK``: opening a FIFO for reading does not wait for a writer (it is then refused)."""


def read_vault_file(root: str, spelled: str, limit: int | None = None) -> bytes:
    """The bytes of the regular file at ``spelled`` (from ``root``, as the file system spells it),
    at most ``limit`` of them. Each folder on the way and then the file are opened relative to the
    one before with ``O_NOFOLLOW``, and the opened file is checked to be a regular file: a link or a
    FIFO put in place since the walk raises `RefusedFile`; other failures raise `OSError`."""
    names = spelled.split("/")
    folder = os.open(root, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    try:
        for name in names[:-1]:
            inner = _open_refusing_links(name, _FOLDER_FLAGS, folder)
            os.close(folder)
            folder = inner
        descriptor = _open_refusing_links(names[-1], _FILE_FLAGS, folder)
    finally:
        os.close(folder)
    with os.fdopen(descriptor, "rb") as handle:
        if not stat.S_ISREG(os.fstat(descriptor).st_mode):
            raise RefusedFile(NOT_REGULAR)
        return handle.read() if limit is None else handle.read(limit)


def _open_refusing_links(name: str, flags: int, folder: int) -> int:
    """``name`` opened in ``folder``; a link there raises `RefusedFile` (Linux says ``ELOOP`` for a
    file, ``ENOTDIR`` for a folder opened with ``O_DIRECTORY``)."""
    try:
        return os.open(name, flags, dir_fd=folder)
    except OSError as error:
        if error.errno in (errno.ELOOP, errno.ENOTDIR) and _is_link_in(name, folder):
            raise RefusedFile(SYMLINK) from error
        raise


def _is_link_in(name: str, folder: int) -> bool:
    try:
        return stat.S_ISLNK(os.stat(name, dir_fd=folder, follow_symlinks=False).st_mode)
    except OSError:
        return False


def log_files(root: Path) -> list[str]:
    """The wiki's logs, vault-relative: ``log.md`` and logs split by period (``log-2026.md``) in
    ``wiki/``, else in the vault's root (plain vaults, and wikis that keep their log beside
    ``wiki/``). Only regular files reached through no link (`_regular_stat`)."""
    for folder in (WIKI_DIR, ""):
        try:
            names = sorted(entry.name for entry in os.scandir(root / folder) if LOG_NAME.match(entry.name))
        except OSError:
            continue
        spelled = [f"{folder}/{name}" if folder else name for name in names]
        found = [name for name in spelled if _regular_stat(root, name) is not None]
        if found:
            return found
    return []


def log_fingerprint(root: Path) -> str:
    """Changes whenever `read_logs` would read something else (so a large log is read only then)."""
    prints = []
    for spelled in log_files(root):
        found = _regular_stat(root, spelled)
        if found is not None:
            prints.append(f"{root / spelled}:{found.st_mtime_ns}:{found.st_size}")
    return "|".join(prints)


def read_logs(root: Path) -> list[tuple[str, str]]:
    """(vault-relative path, text) of each of the wiki's logs (`log_files`) that could be read; read
    like a page (`read_vault_file`): a linked log is not read."""
    texts = []
    for spelled in log_files(root):
        try:
            data = read_vault_file(str(root), spelled)
        except OSError:
            continue
        path = unicodedata.normalize("NFC", spelled)
        texts.append((path, data.decode("utf-8", errors="replace").replace("\r\n", "\n")))
    return texts
