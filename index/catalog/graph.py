"""The link graph of the vault as readers see it: resolution, backlinks, names, and page cards.

`index.catalog.linking` keeps it up to date as pages change; this module reads it.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import TYPE_CHECKING

from index.catalog.names import NamedPage, NameRow, NameTable, name_row
from index.model import Card, Page, PageRef, RelationGroup
from index.reading.format import (
    COMPANION_TYPES,
    CONCEPT,
    ENTITY,
    NOT_KNOWLEDGE_TYPES,
    SOURCE,
    SOURCE_LABEL,
    source_short_title,
)
from index.reading.prose import link_label
from index.reading.wikilinks import LinkResolver, clean_target

if TYPE_CHECKING:
    from index.catalog.reader import CatalogRows

MAX_SHORT_TITLE = 40
_PAPER_WORDS = ("論文", "paper")


def is_knowledge(page: Page) -> bool:
    """Knowledge pages are searched, linked to and named; companions and meta pages are not."""
    return page.type not in COMPANION_TYPES and page.type not in NOT_KNOWLEDGE_TYPES


KnownBy = list[tuple[str, str]]


class Graph:
    """The links and names of one state of the index: read-only once published.

    ``backlinks``, ``outlinks`` and ``names`` are read from the catalog when asked for;
    ``resolver`` resolves any link target (`StoredResolver` for readers, the writer's
    own `LinkResolver` in the process that keeps the index up to date).
    """

    def __init__(
        self, rows: CatalogRows, names: NameTable | None = None, resolver: LinkResolver | None = None
    ) -> None:
        self.names = names or NameTable(rows)
        self.resolver: LinkResolver | StoredResolver = resolver or StoredResolver(rows)
        self.backlinks: Mapping[str, tuple[str, ...]] = LinkView(rows.backlinks, rows)
        self.outlinks: Mapping[str, tuple[str, ...]] = LinkView(rows.outlinks, rows)
        self.linking_pages = rows.linking_pages
        """(path, title, type, year) of the pages linking to a path, read without the pages."""


class LinkView(Mapping[str, tuple[str, ...]]):
    """Path → linked paths, one query per page asked for (a page without any is not a key)."""

    def __init__(self, read: Callable[[str], tuple[str, ...]], rows: CatalogRows) -> None:
        self._read, self._rows = read, rows

    def __getitem__(self, path: str) -> tuple[str, ...]:
        found = self._read(path)
        if not found:
            raise KeyError(path)
        return found

    def get(self, path: str, default: tuple[str, ...] = ()) -> tuple[str, ...]:  # type: ignore[override]
        return self._read(path) or default

    def __iter__(self) -> Iterator[str]:
        paths = [row[0] for row in self._rows.db().execute("SELECT path FROM pages ORDER BY path")]
        return (path for path in paths if self._read(path))

    def __len__(self) -> int:
        return sum(1 for _ in self)


class StoredResolver:
    """Resolution as the index stored it: every target a knowledge page links is resolved when the
    page is written. Any other target (a log entry's, a companion's) is resolved by a
    `LinkResolver` of the catalog's pages, built the first time one is asked for."""

    def __init__(self, rows: CatalogRows) -> None:
        self._rows = rows
        self._fallback: LinkResolver | None = None
        self._lock = threading.Lock()

    def resolve(self, target: str) -> str | None:
        known, path = self._rows.resolution(clean_target(target))
        if known:
            return path
        return self._resolver().resolve(target)

    def resolve_many(self, targets: Iterable[str]) -> dict[str, str | None]:
        """Every target's page, those some page links in one query (a log names thousands)."""
        cleaned = {target: clean_target(target) for target in targets}
        stored = self._rows.resolutions(cleaned.values())
        return {
            target: stored[clean] if clean in stored else self._resolver().resolve(target)
            for target, clean in cleaned.items()
        }

    def _resolver(self) -> LinkResolver:
        with self._lock:
            if self._fallback is None:
                self._fallback = LinkResolver(self._rows.link_targets())
            return self._fallback


