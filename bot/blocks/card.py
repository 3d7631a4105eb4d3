"""The entity card: what the wiki knows about one page, as a Slack message."""

from __future__ import annotations

from bot.blocks.buttons import open_pages_row, share_row
from bot.blocks.elements import (
    MAX_BLOCKS,
    MAX_MESSAGE_TEXT,
    MAX_SECTION_TEXT,
    context,
    fit_blocks,
    header,
    join_within,
    section,
)
from bot.blocks.mrkdwn import bold, escape, escape_clipped, link
from bot.blocks.page_types import type_label
from bot.i18n import N_, _
from index import Card, PageRef

SUMMARY_LIMIT = 1500
BACKLINKS_LABEL = N_("Linked from")
NO_SUMMARY = N_("No summary on this page yet.")


def ref_mrkdwn(ref: PageRef) -> str:
    """A related page: a link when the wiki has a URL for it, else its escaped name."""
    return link(ref.url, ref.name) if ref.url else escape(ref.name)


def refs_section(label: str, refs: tuple[PageRef, ...]) -> dict:
    title = f"{bold(escape(label))} ({len(refs)})\n"
    return section(title + join_within([ref_mrkdwn(ref) for ref in refs], MAX_SECTION_TEXT - len(title)))


def card_facts(card: Card) -> str:
    """Type, venue and year, aliases, and the page link, in one context line."""
    kind = card.entity_type or card.type
    parts = [escape(type_label(kind))]
    if card.venue or card.year:
        parts.append(escape(" ".join(str(part) for part in (card.venue, card.year) if part)))
    if card.aliases:
        parts.append(escape(_("also {aliases}").format(aliases=", ".join(card.aliases))))
    if card.tier == "stub":
        parts.append(escape(_("stub")))
    parts.append(link(card.url, _("open in wiki")) if card.url else escape(card.path))
    return " · ".join(parts)


def related_pages(card: Card) -> list[tuple[str, str]]:
    """Every resolved page the card mentions (relations first, then backlinks), once each."""
    seen: set[str] = {card.path}
    pages: list[tuple[str, str]] = []
    for ref in [ref for group in card.groups for ref in group.refs] + list(card.backlinks):
        if ref.path is not None and ref.path not in seen:
            seen.add(ref.path)
            pages.append((ref.name, ref.path))
    return pages


def card_blocks(card: Card, *, share: str | None = None, max_blocks: int = MAX_BLOCKS) -> list[dict]:
    """Header, facts, summary, one section per relation group, backlinks, buttons to open related pages.

    ``share`` (a share value from `bot.blocks.buttons`) adds the "Share to channel" button of a
    private answer. Long lists end in "+N more"; the whole message stays within ``max_blocks``.
    """
    body = [
        header(card.title),
        context(card_facts(card)),
        section(
            escape_clipped(card.summary, SUMMARY_LIMIT) if card.summary.strip() else "_" + _(NO_SUMMARY) + "_"
        ),
    ]
    body += [refs_section(group.label, group.refs) for group in card.groups if group.refs]
    if card.backlinks:
        body.append(refs_section(_(BACKLINKS_LABEL), card.backlinks))
    rows = []
    pages = related_pages(card)
    if pages:
        rows.append(open_pages_row(pages, _("Open a related page")))
    if share is not None:
        rows.append(share_row(share))
    return fit_blocks([*body, *rows], max_blocks, keep_last=len(rows))


def card_text(card: Card) -> str:
    """The notification text of a card message (shown where blocks are not)."""
    summary = card.summary.strip().splitlines()[0] if card.summary.strip() else ""
    return escape_clipped(f"{card.title}: {summary}" if summary else card.title, MAX_MESSAGE_TEXT)


UNFURL_SUMMARY_LIMIT = 500


def unfurl_blocks(card: Card) -> list[dict]:
    """A short card under a shared link to the page: title, summary and facts."""
    summary = escape_clipped(" ".join(card.summary.split()), UNFURL_SUMMARY_LIMIT)
    return [
        section(bold(escape(card.title)) + (f"\n{summary}" if summary else "")),
        context(card_facts(card)),
    ]
