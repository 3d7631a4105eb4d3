"""The daily digest as Slack messages: a header, then each new source grouped by type (or, for a
wiki without source pages, each new page grouped by page type, then what the log says was updated).

Pure functions from a `Digest` to `Reply` messages. A day with many sources is split over several
messages (``SOURCES_PER_MESSAGE`` each) so no message comes near Block Kit's limits; a day the
domain summarised (more than ``DIGEST_MAX_ITEMS``) is one message of counts and the most linked.
Every piece of wiki text is escaped by `bot.blocks.mrkdwn` and cut to its field by `bot.blocks.elements`.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from bot.blocks.card import ref_mrkdwn
from bot.blocks.elements import (
    MAX_MESSAGE_TEXT,
    MAX_SECTION_TEXT,
    context,
    header,
    join_within,
    section,
)
from bot.blocks.mrkdwn import bold, escape, escape_clipped, link
from bot.blocks.page_types import type_label
from bot.blocks.reply import Reply
from bot.i18n import N_, _, ngettext
from index import CONCEPT, ENTITY, Digest, DigestItem, DigestSummary, NewPage, shorten

SOURCES_PER_MESSAGE = 10
PAGES_PER_SECTION = 10
PAGES_PER_MESSAGE = 40
"""A page is one line: a message holds at most 4 sections of 10 and their group labels."""
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
    if digest.summary:
        return [_summary_message(digest, digest.summary)]
    if digest.announces != "source":
        return _page_messages(digest, post_empty=post_empty)
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


# -- a wiki without source pages, and big days ------------------------------------------------


def _page_messages(digest: Digest, *, post_empty: bool) -> list[Reply]:
    """The day's new pages by type (a line each), then the pages the log says it updated."""
    title = _("New pages · {date}").format(date=digest.date)
    if not digest.pages:
        if not post_empty:
            return []
        text = _("No new pages on {date}").format(date=digest.date)
        return [Reply(text, (header(title), section("_" + _("No pages were added that day.") + "_")))]
    pages = sorted(digest.pages, key=lambda page: (page.type, page.title.casefold(), page.path))
    chunks = [pages[start : start + PAGES_PER_MESSAGE] for start in range(0, len(pages), PAGES_PER_MESSAGE)]
    replies = []
    for part, chunk in enumerate(chunks):
        if part == 0:
            blocks = [header(f"{title} ({len(pages)})")]
            if len({page.type for page in pages}) > 1:
                blocks.append(context(escape(_counts_text(_page_counts(pages)))))
        else:
            continued = _("(continued, {part}/{parts})").format(part=part + 1, parts=len(chunks))
            blocks = [context(f"{bold(escape(title))} {continued}")]
        blocks += _page_groups(chunk, pages)
        if part == len(chunks) - 1 and digest.updated:
            blocks.append(context(_updated_text(digest)))
        titles = ", ".join(page.title for page in chunk)
        text = _("New pages on {date}: {titles}").format(date=digest.date, titles=titles)
        replies.append(Reply(escape_clipped(text, MAX_MESSAGE_TEXT), tuple(blocks)))
    return replies


def _page_groups(chunk: Sequence[NewPage], pages: Sequence[NewPage]) -> list[dict]:
    """One section per type (and per `PAGES_PER_SECTION` lines): its label and count, a line a page."""
    blocks = []
    for kind in dict.fromkeys(page.type for page in chunk):
        group = [page for page in chunk if page.type == kind]
        size = sum(1 for page in pages if page.type == kind)
        for start in range(0, len(group), PAGES_PER_SECTION):
            lines = [f"• {_page_link(page)}" for page in group[start : start + PAGES_PER_SECTION]]
            label = f"{bold(escape(type_label(kind)))} ({size})\n" if start == 0 else ""
            blocks.append(section(label + "\n".join(lines)))
    return blocks


def _summary_message(digest: Digest, summary: DigestSummary) -> Reply:
    """A big day: how many, per type and per folder, and the ten most linked."""
    sources = digest.announces == "source"
    title = (_("New sources · {date}") if sources else _("New pages · {date}")).format(date=digest.date)
    if sources:
        counted = ngettext(
            "{count} new source that day: too many to list, so they are counted.",
            "{count} new sources that day: too many to list, so they are counted.",
            summary.new,
        )
    else:
        counted = ngettext(
            "{count} new page that day: too many to list, so they are counted.",
            "{count} new pages that day: too many to list, so they are counted.",
            summary.new,
        )
    label = _source_group if sources else type_label
    lines = [
        _("By type: {counts}").format(
            counts=escape(_counts_text([(label(k), n) for k, n in summary.by_type]))
        ),
        _("By folder: {counts}").format(counts=escape(_counts_text(list(summary.by_folder)))),
    ]
    blocks = [
        header(f"{title} ({summary.new})"),
        context(counted.format(count=summary.new)),
        section("\n".join(lines)),
    ]
    if summary.most_linked:
        template = _("Most linked: {pages}")
        room = MAX_SECTION_TEXT - len(template.format(pages=""))
        refs = join_within([ref_mrkdwn(ref) for ref in summary.most_linked], room)
        blocks.append(section(template.format(pages=refs)))
    if digest.updated:
        blocks.append(context(_updated_text(digest)))
    if sources:
        text = ngettext("{count} new source on {date}", "{count} new sources on {date}", summary.new)
    else:
        text = ngettext("{count} new page on {date}", "{count} new pages on {date}", summary.new)
    return Reply(
        escape_clipped(text.format(count=summary.new, date=digest.date), MAX_MESSAGE_TEXT), tuple(blocks)
    )


def _updated_text(digest: Digest) -> str:
    template = _("Updated: {pages}")
    refs = " · ".join(ref_mrkdwn(ref) for ref in digest.updated)
    more = digest.updated_total - len(digest.updated)
    if more > 0:
        refs += escape(_(" and {count} more").format(count=more))
    return template.format(pages=refs)


def _source_group(key: str) -> str:
    """A group of the summary of a big day of sources: its plural label, or as the wiki writes it."""
    return _type_label(key) if key in TYPE_LABELS or key == "source" else key


def _page_link(page: NewPage) -> str:
    return link(page.url, page.title) if page.url else escape(page.title)


def _page_counts(pages: Sequence[NewPage]) -> list[tuple[str, int]]:
    counts: dict[str, int] = {}
    for page in pages:
        counts[page.type] = counts.get(page.type, 0) + 1
    return [(type_label(kind), count) for kind, count in counts.items()]


def _counts_text(counts: Sequence[tuple[str, int]]) -> str:
    return " · ".join(f"{name} {count}" for name, count in counts)
