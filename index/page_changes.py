"""What changed on a page, in the wiki's own terms: relation lines added or removed (by label),
sources newly linked, the summary's new sentences, the page renamed or gone.

A `PageSnapshot` is a page as a watcher was last told of it: only what the wiki means, never how it
is written, so an edit that only touches whitespace, or frontmatter dates, changes nothing here.
`page_change` compares two snapshots.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field

from index.model import Card
from index.reading.format import SOURCE

_SENTENCE_END = re.compile(r"(?<=[。．！？!?])|(?<=\.)\s+|\n+")


@dataclass(frozen=True)
class PageSnapshot:
    path: str
    title: str
    relations: tuple[tuple[str, tuple[str, ...]], ...] = ()
    """Each relation group's label and the names it links, sources aside."""
    sources: tuple[str, ...] = ()
    """The source pages the page links."""
    summary: tuple[str, ...] = ()
    """The summary's sentences, their whitespace made single spaces."""

    def to_json(self) -> str:
        return json.dumps(
            {
                "path": self.path,
                "title": self.title,
                "relations": [[label, list(names)] for label, names in self.relations],
                "sources": list(self.sources),
                "summary": list(self.summary),
            },
            ensure_ascii=False,
        )

    @classmethod
    def from_json(cls, text: str) -> PageSnapshot | None:
        """The snapshot ``text`` holds; None for text that is not one."""
        try:
            data = json.loads(text)
            return cls(
                str(data["path"]),
                str(data["title"]),
                tuple((str(label), tuple(str(n) for n in names)) for label, names in data["relations"]),
                tuple(str(name) for name in data["sources"]),
                tuple(str(sentence) for sentence in data["summary"]),
            )
        except (ValueError, KeyError, TypeError):
            return None


def snapshot_of(card: Card) -> PageSnapshot:
    relations = []
    sources: list[str] = []
    for group in card.groups:
        names = tuple(ref.name for ref in group.refs if ref.type != SOURCE)
        sources += [ref.name for ref in group.refs if ref.type == SOURCE]
        if names:
            relations.append((group.label, names))
    return PageSnapshot(
        card.path, card.title, tuple(relations), tuple(dict.fromkeys(sources)), sentences(card.summary)
    )


def sentences(text: str) -> tuple[str, ...]:
    found = (" ".join(part.split()) for part in _SENTENCE_END.split(text))
    return tuple(dict.fromkeys(sentence for sentence in found if sentence))


@dataclass(frozen=True)
class PageChange:
    title: str
    """The page's title as the watcher knew it."""
    renamed_to: str | None = None
    """Its new title, when it was renamed (moved to another path, or retitled)."""
    deleted: bool = False
    added: tuple[tuple[str, str], ...] = ()
    """Relation lines added: (label, name linked)."""
    removed: tuple[tuple[str, str], ...] = ()
    new_sources: tuple[str, ...] = ()
    new_sentences: tuple[str, ...] = ()
    paths: tuple[str, str | None] = field(default=("", None))
    """The page's path before, and now (None: gone)."""

    @property
    def empty(self) -> bool:
        return not (
            self.renamed_to
            or self.deleted
            or self.added
            or self.removed
            or self.new_sources
            or self.new_sentences
        )


def page_change(old: PageSnapshot, new: PageSnapshot | None) -> PageChange:
    """What changed from ``old`` to ``new`` (None: the page is gone)."""
    if new is None:
        return PageChange(old.title, deleted=True, paths=(old.path, None))
    before, after = _lines(old), _lines(new)
    told = {_bare(sentence) for sentence in old.summary}
    renamed = new.title if (new.title != old.title or new.path != old.path) else None
    return PageChange(
        old.title,
        renamed_to=renamed,
        added=tuple(line for line in after if line not in before),
        removed=tuple(line for line in before if line not in after),
        new_sources=tuple(name for name in new.sources if name not in old.sources),
        new_sentences=tuple(sentence for sentence in new.summary if _bare(sentence) not in told),
        paths=(old.path, new.path),
    )


def _lines(snapshot: PageSnapshot) -> dict[tuple[str, str], None]:
    """The snapshot's relation lines, (label, name linked), in the page's order."""
    return dict.fromkeys((label, name) for label, names in snapshot.relations for name in names)


def _bare(sentence: str) -> str:
    """A sentence without its whitespace: spaces put in or taken out (``北京の 企業``) change nothing."""
    return "".join(sentence.split())
