"""The wiki's log as a page: one section per stretch `index.reading.wiki_log` cuts it into.

Each dated entry is a section of its own, headed as the log heads it (``[2026-05-28] init | Wiki
initialised``), and its text starts with that heading, so the sentence that says what was done says
when. A table row that is an entry is a section with its date as heading; the text before the first
entry (the log's own conventions) and under undated headings are sections too. The page is typed
`WIKI_LOG`: not a knowledge page (no links, no names, not in a digest), searched apart.
"""

from __future__ import annotations

import unicodedata

from index.model import Page, Section
from index.reading.format import WIKI_LOG
from index.reading.wiki_log import LogBlock, log_blocks
from index.reading.wikilinks import strip_comments

MAX_HEADING_CHARS = 200


def log_page(path: str, text: str) -> Page:
    """The log at ``path`` (its decoded text) as a page of `WIKI_LOG` sections."""
    blocks = log_blocks(strip_comments(text))
    stem = unicodedata.normalize("NFC", path.rsplit("/", 1)[-1].rsplit(".", 1)[0])
    return Page(
        path=path,
        key=path,
        type=WIKI_LOG,
        title=stem,
        sections=tuple(section for block in blocks if (section := _section(block)) is not None),
    )


def _section(block: LogBlock) -> Section | None:
    """An entry headed and led by its heading; a row headed by its date; other text as it stands."""
    heading = " ".join(block.heading.split())[:MAX_HEADING_CHARS]
    if block.when and heading:
        return Section(heading, f"{heading}\n{block.text}".strip())
    if block.when:
        return Section(block.when, block.text)
    return Section(heading, block.text) if block.text else None
