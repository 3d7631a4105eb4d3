"""The App Home tab: recent sources, how to use the commands, last week's feedback and the pages
watched in the user's channels."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from bot.blocks.digest import source_blocks
from bot.blocks.elements import (
    MAX_VIEW_BLOCKS,
    context,
    divider,
    fit_blocks,
    header,
    section,
)
from bot.blocks.help import index_status, usage_lines
from bot.blocks.mrkdwn import bold, escape_clipped
from bot.blocks.watches import home_watch_blocks
from bot.i18n import _, ngettext
from bot.state.feedback import SUMMARY_DAYS, FeedbackSummary
from index import DigestItem, IndexState

QUESTION_LIMIT = 200


def feedback_blocks(summary: FeedbackSummary) -> list[dict]:
    """The share of 👍 and the questions sakuin could not answer confidently."""
    share = summary.up_share
    if share is None:
        votes = _("No votes on answers yet.")
    else:
        votes = ngettext(
            "👍 {up} of {votes} vote ({share:.0%})", "👍 {up} of {votes} votes ({share:.0%})", summary.votes
        ).format(up=summary.up, votes=summary.votes, share=share)
    questions = [f"• {escape_clipped(question, QUESTION_LIMIT)}" for question in summary.unanswered]
    heading = bold(_("Questions the wiki could not answer"))
    return [
        header(_("Feedback, last {days} days").format(days=SUMMARY_DAYS)),
        context(votes),
        section("\n".join([heading, *questions]) if questions else _("Every question found an answer.")),
    ]


def home_view(
    recent: Sequence[DigestItem],
    state: IndexState,
    entity_command: str,
    wiki_command: str,
    feedback: FeedbackSummary | None = None,
    watches: Mapping[str, Sequence[str]] | None = None,
) -> dict:
    """The ``home`` view for views.publish (at most 100 blocks); ``watches``: the titles of the
    pages watched in the user's channels, by channel id."""
    watched = home_watch_blocks(watches or {})
    blocks = [
        header(_("sakuin: the research wiki in Slack")),
        context(index_status(state)),
        section(bold(_("How to use it")) + "\n" + "\n".join(usage_lines(entity_command, wiki_command))),
        divider(),
        *([*feedback_blocks(feedback), divider()] if feedback is not None else []),
        *([*watched, divider()] if watched else []),
        header(_("Recent sources")),
    ]
    if recent:
        for item in recent:
            blocks += source_blocks(item)
    else:
        blocks.append(section(_("No sources yet.")))
    return {"type": "home", "blocks": fit_blocks(blocks, MAX_VIEW_BLOCKS)}
