"""The App Home tab: recent sources, how to use the commands, and last week's feedback."""

from __future__ import annotations

from collections.abc import Sequence

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
from bot.feedback import SUMMARY_DAYS, FeedbackSummary
from bot.mrkdwn import escape_clipped
from index.model import DigestItem, IndexState

QUESTION_LIMIT = 200

FEEDBACK_HEADER = "Feedback, last {days} days"
VOTES_LINE = "👍 {up} of {votes} votes ({share:.0%})"
NO_VOTES_LINE = "No votes on answers yet."
UNANSWERED_HEADING = "*Questions the wiki could not answer*"
NO_UNANSWERED_LINE = "Every question found an answer."


def feedback_blocks(summary: FeedbackSummary) -> list[dict]:
    """The share of 👍 and the questions sakuin could not answer confidently."""
    share = summary.up_share
    votes = (
        NO_VOTES_LINE if share is None else VOTES_LINE.format(up=summary.up, votes=summary.votes, share=share)
    )
    questions = [f"• {escape_clipped(question, QUESTION_LIMIT)}" for question in summary.unanswered]
    return [
        header(FEEDBACK_HEADER.format(days=SUMMARY_DAYS)),
        context(votes),
        section("\n".join([UNANSWERED_HEADING, *questions]) if questions else NO_UNANSWERED_LINE),
    ]


def home_view(
    recent: Sequence[DigestItem],
    state: IndexState,
    entity_command: str,
    wiki_command: str,
    feedback: FeedbackSummary | None = None,
) -> dict:
    """The ``home`` view for views.publish (at most 100 blocks)."""
    blocks = [
        header("sakuin: the research wiki in Slack"),
        context(index_status(state)),
        section("*How to use it*\n" + "\n".join(usage_lines(entity_command, wiki_command))),
        divider(),
        *([*feedback_blocks(feedback), divider()] if feedback is not None else []),
        header("Recent sources"),
    ]
    if recent:
        for item in recent:
            blocks += source_blocks(item)
    else:
        blocks.append(section("No sources yet."))
    return {"type": "home", "blocks": fit_blocks(blocks, MAX_VIEW_BLOCKS)}
