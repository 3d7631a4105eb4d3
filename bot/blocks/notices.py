"""Short polite messages: a question that is too long, an index that is not ready, a failure."""

from __future__ import annotations

from bot.blocks.elements import section
from bot.mrkdwn import bold, escape, escape_clipped


def too_long_blocks(length: int, limit: int) -> list[dict]:
    return [
        section(
            f"Sorry, that is {length:,} characters long and I can only search with up to {limit:,}. "
            "Could you ask with a few key words or a name?"
        )
    ]


def index_not_ready_blocks() -> list[dict]:
    return [section("The wiki index is still being built. Please try again in a minute.")]


def failure_blocks() -> list[dict]:
    return [
        section("Sorry, something went wrong while answering. The error has been logged; please try again.")
    ]


def refused_blocks() -> list[dict]:
    return [section("Sorry, I do not answer in this channel.")]


def gone_blocks() -> list[dict]:
    return [section("That page is no longer in the wiki. It may have been renamed or removed.")]


def bad_day_blocks(text: str, wiki_command: str) -> list[dict]:
    return [
        section(
            f"Sorry, {bold(escape_clipped(text, 100))} is not a date. "
            f"Try `{escape(wiki_command)} digest` (yesterday) or `{escape(wiki_command)} digest 2026-01-31`."
        )
    ]


def more_messages_blocks(count: int) -> list[dict]:
    return [
        section(
            f"…and {count} more digest messages. "
            "Run `sakuin digest --date YYYY-MM-DD --dry-run` to see them all."
        )
    ]