def known_by(page: Page) -> KnownBy:
    """The names a knowledge page gives itself, with their kinds (see `index.catalog.names`)."""
    names = [(page.title, "title"), (page.stem, "stem"), *((alias, "alias") for alias in page.aliases)]
    names.extend((short, "short") for short in short_names(page))
    return names


def name_rows(names: KnownBy) -> list[NameRow]:
    return [row for name, kind in names if (row := name_row(name, kind)) is not None]


def short_names(page: Page) -> list[str]:
    """What a source is called in prose: the system name before `` - `` in its file name or before
    ``:`` in its title (``SLX``, ``MegaScale``), and an alias that names its paper (``LogSage 論文``,
    ``LogSage paper`` → ``LogSage``)."""
    found: list[str] = []
    short = source_short_title(page.stem)
    if short:
        found.append(short)
    if page.type == SOURCE:
        head, colon, _ = page.title.partition(":")
        if colon and 0 < len(head.strip()) <= MAX_SHORT_TITLE:
            found.append(head.strip())
        found.extend(name for name in map(_paper_alias, page.aliases) if name)
    return list(dict.fromkeys(found))


def _paper_alias(alias: str) -> str | None:
    """``LogSage paper`` → ``LogSage`` (cut with string methods: a regular expression tried every
    cut of an alias of many spaces)."""
    text = alias.strip()
    for word in _PAPER_WORDS:
        if text.casefold().endswith(word) and len(text) > len(word):
            return text[: -len(word)].rstrip() or None
    return None


def named(page: Page) -> NamedPage:
    return NamedPage(page.path, page.title, page.type, page.tier)


def linking_refs(graph: Graph, path: str, url_for: Callable[[str], str | None]) -> list[PageRef]:
    """The knowledge pages linking to ``path``, by path, read from the catalog's columns (an
    entity linked from thousands of pages does not have each one decoded)."""
    return [
        PageRef(title, other, type_, url_for(other), year)
        for other, title, type_, year in graph.linking_pages(path)
    ]


def page_ref(page: Page, url_for: Callable[[str], str | None]) -> PageRef:
    return PageRef(page.title, page.path, page.type, url_for(page.path), page.year)


def build_card(
    page: Page, pages: Mapping[str, Page], graph: Graph, url_for: Callable[[str], str | None]
) -> Card:
    """The page's summary and relations grouped by their label, as the page groups them."""
    groups: dict[str, list[PageRef]] = {}
    seen: dict[str, set[str]] = {}
    for relation in page.relations:
        refs = groups.setdefault(relation.label, [])
        keys = seen.setdefault(relation.label, set())
        for link in relation.links:
            target = graph.resolver.resolve(link.target)
            key = target or link.target
            if key in keys or target == page.path:
                continue
            keys.add(key)
            # A page removed by an update committed since this card began reads as a name.
            linked = pages.get(target) if target else None
            if linked is not None:
                refs.append(page_ref(linked, url_for))
            else:
                refs.append(PageRef(link_label(link.target, link.display)))
    ordered = [
        RelationGroup(label, tuple(_newest_first(refs, pages) if label == SOURCE_LABEL else refs))
        for label, refs in groups.items()
        if refs
    ]
    backlinks = sorted(
        linking_refs(graph, page.path, url_for),
        key=lambda ref: (ref.type != ENTITY, ref.type != CONCEPT, ref.name.casefold(), ref.path or ""),
    )
    return Card(
        path=page.path,
        title=page.title,
        type=page.type,
        summary=page.summary,
        groups=tuple(ordered),
        backlinks=tuple(backlinks),
        aliases=page.aliases,
        tier=page.tier,
        url=url_for(page.path),
        venue=page.venue,
        year=page.year,
        entity_type=page.entity_type,
    )


def _newest_first(refs: Iterable[PageRef], pages: Mapping[str, Page]) -> list[PageRef]:
    def age(ref: PageRef) -> tuple[int, str]:
        page = pages.get(ref.path or "")
        return (-(ref.year or 0), "" if page is None else _invert(page.created or page.date or ""))

    return sorted(refs, key=age)


def _invert(text: str) -> str:
    """Sort key that puts later ISO dates first."""
    return "".join(chr(0x10FFFF - ord(char)) for char in text)
