"""Where a sentence says a word or a name: a Latin word whole (plural or not), a part of a
camelCase identifier, CJK anywhere; a page by any of its names (`index.asking.sentences`)."""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache

from index.analysis import fold
from index.asking.wordforms import singular, stem
from index.catalog.graph import short_names
from index.model import Page

_LATIN = re.compile(r"[a-z0-9]+")


def folded_names(page: Page) -> tuple[str, ...]:
    """Every name the page goes by, folded (a source also by its short names: ``MegaScale``)."""
    names = (page.title, page.stem, *page.aliases, *(short_names(page) if page.type == "source" else ()))
    return tuple(dict.fromkeys(fold(name).strip() for name in names if len(name.strip()) >= 2))


def mentions(name: str, folded: str) -> bool:
    """``name`` stands in the text; a Latin name only as whole words (``ai`` is not in ``aiops``)."""
    if not name.isascii():
        return name in folded
    return name in folded and _whole_word(name).search(folded) is not None


@lru_cache(maxsize=4096)
def _whole_word(name: str) -> re.Pattern[str]:
    return re.compile(rf"(?<![a-z0-9]){re.escape(name)}(?![a-z0-9])")


_CAMEL_PART = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|[0-9]+")
_CAMEL_BOUNDARY = re.compile(r"[a-z][A-Z]")
_SETTING_WORD = re.compile(r"(?<![A-Za-z0-9])[A-Za-z][A-Za-z0-9]*[a-z][A-Z][A-Za-z0-9]*")
"""camelCase, how settings and fields are written: lowerCamelCase (maxPayload), or UpperCamelCase of
three parts or more (SingleClusterPreemptionTimeout, WaitForPodsReady: Go's settings and feature
gates); a name of two (ByteDance, MegaScale) is the name it is, found whole."""
_NAME_PARTS = 2
"""Parts of an UpperCamelCase name (ByteDance): more make a setting (`_read_by_parts`)."""


def _read_by_parts(parts: list[re.Match[str]]) -> bool:
    """An UpperCamelCase identifier is a setting read by its parts when it has more than
    `_NAME_PARTS` of them, each a word: one of two letters or in capitals (PyTorchJob, OpenAIClient,
    BestEffortFIFO) makes it a product's or a kind's name, found whole."""
    return len(parts) > _NAME_PARTS and all(len(p.group()) > 2 and not p.group().isupper() for p in parts)


def camel_parts(text: str) -> tuple[tuple[int, int, str], ...]:
    """The parts of the camelCase identifiers of a text (`_SETTING_WORD`), each with its span and folded
    (``maxPayload`` → max, payload; ``bootstrapMaxChars`` → bootstrap, max, chars): a setting is
    asked for in words (what max payload …)."""
    if _CAMEL_BOUNDARY.search(text) is None:  # most sentences: one scan, no identifier
        return ()
    found: list[tuple[int, int, str]] = []
    for word in _SETTING_WORD.finditer(text):
        parts = list(_CAMEL_PART.finditer(word.group()))
        if word.group()[0].isupper() and not _read_by_parts(parts):
            continue
        found.extend(
            (word.start() + part.start(), word.start() + part.end(), singular(part.group().casefold()))
            for part in parts
        )
    return tuple(found)


def occurrences(
    text: str, folded: str, words: set[str], parts: tuple[tuple[int, int, str], ...] = ()
) -> list[tuple[int, int]]:
    """Where a keyword stands in a folded sentence: Latin words whole (plural or not) or a part of
    a camelCase identifier (`camel_parts`), CJK anywhere."""
    if text.isascii():
        if text not in words and stem(text) not in words:
            return []
        stemmed = stem(text)
        found = [m.span() for m in _LATIN.finditer(folded) if stem(m.group()) in (stemmed, text)]
        return found + [(start, end) for start, end, part in parts if stem(part) in (stemmed, text)]
    spans = []
    at = folded.find(text)
    while at >= 0:
        spans.append((at, at + len(text)))
        at = folded.find(text, at + 1)
    return spans


def merge(spans: Iterable[tuple[int, int]]) -> tuple[tuple[int, int], ...]:
    """Overlapping or touching spans as one, in order."""
    merged: list[list[int]] = []
    for start, end in sorted(spans):
        if merged and start <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], end)
        else:
            merged.append([start, end])
    return tuple((start, end) for start, end in merged)
