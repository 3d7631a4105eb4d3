"""The controls under an answer: 👍/👎 feedback, and "stop following" in a followed thread.

The feedback is Slack's own ``feedback_buttons`` element in a ``context_actions`` block. Each of
its two buttons carries, in its value, the vote and what a vote records (the question and the
pages shown), so a click needs no lookup and nothing is stored for answers nobody votes on.
Values are limited to 2,000 characters: pages are dropped from the end, then the question is
cut, until the value fits.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass

from bot.blocks.elements import MAX_BLOCKS, MAX_BUTTON_VALUE, actions, button, fit_blocks, plain, section
from bot.blocks.mrkdwn import escape, unescape
from bot.blocks.reply import Reply
from bot.i18n import N_, _

FEEDBACK = "feedback"
STOP_FOLLOWING = "stop_following"
FEEDBACK_BLOCK_ID = "feedback"
FOLLOW_BLOCK_ID = "follow"

HELPFUL = N_("Helpful")
HELPFUL_LABEL = N_("This answer was helpful")
NOT_HELPFUL = N_("Not helpful")
NOT_HELPFUL_LABEL = N_("This answer was not helpful")
STOP_LABEL = N_("Stop following this thread")
STOPPED_TEXT = N_("OK, I have stopped answering in this thread. Mention me to ask again.")


@dataclass(frozen=True)
class FeedbackValue:
    """What one feedback button says: the vote, and the answer it is about."""

    vote: str
    question: str
    pages: tuple[str, ...]


def feedback_block(question: str, pages: Sequence[str]) -> dict:
    """The 👍/👎 of an answer to ``question`` that showed ``pages`` (vault paths, in order)."""
    return {
        "type": "context_actions",
        "block_id": FEEDBACK_BLOCK_ID,
        "elements": [
            {
                "type": "feedback_buttons",
                "action_id": FEEDBACK,
                "positive_button": _feedback_button(HELPFUL, HELPFUL_LABEL, "up", question, pages),
                "negative_button": _feedback_button(NOT_HELPFUL, NOT_HELPFUL_LABEL, "down", question, pages),
            }
        ],
    }


def _feedback_button(text: str, label: str, vote: str, question: str, pages: Sequence[str]) -> dict:
    return {
        "text": plain(_(text), 75),
        "accessibility_label": _(label),
        "value": feedback_value(vote, question, pages),
    }


def feedback_value(vote: str, question: str, pages: Sequence[str]) -> str:
    """The button value, within Slack's 2,000 characters."""
    kept = list(pages)
    while kept and len(_encode(vote, question, kept)) > MAX_BUTTON_VALUE:
        kept.pop()
    if len(value := _encode(vote, question, kept)) <= MAX_BUTTON_VALUE:
        return value
    shortest, longest = 0, len(question)  # the longest prefix whose value fits (escapes count too)
    while shortest < longest:
        middle = (shortest + longest + 1) // 2
        if len(_encode(vote, question[:middle] + "…", kept)) <= MAX_BUTTON_VALUE:
            shortest = middle
        else:
            longest = middle - 1
    return _encode(vote, question[:shortest] + "…", kept)


def _encode(vote: str, question: str, pages: Sequence[str]) -> str:
    """Compact JSON; the question escaped like all user text, so no raw ``<!…>`` is ever sent."""
    data = {"v": vote, "q": escape(question), "p": list(pages)}
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))


def read_feedback_value(value: str) -> FeedbackValue | None:
    """The vote a clicked button carries; None for a value we did not write."""
    try:
        data = json.loads(value)
    except ValueError:
        return None
    if not isinstance(data, dict) or data.get("v") not in ("up", "down"):
        return None
    pages = data.get("p")
    if not isinstance(data.get("q"), str) or not isinstance(pages, list):
        return None
    if not all(isinstance(page, str) for page in pages):
        return None
    return FeedbackValue(data["v"], unescape(data["q"]), tuple(pages))


def stop_row(thread_ts: str) -> dict:
    """The "stop following" button of an answer in a followed thread."""
    return actions([button(_(STOP_LABEL), STOP_FOLLOWING, thread_ts)], block_id=FOLLOW_BLOCK_ID)


def with_controls(blocks: Sequence[dict], controls: Sequence[dict]) -> list[dict]:
    """``blocks`` followed by ``controls``, within 50 blocks: the answer gives way, never a control.

    An answer's own trailing action rows stay with it (`fit_blocks` keeps them).
    """
    trailing = 0
    for block in reversed(blocks):
        if block.get("type") != "actions":
            break
        trailing += 1
    room = MAX_BLOCKS - len(controls)
    body = list(blocks) if len(blocks) <= room else fit_blocks(blocks, room, keep_last=trailing)
    return [*body, *controls]


def without_block(blocks: Sequence[dict], block_id: str) -> list[dict]:
    """The message minus one of our control blocks (after "stop following" was clicked)."""
    return [block for block in blocks if block.get("block_id") != block_id]


def stopped_reply() -> Reply:
    """Said in a thread once sakuin stopped following it."""
    text = _(STOPPED_TEXT)
    return Reply(text, (section(text),))
