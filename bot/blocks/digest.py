"""The daily digest as Slack messages: a header, then each new source grouped by type.

Pure functions from a `Digest` to `Reply` messages. A day with many sources is split over several
messages (``SOURCES_PER_MESSAGE`` each) so no message comes near Block Kit's limits; every piece of
wiki text is escaped by `bot.blocks.mrkdwn` and cut to its field by `bot.blocks.elements`.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from bot.blocks.card import ref_mrkdwn
from bot.blocks.elements import (
    MAX_MESSAGE_TEXT,
    context,
    header,
    join_within,
    section,
)
from bot.blocks.mrkdwn import bold, escape, escape_clipped, link
from bot.blocks.page_types import type_label
from bot.blocks.reply import Reply
from bot.i18n import N_, _, ngettext
from index import CONCEPT, ENTITY, Digest, DigestItem, shorten

SOURCES_PER_MESSAGE = 10
"""A source takes at most 3 blocks (group label, section, context): 33 blocks a message at most."""
SUMMARY_LINES = 2
SUMMARY_LINE_LIMIT = 160
"""About two lines of Japanese in Slack's desktop client; longer lines are cut at a sentence end."""
CITED_LIMIT = 600
TYPE_ORDER = ("paper", "article", "thesis", "book", "slides", "video", "podcast", "transcript", "data")
TYPE_LABELS = {
    "paper": N_("Papers"),
    "article": N_("Articles"),
    "thesis": N_("Theses"),
    "book": N_("Books"),
    "slides": N_("Slides"),
    "video": N_("Videos"),
    "podcast": N_("Podcasts"),
    "transcript": N_("Transcripts"),
    "data": N_("Data"),
}
OTHER_LABEL = N_("Other sources")
CITED_BY_LABELS = ((N_("Entities: {refs}"), ENTITY), (N_("Concepts: {refs}"), CONCEPT))

_BULLET = re.compile(r"^\s*(?:[-*+•・]|\d+[.)])\s+")


def digest_messages(digest: Digest, *, post_empty: bool = False) -> list[Reply]:
    """The messages that announce ``digest``; none for an empty day unless ``post_empty``."""
    if not digest.items:
        if not post_empty:
            return []
        text = _("No new sources on {date}").format(date=digest.date)
        blocks = (
            header(_("New sources · {date}").format(date=digest.date)),
            section("_" + _("No sources were added that day.") + "_"),
        )
        return [Reply(text, blocks)]
    items = sorted(digest.items, key=_type_rank)
    chunks = [
        items[start : start + SOURCES_PER_MESSAGE] for start in range(0, len(items), SOURCES_PER_MESSAGE)
    ]
    grouped = len({_type_key(item) for item in items}) > 1
    return [
        Reply(
            _fallback_text(digest, chunk, part, len(chunks)),
            tuple(_message_blocks(digest, chunk, part, len(chunks), grouped)),
        )
        for part, chunk in enumerate(chunks)
    ]


def source_blocks(item: DigestItem) -> list[dict]:
    """One source: a section with its linked title, facts and summary; a context with its citers."""
    title = bold(link(item.url, item.title) if item.url else escape(item.title))
    lines = [title]
    facts = source_facts(item)
    if facts:
        lines.append(f"_{escape(facts)}_")
    lines += [
        escape_clipped(shorten(line, SUMMARY_LINE_LIMIT), SUMMARY_LINE_LIMIT)
        for line in summary_lines(item.summary)
    ]
    blocks = [section("\n".join(lines))]
    citers = cited_by_texts(item)
    if citers:
        blocks.append(context(*citers))
    return blocks


def source_facts(item: DigestItem) -> str:
    """``NSDI 2025 · paper``: venue and year, then the source type."""
    where = " ".join(str(part) for part in (item.venue, item.year) if part)
    return " · ".join(part for part in (where, type_label(item.source_type or "")) if part)


def summary_lines(summary: str, limit: int = SUMMARY_LINES) -> list[str]:
    """The first one or two lines of a summary. The domain gives plain text (links read as their
    labels, no emphasis or callouts), one list item a line: here only a list marker becomes ``•``."""
    lines: list[str] = []
    for raw in summary.splitlines():
        bullet = _BULLET.match(raw)
        text = " ".join((raw[bullet.end() :] if bullet else raw).split())
        if text:
            lines.append(("• " if bullet else "") + text)
        if len(lines) == limit:
            break
    return lines


def cited_by_texts(item: DigestItem) -> list[str]:
    """``Entities: A · B`` and ``Concepts: X · Y`` (each a link when the wiki has URLs)."""
    texts = []
    for label, kind in CITED_BY_LABELS:
        refs = [ref for ref in item.cited_by if ref.type == kind]
        if refs:
            template = _(label)
            room = CITED_LIMIT - len(template.format(refs=""))
            texts.append(template.format(refs=join_within([ref_mrkdwn(ref) for ref in refs], room)))
    return texts


def _message_blocks(
    digest: Digest, items: Sequence[DigestItem], part: int, parts: int, grouped: bool
) -> list[dict]:
    count = len(digest.items)
    title = _("New sources · {date}").format(date=digest.date)
    if part == 0:
        blocks = [header(f"{title} ({count})")]
        if grouped:
            blocks.append(context(escape(_type_counts(digest.items))))
    else:
        continued = _("(continued, {part}/{parts})").format(part=part + 1, parts=parts)
        blocks = [context(f"{bold(escape(title))} {continued}")]
    current = None
    for item in items:
        if grouped and _type_key(item) != current:
            current = _type_key(item)
            size = sum(1 for other in digest.items if _type_key(other) == current)
            blocks.append(section(f"{bold(escape(_type_label(current)))} ({size})"))
        blocks += source_blocks(item)
    if parts > 1 and part < parts - 1:
        spread = ngettext(
            "{count} source in {parts} messages", "{count} sources in {parts} messages", count
        ).format(count=count, parts=parts)
        blocks.append(context(spread))
    return blocks


def _fallback_text(digest: Digest, items: Sequence[DigestItem], part: int, parts: int) -> str:
    titles = ", ".join(item.title for item in items)
    if parts > 1:
        text = _("New sources on {date} (part {part}/{parts}): {titles}").format(
            date=digest.date, part=part + 1, parts=parts, titles=titles
        )
    else:
        text = _("New sources on {date}: {titles}").format(date=digest.date, titles=titles)
    return escape_clipped(text, MAX_MESSAGE_TEXT)


def _type_key(item: DigestItem) -> str:
    return item.source_type if item.source_type in TYPE_LABELS else ""


def _type_rank(item: DigestItem) -> int:
    key = _type_key(item)
    return TYPE_ORDER.index(key) if key else len(TYPE_ORDER)


def _type_label(key: str) -> str:
    return _(TYPE_LABELS.get(key, OTHER_LABEL))


def _type_counts(items: Sequence[DigestItem]) -> str:
    counts: dict[str, int] = {}
    for item in sorted(items, key=_type_rank):
        counts[_type_key(item)] = counts.get(_type_key(item), 0) + 1
    return " · ".join(f"{_type_label(key)} {count}" for key, count in counts.items())
