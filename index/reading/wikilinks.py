"""Wikilinks: the grammar (wiki-format §5) and resolution of a target to a page path."""

from __future__ import annotations

import re
import sys
import unicodedata
from bisect import bisect_left, insort
from collections import ChainMap
from collections.abc import Iterable, Iterator, MutableMapping

from index.analysis import fold
from index.model import Link
from index.reading.format import LINK_ORDER, NAVIGATION_TARGETS, WIKI_DIR

_HIDING = re.compile(
    r"(?P<fence>^[ \t]*(?P<mark>```|~~~).*?(?:^[ \t]*(?P=mark)[^\n]*$|\Z))|(?P<run>`+)|%%|<!--",
    re.MULTILINE | re.DOTALL,
)
"""What hides text: a fenced code block (up to its closing fence or the end), a run of backticks (an
inline code span when a run as long closes it in the same paragraph), a comment's opening mark."""
_COMMENT_ENDS = {"%%": "%%", "<!--": "-->"}
_BLANK_LINE = re.compile(r"\n[ \t]*\n")
WIKILINK = re.compile(r"(!?)\[\[([^\[\]|#^]*)(?:[#^][^\[\]|]*)?(?:\|([^\[\]]*))?\]\]")
"""``[[target#fragment|display]]`` and embeds (``![[…]]``): groups embed mark, target, display. No
part holds a ``[``: a line of them is rejected at each in one step, not by reading the rest."""
_NOT_PAGES = re.compile(
    r"\.(png|jpe?g|gif|svg|webp|pdf|mp4|mov|mp3|wav|canvas|base|json|csv|zip)$", re.IGNORECASE
)


def strip_code(text: str) -> str:
    """Blank out fenced code blocks and inline code: links inside them are not links."""
    if "`" not in text and "~~~" not in text:  # no code (most relation lines and values)
        return text
    kept: list[str] = []
    done = 0
    for start, end, code in hidden_spans(text):
        if code:
            kept.extend((text[done:start], " " * (end - start)))
            done = end
    return "".join((*kept, text[done:]))


def strip_comments(text: str) -> str:
    """Drop Obsidian comments (``%%…%%``) and HTML comments (``<!-- … -->``), inline or over many
    lines, outside code: Obsidian never shows them, and people keep reviewer notes and secrets
    there. An unclosed comment runs to the end of the text, as in Obsidian."""
    kept: list[str] = []
    done = 0
    for start, end, code in hidden_spans(text):
        if not code:
            kept.append(text[done:start])
            done = end
    return "".join((*kept, text[done:])) if kept else text


def hidden_spans(text: str) -> Iterator[tuple[int, int, bool]]:
    """``(start, end, is_code)`` of each code block, inline code span and comment, left to right;
    whichever starts first wins (a comment mark inside code is code, backticks inside a comment
    are comment). Linear in the text: each backtick run's closing run is looked up, not searched."""
    marks = list(_HIDING.finditer(text))
    closing: dict[int, int] = {}
    following: dict[int, int] = {}
    for index in range(len(marks) - 1, -1, -1):
        if marks[index].group("run"):
            length = len(marks[index].group())
            if length in following:
                closing[index] = following[length]
            following[length] = index
    blank_lines = [match.start() for match in _BLANK_LINE.finditer(text)]
    done = 0
    for index, mark in enumerate(marks):
        if mark.start() < done:
            continue
        if mark.group("fence"):
            done = mark.end()
            yield mark.start(), done, True
        elif mark.group("run"):
            close = closing.get(index)
            if close is not None and not _blank_line_between(blank_lines, mark.end(), marks[close].start()):
                done = marks[close].end()
                yield mark.start(), done, True
        else:
            ending = _COMMENT_ENDS[mark.group()]
            found = text.find(ending, mark.end())
            done = len(text) if found < 0 else found + len(ending)
            yield mark.start(), done, False


def _blank_line_between(blank_lines: list[int], start: int, end: int) -> bool:
    """An inline code span never runs over a blank line (it would end its paragraph)."""
    at = bisect_left(blank_lines, start)
    return at < len(blank_lines) and blank_lines[at] < end


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
    if "[[" not in text:
        return
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


_TABLES = ("_known", "_paths", "_stems", "_folded_stems", "_names")
LAYERS = 16
"""Copies a resolver's tables go through before they are made one dict again (see `copy`)."""


