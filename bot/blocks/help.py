"""Help: how to use the commands, mentions and DMs, with the configured command names."""

from __future__ import annotations

from bot.blocks.elements import context, section
from bot.mrkdwn import escape
from index.model import IndexState

HELP_TEXT = "How to use sakuin"


def usage_lines(entity_command: str, wiki_command: str) -> list[str]:
    entity, wiki = escape(entity_command), escape(wiki_command)
    return [
        f"• `{entity} NAME`: what the wiki knows about a name (summary, relations, backlinks). "
        "Aliases, case, full-width letters and small typos are fine.",
        f"• `{wiki} QUERY`: full-text search, with the best passage of each page (Japanese or English).",
        f"• `{wiki} help`: this help.",
        f"• `{wiki} digest [YYYY-MM-DD]`: preview the digest of new sources for a day (default: yesterday).",
        "• Mention me with a question in a channel: I answer in the thread with the passages I found.",
        "• Send me a direct message: I answer there.",
    ]


def index_status(state: IndexState) -> str:
    """One line on the index: how many pages, when it was last updated, or why it is not ready."""
    if state.status == "ready":
        when = f", updated {escape(state.updated_at)}" if state.updated_at else ""
        return f"Index: {state.pages} pages{when}."
    if state.status == "building":
        return f"Index: being updated ({state.pages} pages so far)."
    if state.status == "empty":
        return "Index: not built yet."
    return "Index: the last update failed; answers may be out of date."


def help_blocks(entity_command: str, wiki_command: str, state: IndexState) -> list[dict]:
    lines = usage_lines(entity_command, wiki_command)
    return [
        section("*How to use sakuin*\n" + "\n".join(lines)),
        context(
            "Answers to commands are private to you; press *Share to channel* to post one for everyone.",
            index_status(state),
        ),
    ]
