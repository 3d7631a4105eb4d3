"""The answer to a free question (a mention or a DM): the subject's card first, then the passages."""

from __future__ import annotations

from bot.blocks.card import card_blocks
from bot.blocks.elements import MAX_BLOCKS, MAX_MESSAGE_TEXT, context, divider, fit_blocks, section
from bot.blocks.search import echo, hit_blocks
from bot.i18n import _
from bot.mrkdwn import escape_clipped
from index.model import Card, SearchResult

CARD_SHARE_OF_BLOCKS = 24


def answer_blocks(result: SearchResult, card: Card | None = None) -> list[dict]:
    """Best passages with their pages; ``card`` (the one entity the question is about) comes first."""
    blocks = card_blocks(card, max_blocks=CARD_SHARE_OF_BLOCKS) if card is not None else []
    if result.hits:
        if blocks:
            blocks.append(divider())
        blocks.append(context(_("Passages for {query}").format(query=echo(result.query))))
        blocks += hit_blocks(result.hits)
    elif card is None:
        blocks.append(
            section(
                _("I could not find anything in the wiki about {query}.").format(query=echo(result.query))
            )
        )
        blocks.append(context(_("Try other words, or look a name up with `/entity`.")))
    return fit_blocks(blocks, MAX_BLOCKS)


def answer_text(result: SearchResult, card: Card | None = None) -> str:
    if card is not None:
        return escape_clipped(f"{card.title}: {card.summary.strip()}", MAX_MESSAGE_TEXT)
    if result.hits:
        return escape_clipped(
            _("From the wiki: {titles}").format(titles=", ".join(hit.title for hit in result.hits)),
            MAX_MESSAGE_TEXT,
        )
    return escape_clipped(_("Nothing in the wiki about {query}").format(query=result.query), MAX_MESSAGE_TEXT)
