"""Wikilinks: the grammar (wiki-format §5) and resolution of a target to a page path."""

from __future__ import annotations

import re
import sys
import unicodedata
from collections.abc import Iterable, Iterator

from index.analysis import fold
from index.format import LINK_ORDER, NAVIGATION_TARGETS, WIKI_DIR
from index.model import Link

_FENCE = re.compile(r"^[ \t]*(```|~~~).*?(?:^[ \t]*\1[^\n]*$|\Z)", re.MULTILINE | re.DOTALL)
_INLINE_CODE = re.compile(r"(`+)(?!`).*?(?<!`)\1(?!`)", re.DOTALL)
WIKILINK = re.compile(r"(!?)\[\[([^\]|#^]*)(?:[#^][^\]|]*)?(?:\|([^\]]*))?\]\]")
"""``[[target#fragment|display]]`` and embeds (``![[…]]``): groups embed mark, target, display."""
_NOT_PAGES = re.compile(
    r"\.(png|jpe?g|gif|svg|webp|pdf|mp4|mov|mp3|wav|canvas|base|json|csv|zip)$", re.IGNORECASE
)


def strip_code(text: str) -> str:
    """Blank out fenced code blocks and inline code: links inside them are not links."""
    text = _FENCE.sub(lambda m: " " * len(m.group()), text)
    return _INLINE_CODE.sub(lambda m: " " * len(m.group()), text)


def clean_target(raw: str) -> str:
    """NFC, trimmed, without a trailing ``.md``."""
    target = unicodedata.normalize("NFC", raw.strip())
    return target[:-3] if target.lower().endswith(".md") else target


def is_knowledge_target(target: str) -> bool:
    """False for embeds' files, raw originals, attachments and navigation links."""
    if not target or target.startswith(".raw/") or "_attachments/" in target:
        return False
    if _NOT_PAGES.search(target):
        return False
    return target.rsplit("/", 1)[-1].casefold() not in NAVIGATION_TARGETS


def find_links(text: str) -> Iterator[Link]:
    """Every knowledge wikilink in order, outside code, embeds excluded."""
    for match in WIKILINK.finditer(strip_code(text.replace("\\|", "|"))):
        if match.group(1):
            continue
        target = clean_target(match.group(2))
        if not is_knowledge_target(target):
            continue
        display = match.group(3)
        display = display.strip() if display and display.strip() else None
        # Interned: the same few thousand names are linked from every page, and the catalog
        # (in memory and pickled) then holds each once.
        yield Link(sys.intern(target), sys.intern(display) if display else None)


def find_links_in_values(values: Iterable[str]) -> Iterator[Link]:
    """Links held in frontmatter values (``"[[X]]"`` strings); bare names are not links."""
    for value in values:
        yield from find_links(value)


class LinkResolver:
    """Resolve link targets to page paths in the order of wiki-format §5.

    1. a target with ``/`` matches a path exactly (or as a path suffix);
    2. ``@…`` looks in ``wiki/sources/`` first;
    3. a basename takes the first match in sources > entities > concepts > questions > surveys,
       then the rest; 4. the same ignoring case and width; 5. titles and aliases, for plain vaults.
    """

    def __init__(self, pages: Iterable[tuple[str, str, Iterable[str]]]) -> None:
        """``pages``: (path, title, aliases) for every page that may be linked to."""
        self._paths: dict[str, str] = {}
        self._stems: dict[str, list[str]] = {}
        self._folded_stems: dict[str, list[str]] = {}
        self._names: dict[str, list[str]] = {}
        for path, title, aliases in sorted(pages, key=lambda page: _rank_path(page[0])):
            without_ext = path.rsplit(".", 1)[0]
            self._paths[without_ext] = path
            stem = without_ext.rsplit("/", 1)[-1]
            self._stems.setdefault(stem, []).append(path)
            self._folded_stems.setdefault(fold(stem), []).append(path)
            for name in (title, *aliases):
                self._names.setdefault(fold(name), []).append(path)

    def resolve(self, target: str) -> str | None:
        target = clean_target(target)
        if not target:
            return None
        if "/" in target:
            exact = self._paths.get(target.lstrip("/"))
            if exact:
                return exact
            suffix = "/" + target.lstrip("/")
            matches = [path for stem_path, path in self._paths.items() if stem_path.endswith(suffix)]
            if matches:
                return matches[0]
            target = target.rsplit("/", 1)[-1]
        for table, key in (
            (self._stems, target),
            (self._folded_stems, fold(target)),
            (self._names, fold(target)),
        ):
            found = table.get(key)
            if found:
                return found[0]
        return None


def _rank_path(path: str) -> tuple[int, int, str]:
    """By the first folder under ``wiki/`` (however deep the page is nested), then shortest path."""
    parts = path.split("/")
    folder = parts[1].casefold() if len(parts) > 2 and parts[0] == WIKI_DIR else ""
    order = LINK_ORDER.index(folder) if folder in LINK_ORDER else len(LINK_ORDER)
    return (order, len(path), path)
