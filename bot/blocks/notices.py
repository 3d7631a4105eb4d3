"""Short polite messages: a question that is too long, an index that is not ready, a busy bot, a
failure, a channel sakuin does not answer in; the whole message (`Reply`) for those the edge sends
on its own."""

from __future__ import annotations

from datetime import date

from bot.blocks.elements import section
from bot.blocks.mrkdwn import bold, escape, escape_clipped
from bot.blocks.reply import Reply
from bot.i18n import _


def busy_reply() -> Reply:
    """The answer queue is full: the answer comes, a little later."""
    return Reply(_("Many questions at once: answering yours in a moment."), tuple(busy_blocks()))


def overloaded_reply() -> Reply:
    """The answer queue stayed full (`bot.answering.queue.Overloaded`): the error handler's apology."""
    return Reply(
        _("Sorry, too many questions at once: please ask again in a minute."), tuple(overloaded_blocks())
    )


def failure_reply() -> Reply:
    return Reply(_("Sorry, something went wrong while answering."), tuple(failure_blocks()))


def refused_reply() -> Reply:
    """A mention in a channel outside ``ALLOWED_CHANNELS``."""
    return Reply(_("Sorry, I do not answer in this channel."), tuple(refused_blocks()))


def too_long_blocks(length: int, limit: int) -> list[dict]:
    return [
        section(
            _(
                "Sorry, that is {length:,} characters long and I can only search with up to {limit:,}. "
                "Could you ask with a few key words or a name?"
            ).format(length=length, limit=limit)
        )
    ]


def index_not_ready_blocks() -> list[dict]:
    return [section(_("The wiki index is still being built. Please try again in a minute."))]


def failure_blocks() -> list[dict]:
    return [
        section(
            _("Sorry, something went wrong while answering. The error has been logged; please try again.")
        )
    ]


def busy_blocks() -> list[dict]:
    return [section(_("Many questions at once: answering yours in a moment."))]


def overloaded_blocks() -> list[dict]:
    return [
        section(
            _(
                "Sorry, there were too many questions at once and yours could not be answered. "
                "Please ask again in a minute."
            )
        )
    ]


def refused_blocks() -> list[dict]:
    return [section(_("Sorry, I do not answer in this channel."))]


def gone_blocks() -> list[dict]:
    return [section(_("That page is no longer in the wiki. It may have been renamed or removed."))]


def bad_day_blocks(text: str, wiki_command: str) -> list[dict]:
    return [
        section(
            _(
                "Sorry, {text} is not a date. "
                "Try `{command} digest` (yesterday) or `{command} digest 2026-01-31`."
            ).format(text=bold(escape_clipped(text, 100)), command=escape(wiki_command))
        )
    ]


def more_messages_blocks(count: int, day: date) -> list[dict]:
    """The last message of a long digest preview: the command that prints that day's whole digest."""
    return [
        section(
            _(
                "…and {count} more digest messages. "
                "Run `sakuin digest --date {day} --dry-run` to see them all."
            ).format(count=count, day=day.isoformat())
        )
    ]
