"""Help: how to use the commands, mentions and DMs, with the configured command names."""

from __future__ import annotations

from bot.blocks.ago import slack_ago
from bot.blocks.elements import context, section
from bot.blocks.mrkdwn import bold, escape
from bot.i18n import N_, _, ngettext
from index import IndexState

HELP_TEXT = N_("How to use sakuin")


def help_text() -> str:
    """The notification text of the help message."""
    return _(HELP_TEXT)


def usage_lines(entity_command: str, wiki_command: str) -> list[str]:
    entity, wiki = escape(entity_command), escape(wiki_command)
    return [
        "• "
        + _(
            "`{entity} NAME`: what the wiki knows about a name (summary, relations, backlinks). "
            "Aliases, case, full-width letters and small typos are fine."
        ).format(entity=entity),
        "• "
        + _(
            "`{wiki} QUERY`: full-text search, with the best passage of each page (Japanese or English)."
        ).format(wiki=wiki),
        "• " + _("`{wiki} help`: this help.").format(wiki=wiki),
        "• "
        + _(
            "`{wiki} digest [YYYY-MM-DD]`: preview the digest of new sources for a day (default: yesterday)."
        ).format(wiki=wiki),
        "• "
        + _(
            "`{wiki} watch NAME`: this channel hears what changes on that page"
            " (`{wiki} unwatch NAME`, `{wiki} watching`)."
        ).format(wiki=wiki),
        "• "
        + _("Mention me with a question in a channel: I answer in the thread with the passages I found."),
        "• " + _("Send me a direct message: I answer there."),
    ]


def index_status(state: IndexState) -> str:
    """One line on the index: how many pages, when it was last updated, or why it is not ready."""
    if state.status == "ready":
        pages = ngettext("Index: {count} page.", "Index: {count} pages.", state.pages)
        if state.updated_at:
            pages = ngettext(
                "Index: {count} page, updated {when}.", "Index: {count} pages, updated {when}.", state.pages
            )
        return pages.format(count=state.pages, when=slack_ago(state.updated_at) if state.updated_at else "")
    if state.status == "building":
        return _("Index: being updated ({count} pages so far).").format(count=state.pages)
    if state.status == "empty":
        return _("Index: not built yet.")
    return _("Index: the last update failed; answers may be out of date.")


def help_blocks(entity_command: str, wiki_command: str, state: IndexState) -> list[dict]:
    lines = usage_lines(entity_command, wiki_command)
    return [
        section(bold(_(HELP_TEXT)) + "\n" + "\n".join(lines)),
        context(
            _("Answers to commands are private to you; press {button} to post one for everyone.").format(
                button=bold(_("Share to channel"))
            ),
            index_status(state),
        ),
    ]
