"""Keeping the link graph and the names up to date as pages change: the writer's side of
`index.catalog.graph`.

An update touches the pages that changed and their neighbours, never every page:

- a changed page's own rows (links, names) are rewritten;
- a page that comes, goes or is renamed can change what other pages' links resolve to, but only
  links whose target reads as one of its names (`index.reading.wikilinks.link_key`): those are resolved again,
  and the pages whose links now point elsewhere are *relinked* (the search store re-reads them);
- the names of a page include the display texts of links to it (``[[X|display]]``), so the pages
  such links pointed to before and after get their display names again. Names linked without a
  page are read from the links as they are (nothing to keep up).

`Linker` does this for one update inside the writer's transaction; `link_everything` does the
same for a build of a whole generation at once. Both leave the catalog's rows exactly as the other
would (`tests/index/test_incremental.py` checks it).
"""

from __future__ import annotations

from collections.abc import Iterable

from index.catalog.graph import known_by, name_rows
from index.catalog.names import NameRow, name_row, normalize_name
from index.catalog.schema import LinkRow
from index.catalog.writer import CatalogWriter
from index.model import Link, Page
from index.reading.wikilinks import LinkResolver, link_key

DISPLAY = "display"
OWN_KINDS = ("title", "stem", "alias", "short")


def link_rows(page: Page) -> list[LinkRow]:
    """A knowledge page's links, unresolved (`Linker.finish` or `link_everything` resolves them)."""
    return [
        (page.path, position, link.target, link.display, link_key(link.target), unresolved_key(link), None)
        for position, link in enumerate(page.links)
    ]


def unresolved_key(link: Link) -> str | None:
    """The name a link names when nothing resolves it ("no page yet"): not for sources or paths."""
    if link.target.startswith("@") or "/" in link.target:
        return None
    return normalize_name(link.target) or None


class Linker:
    """One update's changes to the link graph, the names and the resolver (a copy, given)."""

    def __init__(self, writer: CatalogWriter, resolver: LinkResolver) -> None:
        self.writer, self.resolver = writer, resolver
        self.keys: set[str] = set()
        """Name keys that were added or removed somewhere (`index.catalog.names.NameTable.with_keys`)."""
        self._read_as: set[str] = set()
        """Link keys whose resolution may have changed."""
        self._rewritten: set[str] = set()
        """Pages whose own links were rewritten (resolved in `finish`)."""
        self._renamed: set[str] = set()
        """Pages whose display names are worked out again."""

    def remove(self, path: str) -> None:
        """Forget the page at ``path`` (removed, or about to be written again)."""
        self._read_as |= self.resolver.folded_names(path)
        self.resolver.remove(path)
        self._note_links(self.writer.links_of(path))
        self.keys.update(row[2] for row in self.writer.names_of(path))
        self.writer.remove_page(path)

    def put(self, page: Page) -> None:
        """A knowledge page, whose row the caller has just written."""
        self.resolver.add(page.path, page.title, page.aliases)
        self._read_as |= self.resolver.folded_names(page.path)
        self.writer.add_links(link_rows(page))
        own = name_rows(known_by(page))
        self.writer.set_names(page.path, own, kinds=OWN_KINDS)
        self.keys.update(row[2] for row in own)
        self._rewritten.add(page.path)
        self._renamed.add(page.path)

    def finish(self) -> set[str]:
        """Resolve what may resolve differently now; returns the unchanged pages whose links point
        elsewhere than before (their passages must be indexed again)."""
        resolve = _memo(self.resolver)
        for path in self._rewritten:
            rows = self.writer.links_of(path)
            for source, position, target, *_ in rows:
                self.writer.resolve_link(source, position, resolve(target))
            self._note_links(self.writer.links_of(path))
        relinked: set[str] = set()
        changes: dict[str, list[tuple[LinkRow, str | None]]] = {}
        for row in self.writer.links_read_as(self._read_as):
            if row[0] in self._rewritten:
                continue
            resolved = resolve(row[2])
            if resolved != row[6]:
                changes.setdefault(row[0], []).append((row, resolved))
        for source, changed in changes.items():
            before = self.writer.outlinks(source)
            for row, resolved in changed:
                self.writer.resolve_link(row[0], row[1], resolved)
                self._note_links([row, (*row[:6], resolved)])  # type: ignore[list-item]
            if self.writer.outlinks(source) != before:
                relinked.add(source)
        self._rename()
        return relinked

    def _note_links(self, rows: Iterable[LinkRow]) -> None:
        for _, _, _, display, _, _, resolved in rows:
            if resolved is not None and display:
                self._renamed.add(resolved)

    def _rename(self) -> None:
        for path in sorted(self._renamed):
            if self.writer.named_page(path) is None:
                continue
            self.keys.update(row[2] for row in self.writer.names_of(path) if row[1] == DISPLAY)
            shown = _display_rows(self.writer.display_names(path))
            self.writer.set_names(path, shown, kinds=(DISPLAY,))
            self.keys.update(row[2] for row in shown)


def link_everything(writer: CatalogWriter, resolver: LinkResolver) -> None:
    """A new generation's links, all written unresolved: resolve each target once, and give
    every linked page the display names of the links to it."""
    resolve = _memo(resolver)
    writer.resolve_all((target, resolve(target)) for target in writer.link_targets())
    displays: dict[str, list[str]] = {}
    for path, display in writer.displayed_pages():
        displays.setdefault(path, []).append(display)
    for path, shown in displays.items():
        writer.set_names(path, _display_rows(shown), kinds=(DISPLAY,))


def _display_rows(displays: Iterable[str]) -> list[NameRow]:
    return [row for display in displays if (row := name_row(display, DISPLAY)) is not None]


def _memo(resolver: LinkResolver):
    """``resolver.resolve``, once per target (the same few thousand names are linked everywhere)."""
    cache: dict[str, str | None] = {}

    def resolve(target: str) -> str | None:
        if target not in cache:
            cache[target] = resolver.resolve(target)
        return cache[target]

    return resolve
