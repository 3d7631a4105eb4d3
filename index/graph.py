"""The link graph of the vault: resolution, backlinks, names without pages, and page cards."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from index.format import (
    COMPANION_TYPES,
    CONCEPT,
    ENTITY,
    NOT_KNOWLEDGE_TYPES,
    SOURCE,
    SOURCE_LABEL,
    source_short_title,
)
from index.links import LinkResolver
from index.model import Card, Page, PageRef, RelationGroup
from index.names import NamedPage, NameTable
from index.prose import link_label

MAX_SHORT_TITLE = 40
_PAPER_ALIAS = re.compile(r"^\s*(.+?)\s*(?:論文|paper)\s*$", re.IGNORECASE)


def is_knowledge(page: Page) -> bool:
    """Knowledge pages are searched, linked to and named; companions and meta pages are not."""
    return page.type not in COMPANION_TYPES and page.type not in NOT_KNOWLEDGE_TYPES


@dataclass
class Graph:
    """Built from all pages at once after every update; read-only afterwards."""

    resolver: LinkResolver
    names: NameTable
    backlinks: dict[str, tuple[str, ...]]
    outlinks: dict[str, tuple[str, ...]]


def build_graph(pages: dict[str, Page]) -> Graph:
    knowledge = [page for page in pages.values() if is_knowledge(page)]
    resolver = LinkResolver((page.path, page.title, page.aliases) for page in knowledge)
    names = NameTable()
    for page in knowledge:
        named = _named(page)
        names.add(named, page.title, "title")
        names.add(named, page.stem, "stem")
        for alias in page.aliases:
            names.add(named, alias, "alias")
        for short in short_names(page):
            names.add(named, short, "short")
    backlinks: dict[str, set[str]] = {}
    outlinks: dict[str, tuple[str, ...]] = {}
    resolved: dict[str, str | None] = {}  # the same names are linked from many pages
    for page in knowledge:
        targets: list[str] = []
        for link in page.links:
            if link.target not in resolved:
                resolved[link.target] = resolver.resolve(link.target)
            target = resolved[link.target]
            if target is None:
                if not link.target.startswith("@") and "/" not in link.target:
                    names.add_unresolved(link.target, page.path)
                continue
            if link.display and target != page.path:
                names.add(_named(pages[target]), link.display, "display")
            if target != page.path and target not in targets:
                targets.append(target)
                backlinks.setdefault(target, set()).add(page.path)
        outlinks[page.path] = tuple(targets)
    names.finish()
    return Graph(resolver, names, {path: tuple(sorted(paths)) for path, paths in backlinks.items()}, outlinks)


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
        for alias in page.aliases:
            paper = _PAPER_ALIAS.match(alias)
            if paper:
                found.append(paper.group(1))
    return list(dict.fromkeys(found))


def _named(page: Page) -> NamedPage:
    return NamedPage(page.path, page.title, page.type, page.tier)


def page_ref(page: Page, url_for: Callable[[str], str | None]) -> PageRef:
    return PageRef(page.title, page.path, page.type, url_for(page.path), page.year)


def build_card(
    page: Page, pages: dict[str, Page], graph: Graph, url_for: Callable[[str], str | None]
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
            if target:
                refs.append(page_ref(pages[target], url_for))
            else:
                refs.append(PageRef(link_label(link.target, link.display)))
    ordered = [
        RelationGroup(label, tuple(_newest_first(refs, pages) if label == SOURCE_LABEL else refs))
        for label, refs in groups.items()
        if refs
    ]
    backlinks = sorted(
        (page_ref(pages[path], url_for) for path in graph.backlinks.get(page.path, ())),
        key=lambda ref: (ref.type != ENTITY, ref.type != CONCEPT, ref.name.casefold()),
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


def _newest_first(refs: Iterable[PageRef], pages: dict[str, Page]) -> list[PageRef]:
    def age(ref: PageRef) -> tuple[int, str]:
        page = pages.get(ref.path or "")
        return (-(ref.year or 0), "" if page is None else _invert(page.created or page.date or ""))

    return sorted(refs, key=age)


def _invert(text: str) -> str:
    """Sort key that puts later ISO dates first."""
    return "".join(chr(0x10FFFF - ord(char)) for char in text)
