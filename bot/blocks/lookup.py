"""`/entity NAME` answers other than a card: several candidates, a name with no page, no match."""

from __future__ import annotations

from bot.blocks.buttons import candidate_buttons, open_pages_row, share_row
from bot.blocks.card import ref_mrkdwn
from bot.blocks.elements import (
    MAX_BLOCKS,
    MAX_SECTION_TEXT,
    context,
    fit_blocks,
    join_within,
    section,
)
from bot.blocks.mrkdwn import escape
from bot.blocks.page_types import type_label
from bot.blocks.search import echo, hit_blocks
from bot.i18n import _, ngettext
from index import Candidate, PageRef, SearchResult, Unresolved

MAX_NO_MATCH_HITS = 3


def candidate_label(candidate: Candidate) -> str:
    return f"{candidate.title} ({type_label(candidate.type)})"


def _with_share(blocks: list[dict], share: str | None) -> list[dict]:
    rows = [share_row(share)] if share is not None else []
    return fit_blocks([*blocks, *rows], MAX_BLOCKS, keep_last=len(rows))


def candidates_blocks(
    query: str, candidates: tuple[Candidate, ...], *, share: str | None = None
) -> list[dict]:
    """Several pages match the name equally well: one button per candidate."""
    listing = join_within(
        [
            f"• {ref_mrkdwn(candidate_ref(candidate))} · _{escape(type_label(candidate.type))}_"
            for candidate in candidates
        ],
        MAX_SECTION_TEXT - 200,
        separator="\n",
    )
    blocks = [
        section(
            _("Several pages match {query}. Which one do you mean?").format(query=echo(query))
            + "\n"
            + listing
        ),
        candidate_buttons([(candidate_label(candidate), candidate.path) for candidate in candidates]),
    ]
    return _with_share(blocks, share)


def candidate_ref(candidate: Candidate) -> PageRef:
    return PageRef(candidate.title, candidate.path, candidate.type, candidate.url)


def unresolved_blocks(
    unresolved: Unresolved, candidates: tuple[Candidate, ...] = (), *, share: str | None = None
) -> list[dict]:
    """A name the wiki links to but has no page for: say so, and list the pages that mention it."""
    mentions = unresolved.mentioned_in
    title = (
        ngettext(
            "{name} has no page yet. Mentioned in {count} page:",
            "{name} has no page yet. Mentioned in {count} pages:",
            len(mentions),
        ).format(name=echo(unresolved.name), count=len(mentions))
        + "\n"
    )
    blocks = [
        section(
            title
            + join_within([f"• {ref_mrkdwn(ref)}" for ref in mentions], MAX_SECTION_TEXT - len(title), "\n")
        )
    ]
    pages = [(ref.name, ref.path) for ref in mentions if ref.path is not None]
    if pages:
        blocks.append(open_pages_row(pages, _("Open a page that mentions it")))
    if candidates:
        blocks.append(context(_("Similar names with a page:")))
        blocks.append(candidate_buttons([(candidate_label(c), c.path) for c in candidates]))
    return _with_share(blocks, share)


def no_match_blocks(query: str, candidates: tuple[Candidate, ...], result: SearchResult) -> list[dict]:
    """No page by that name: the nearest names, then the top full-text hits for it. A not-found
    answer is the asker's to refine, not the channel's to read: no "Share to channel"."""
    blocks = [section(_("No page is called {query}.").format(query=echo(query)))]
    if candidates:
        blocks.append(context(_("Nearest names:")))
        blocks.append(candidate_buttons([(candidate_label(c), c.path) for c in candidates]))
    hits = result.hits[:MAX_NO_MATCH_HITS]
    if hits:
        blocks.append(context(_("Pages that mention it:")))
        blocks += hit_blocks(hits)
    if not candidates and not hits:
        blocks.append(
            context(_("Nothing in the wiki mentions it either. Try another spelling or `/wiki` search."))
        )
    return fit_blocks(blocks, MAX_BLOCKS)
