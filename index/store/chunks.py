"""Cutting a page into passages: the unit of full-text search and of a hit's snippet."""

from __future__ import annotations

import re

from index.model import Page
from index.reading.format import SEARCHED_APART_TYPES
from index.store.values import Chunk

MAX_CHUNK_CHARS = 700
_BREAKS = re.compile(r"(?<=\n)|(?<=[。！？])|(?<=[.!?]\s)")


Passages = tuple[str, str, tuple[tuple[str, str], ...]]
"""What a page's chunks are made of, without its links: (title, names, (heading, text) pieces)."""


def chunk_page(page: Page, linked_paths: tuple[str, ...]) -> list[Chunk]:
    """One chunk per section, long sections cut at line or sentence ends; names on the first. A
    page searched apart (the log) has chunks of its type's kind."""
    return chunks_of(page.path, passages_of(page), linked_paths, kind=chunk_kind(page))


def chunk_kind(page: Page) -> str:
    return page.type if page.type in SEARCHED_APART_TYPES else ""


def passages_of(page: Page) -> Passages:
    pieces = tuple(
        (section.heading, piece) for section in page.sections for piece in split_passages(section.text)
    ) or (("", page.title),)
    names = " ".join((page.stem, *page.aliases)) if page.stem != page.title else " ".join(page.aliases)
    return (page.title, names, pieces)


def chunks_of(path: str, passages: Passages, linked_paths: tuple[str, ...], *, kind: str = "") -> list[Chunk]:
    """The chunks of a page's passages; its links (the paths it links to) go on the first."""
    title, names, pieces = passages
    return [
        Chunk(
            path=path,
            ordinal=ordinal,
            heading=heading,
            text=text,
            title=title if ordinal == 0 else "",
            names=names if ordinal == 0 else "",
            links=linked_paths if ordinal == 0 else (),
            kind=kind,
        )
        for ordinal, (heading, text) in enumerate(pieces)
    ]


def split_passages(text: str, limit: int = MAX_CHUNK_CHARS) -> list[str]:
    """Pieces of at most about ``limit`` characters, cut where a line or sentence ends."""
    text = text.strip()
    if len(text) <= limit:
        return [text] if text else []
    pieces: list[str] = []
    current = ""
    for part in _BREAKS.split(text):
        if current and len(current) + len(part) > limit:
            pieces.append(current.strip())
            current = ""
        if len(part) > limit:  # a line with no sentence end: cut it every `limit` characters
            cut = (len(part) - 1) // limit * limit
            pieces.extend(part[start : start + limit].strip() for start in range(0, cut, limit))
            part = part[cut:]
        current += part
    if current.strip():
        pieces.append(current.strip())
    return [piece for piece in pieces if piece]
