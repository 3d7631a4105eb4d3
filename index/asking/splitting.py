"""Passages cut into sentences, and what kind of sentence each one is.

A passage's sentences end at 。！？!?, at a line break, and at a full stop before a capital; a list
item and a table row (read under its header: ``Setting: port · Default: 8000``) are sentences of
their own, a heading inside the section is the section of the lines under it. A sentence may ask (a
page's ``## 問い``), state a fact whole (``Published: 2009``), or be a table row.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from index.analysis import fold
from index.reading.prose import NOT_AFTER_TITLE, split_outside, strip_citations

MAX_SENTENCE_CHARS = 320
_SPLIT = re.compile(
    rf"(?<=[。！？!?])|(?:(?<=[a-z0-9)\]\"”’]{{2}}\.){NOT_AFTER_TITLE}|(?<=[a-z0-9)\]]{{2}}\.[\"”’]))"
    r"(?=\s+[\"“(]?[A-Z])|\n"
)
"""Sentence ends: 。！？!?, a line break, and a full stop after a word, a bracket or a closing quote,
before a capital (not the initial in ``Michael R. Lyu``, not a title's in ``the Rev. Foyster``);
never inside ``<…>``, a code span or a URL (`split_outside`)."""
_SENTENCE_END = re.compile(r"[。．！？.!?]\s*$")
_FACT_LINE = re.compile(r"^[^:：]{1,60}[:：]\s*\S")
"""``Published: The History Press, 2009``, ``Setting: port · Default: 8000``: a fact stated whole."""
_LEAD = re.compile(r"[:：]$")
"""A sentence that introduces the lines after it (``… settings:``, ``手順は次のとおり：``): the list
items, table rows and code lines up to the next prose sentence or heading are its lines."""
_FACT_PART = re.compile(r"\s+·\s+")
"""The cells of a table row as read (``Setting: port · Default: 8000``)."""
_COLON = re.compile(r"[:：]")
_KEY = re.compile(r"^[^\[\]()/<>`（）「」『』【】]{1,32}$")
"""A key is a short label (``default timeout``, ``確信度``), not a line cut at a URL's colon nor
inside brackets (``この学校は「ペリパトス（Peripatos：歩道）」と呼ばれ``)."""
_SUBHEADING = re.compile(r"^\s*#{2,6}\s+(.+?)\s*#*\s*$")
_BULLET = re.compile(r"^\s*(?:[-*+•・]|\d+[.)])\s+")
_INTERROGATIVE = re.compile(r"(?:[?？]|(?<!ほ)か。)\s*$")
"""A sentence that asks (a page's ``## 問い``) does not answer."""


@dataclass(frozen=True)
class Sentence:
    """One sentence of a passage, as shown (``text``) and as matched (``folded``)."""

    text: str
    folded: str
    path: str
    section: str
    ordinal: int
    index: int
    rank: int
    """The rank of its page in the retrieval (0 is first)."""
    passage: str = ""
    """The folded text of the whole passage it stands in."""
    lead: str = ""
    """The folded sentence that introduces the list, table or code it is a line of (``Use the job
    label to propagate the limit:`` over ``kueue.x-k8s.io/max-exec-time-seconds: "3600"``): what it
    is about, as a heading is."""


def split_sentences(text: str, *, path: str, section: str, ordinal: int, rank: int) -> list[Sentence]:
    """The sentences of a passage: list items and lines are sentences too; citations go."""
    found: list[Sentence] = []
    passage = fold(" ".join(text.split()))
    where = section
    lead, lead_indent = "", -1
    for piece in split_outside(_SPLIT, strip_citations(text)):
        heading = _SUBHEADING.match(piece)
        if heading:
            # A heading inside the section says what the lines under it are about (### Lightning
            # talks over the talks): their section, not a sentence of its own.
            where = f"{section} › {heading.group(1).strip()}" if section else heading.group(1).strip()
            lead = ""
            continue
        shown = " ".join(_BULLET.sub("", piece).split())
        if len(shown) < 2:
            continue
        if len(shown) > MAX_SENTENCE_CHARS:
            shown = shown[: MAX_SENTENCE_CHARS - 1].rstrip() + "…"
        bullet = _BULLET.match(piece)
        indent = len(piece) - len(piece.lstrip())
        item = bool(bullet) or bool(_FACT_LINE.match(shown)) or not _SENTENCE_END.search(shown)
        leads = bool(_LEAD.search(shown))
        if (not item and not leads) or (bullet and indent <= lead_indent):
            # Prose again, or the next item of the list the lead is an item of (4. Use RE2: then
            # its code, then 5. …): the lines the lead introduced are over.
            lead = ""
        found.append(Sentence(shown, fold(shown), path, where, ordinal, len(found), rank, passage, lead))
        if leads:
            lead, lead_indent = fold(shown), indent if bullet else -1
    return found


def is_lead(sentence: Sentence) -> bool:
    """The sentence introduces the lines after it (ends in a colon)."""
    return bool(_LEAD.search(sentence.text))


def table_row(sentence: Sentence) -> bool:
    """A row of a table as read (``Setting: port · Default: 8000``): two cells or more."""
    cells = _FACT_PART.split(sentence.folded)
    return len(cells) >= 2 and all(":" in cell for cell in cells)


def asks(sentence: Sentence) -> bool:
    """The sentence is a question (a page's ``## 問い``): it answers nothing."""
    return bool(_INTERROGATIVE.search(sentence.folded))


def is_whole(sentence: Sentence) -> bool:
    """A whole sentence, a ``Key: value`` line or a table row, not a fragment (a callout's title)."""
    return bool(_SENTENCE_END.search(sentence.text) or _FACT_LINE.match(sentence.text))


def fact_keys(sentence: Sentence) -> str:
    """The keys of a ``Key: value`` line or of a table row's cells (``setting default``), short
    labels only; empty for any other sentence."""
    return " ".join(sentence.folded[start:end] for start, end in key_spans(sentence.folded))


def key_spans(text: str) -> list[tuple[int, int]]:
    """Where the keys of a ``Key: value`` line or of a table row's cells stand in ``text`` (the
    sentence's shown or folded text), short labels only; none for any other sentence."""
    if not _FACT_LINE.match(text):
        return []
    spans = []
    start = 0
    for cell in [*_FACT_PART.finditer(text), None]:
        end = cell.start() if cell else len(text)
        colon = _COLON.search(text, start, end)
        if colon is not None and _KEY.match(text[start : colon.start()]):
            spans.append((start, colon.start()))
        start = cell.end() if cell else end
    return spans