class LinkResolver:
    """Resolve link targets to page paths in the order of wiki-format §5.

    1. a target with ``/`` matches a path exactly (or as a path suffix);
    2. ``@…`` looks in ``wiki/sources/`` first;
    3. a basename takes the first match in sources > entities > concepts > questions > surveys,
       then the rest; 4. the same ignoring case and width; 5. titles and aliases, for plain vaults.

    Pages are added and removed one at a time as the vault changes (the result never depends on
    the order they came in). A `copy` shares nothing that either copy changes later: the writer
    changes a copy while readers go on resolving with the original.

    Each table is a chain of layers: changes go into the first, and a removed key is an empty
    entry there (``None`` for `_known`). A copy starts a new first layer on both sides and shares
    the rest, so an edit does not copy tables of the whole vault (90 ms at 100,000 pages); every
    `LAYERS` copies the layers are made one dict again.
    """

    def __init__(self, pages: Iterable[tuple[str, str, Iterable[str]]] = ()) -> None:
        """``pages``: (path, title, aliases) for every page that may be linked to."""
        self._known: MutableMapping[str, tuple[str, tuple[str, ...]] | None] = {}
        self._paths: MutableMapping[str, list[str]] = {}
        self._stems: MutableMapping[str, list[str]] = {}
        self._folded_stems: MutableMapping[str, list[str]] = {}
        self._names: MutableMapping[str, list[str]] = {}
        for path, title, aliases in sorted(pages, key=lambda page: rank_path(page[0])):
            names = tuple(aliases)
            self._known[path] = (title, names)
            for table, key in self._keys(path, title, names):
                table.setdefault(key, []).append(path)  # in rank order already
        for name in _TABLES:  # filled as plain dicts (faster), then the first layer of a chain
            setattr(self, name, ChainMap(getattr(self, name)))

    def copy(self) -> LinkResolver:
        other = LinkResolver()
        for name in _TABLES:
            table = getattr(self, name)
            shared = table.maps if len(table.maps) < LAYERS else [_flattened(table)]
            setattr(self, name, ChainMap({}, *shared))
            setattr(other, name, ChainMap({}, *shared))
        return other

    def __contains__(self, path: str) -> bool:
        return self._known.get(path) is not None

    def add(self, path: str, title: str, aliases: Iterable[str]) -> None:
        self.remove(path)
        names = tuple(aliases)
        self._known[path] = (title, names)
        for table, key in self._keys(path, title, names):
            paths = list(table.get(key, ()))  # a new list: a copy of this resolver may share the old one
            insort(paths, path, key=rank_path)
            table[key] = paths

    def remove(self, path: str) -> None:
        known = self._known.get(path)
        if known is None:
            return
        self._known[path] = None
        for table, key in self._keys(path, *known):
            table[key] = [other for other in table.get(key, ()) if other != path]

    def folded_names(self, path: str) -> set[str]:
        """The folded names of a known page a link target may be read as (see `link_key`)."""
        known = self._known.get(path)
        if known is None:
            return set()
        title, aliases = known
        return {fold(_stem(path)), *(fold(name) for name in (title, *aliases))}

    def _keys(
        self, path: str, title: str, aliases: tuple[str, ...]
    ) -> Iterator[tuple[MutableMapping[str, list[str]], str]]:
        yield self._paths, path.rsplit(".", 1)[0]
        stem = _stem(path)
        yield self._stems, stem
        yield self._folded_stems, fold(stem)
        for name in dict.fromkeys(fold(name) for name in (title, *aliases)):
            yield self._names, name

    def resolve(self, target: str) -> str | None:
        target = clean_target(target)
        if not target:
            return None
        if "/" in target:
            exact = self._paths.get(target.lstrip("/"))
            if exact:
                return exact[0]
            suffix = "/" + target.lstrip("/")
            matches = [
                paths[0] for stem_path, paths in self._paths.items() if paths and stem_path.endswith(suffix)
            ]
            if matches:
                return min(matches, key=rank_path)
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

    def resolve_many(self, targets: Iterable[str]) -> dict[str, str | None]:
        return {target: self.resolve(target) for target in targets}


def link_key(target: str) -> str:
    """What resolution reads a target by: its folded basename. A page can only be what a target
    resolves to when this is one of the page's `LinkResolver.folded_names`, so a page that comes,
    goes or is renamed changes the resolution of those targets only."""
    return fold(clean_target(target).rsplit("/", 1)[-1])


def _stem(path: str) -> str:
    return path.rsplit(".", 1)[0].rsplit("/", 1)[-1]


def rank_path(path: str) -> tuple[int, int, str]:
    """By the first folder under ``wiki/`` (however deep the page is nested), then shortest path."""
    parts = path.split("/")
    folder = parts[1].casefold() if len(parts) > 2 and parts[0] == WIKI_DIR else ""
    order = LINK_ORDER.index(folder) if folder in LINK_ORDER else len(LINK_ORDER)
    return (order, len(path), path)


def _flattened(table: ChainMap) -> dict:
    """A chain of layers as one dict, without the entries of removed keys."""
    return {key: value for key, value in table.items() if value}
