"""Search hits as a message: each passage with its page, and a button to open the page's card."""

from __future__ import annotations

from collections.abc import Sequence

from bot.blocks.buttons import open_page_button, share_row
from bot.blocks.elements import MAX_BLOCKS, MAX_MESSAGE_TEXT, context, fit_blocks, section
from bot.blocks.mrkdwn import bold, escape, escape_clipped, link
from bot.blocks.page_types import type_label
from bot.i18n import N_, _, ngettext
from index import Hit, SearchResult

SNIPPET_LIMIT = 700
QUERY_ECHO_LIMIT = 200
CARD_BUTTON = N_("Card")


def quoted(mrkdwn: str) -> str:
    """Quote already-escaped text line by line (the ``>`` is ours, so it is the one raw ``>`` allowed)."""
    return "\n".join("> " + line if line.strip() else ">" for line in mrkdwn.splitlines())


def hit_heading(hit: Hit) -> str:
    parts = [
        bold(link(hit.url, hit.title) if hit.url else escape(hit.title)),
        "_" + escape(type_label(hit.type)) + "_",
    ]
    if hit.section:
        parts.append("§ " + escape(hit.section))
    return " · ".join(parts)


def hit_block(hit: Hit, index: int) -> dict:
    snippet = escape_clipped(" ".join(hit.snippet.split()), SNIPPET_LIMIT)
    text = hit_heading(hit) + ("\n" + quoted(snippet) if snippet else "")
    return section(text, accessory=open_page_button(_(CARD_BUTTON), hit.path, index))


def hit_blocks(hits: Sequence[Hit]) -> list[dict]:
    return [hit_block(hit, index) for index, hit in enumerate(hits)]


def echo(query: str) -> str:
    """The user's query, escaped and shortened, to say what we answered."""
    return bold(escape_clipped(" ".join(query.split()), QUERY_ECHO_LIMIT))


def quote(query: str) -> str:
    """The user's question, escaped and shortened, for inside quotation marks (bold would not
    render next to them)."""
    return escape_clipped(" ".join(query.split()), QUERY_ECHO_LIMIT)


def search_blocks(result: SearchResult, *, share: str | None = None) -> list[dict]:
    """``/wiki QUERY``: the top hits with snippets and links, or a polite "nothing found" (with
    nothing in it worth sharing: no "Share to channel")."""
    if not result.hits:
        return [
            section(_("Nothing in the wiki matches {query}.").format(query=echo(result.query))),
            context(_("Try other words, a shorter query, or a name with `/entity`.")),
        ]
    top = _("Top {count} for {query}").format(count=len(result.hits), query=echo(result.query))
    blocks = [context(top), *hit_blocks(result.hits)]
    rows = [share_row(share)] if share is not None else []
    return fit_blocks([*blocks, *rows], MAX_BLOCKS, keep_last=len(rows))


def search_text(result: SearchResult) -> str:
    if not result.hits:
        return escape_clipped(
            _("Nothing in the wiki matches {query}").format(query=result.query), MAX_MESSAGE_TEXT
        )
    titles = ", ".join(hit.title for hit in result.hits)
    text = ngettext(
        "{count} page for {query}: {titles}", "{count} pages for {query}: {titles}", len(result.hits)
    )
    return escape_clipped(
        text.format(count=len(result.hits), query=result.query, titles=titles), MAX_MESSAGE_TEXT
    )
