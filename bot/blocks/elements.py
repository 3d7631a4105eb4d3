"""Block Kit building bricks that cannot break Slack's limits.

Each constructor cuts its text to the limit of the field it fills, so the builders never count
characters. Two kinds of text come in:

- mrkdwn (`section`, `context`): already escaped by `bot.blocks.mrkdwn`, links included;
- plain text (`header`, `button`, `option`, `static_select` placeholders): raw text, escaped here.
  Slack decodes ``&amp; &lt; &gt;`` in plain text too, and escaping it means no raw ``<!channel>``
  from a page title or a query ever reaches Slack, whatever field it lands in.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.blocks.mrkdwn import clip, escape_clipped
from bot.i18n import _

MAX_BLOCKS = 50
MAX_VIEW_BLOCKS = 100
MAX_SECTION_TEXT = 3000
MAX_HEADER_TEXT = 150
MAX_CONTEXT_ELEMENTS = 10
MAX_CONTEXT_TEXT = 2000
MAX_ACTIONS_ELEMENTS = 25
MAX_BUTTON_TEXT = 75
MAX_BUTTON_VALUE = 2000
MAX_OPTIONS = 100
MAX_OPTION_TEXT = 75
MAX_OPTION_VALUE = 150
MAX_PLACEHOLDER_TEXT = 150
MAX_MESSAGE_TEXT = 3000
"""Our own cap for a message's fallback ``text`` (Slack truncates at 40,000; notifications need far less)."""


def plain(text: str, limit: int) -> dict:
    """A plain_text object from raw text."""
    return {"type": "plain_text", "text": escape_clipped(text, limit) or " ", "emoji": True}


def header(text: str) -> dict:
    return {"type": "header", "text": plain(text, MAX_HEADER_TEXT)}


def section(text: str, accessory: dict | None = None) -> dict:
    block = {"type": "section", "text": {"type": "mrkdwn", "text": clip(text, MAX_SECTION_TEXT) or " "}}
    if accessory is not None:
        block["accessory"] = accessory
    return block


def context(*texts: str) -> dict:
    """A context block of mrkdwn texts; empty texts are dropped, extra ones folded into the last."""
    parts = [text for text in texts if text]
    if len(parts) > MAX_CONTEXT_ELEMENTS:
        parts = [*parts[: MAX_CONTEXT_ELEMENTS - 1], "  ".join(parts[MAX_CONTEXT_ELEMENTS - 1 :])]
    return {
        "type": "context",
        "elements": [{"type": "mrkdwn", "text": clip(part, MAX_CONTEXT_TEXT)} for part in parts or [" "]],
    }


def divider() -> dict:
    return {"type": "divider"}


def button(label: str, action_id: str, value: str, *, style: str | None = None) -> dict:
    element = {
        "type": "button",
        "text": plain(label, MAX_BUTTON_TEXT),
        "action_id": action_id,
        "value": value[:MAX_BUTTON_VALUE],
    }
    if style is not None:
        element["style"] = style
    return element


def actions(elements: Sequence[dict], block_id: str | None = None) -> dict:
    block: dict = {"type": "actions", "elements": list(elements[:MAX_ACTIONS_ELEMENTS])}
    if block_id is not None:
        block["block_id"] = block_id
    return block


def option(label: str, value: str) -> dict:
    return {"text": plain(label, MAX_OPTION_TEXT), "value": value[:MAX_OPTION_VALUE]}


def static_select(placeholder: str, action_id: str, options: Sequence[dict]) -> dict:
    return {
        "type": "static_select",
        "placeholder": plain(placeholder, MAX_PLACEHOLDER_TEXT),
        "action_id": action_id,
        "options": list(options[:MAX_OPTIONS]),
    }


def join_within(items: Sequence[str], limit: int, separator: str = " · ") -> str:
    """Join the items if they fit in ``limit``; else as many whole items as fit, then ``+N more``.

    Items are never cut, so links inside them stay intact; the suffix is counted in the limit.
    """
    whole = separator.join(items)
    if len(whole) <= limit:
        return whole
    best = more_text(len(items))
    joined = ""
    for shown, item in enumerate(items, start=1):
        joined = item if shown == 1 else joined + separator + item
        candidate = f"{joined}{separator}{more_text(len(items) - shown)}"
        if len(candidate) > limit:
            break
        best = candidate
    return best


def fit_blocks(blocks: Sequence[dict], limit: int = MAX_BLOCKS, *, keep_last: int = 0) -> list[dict]:
    """Drop blocks from the middle so at most ``limit`` remain, saying how many were left out.

    The last ``keep_last`` blocks (the action rows) always stay.
    """
    if len(blocks) <= limit:
        return list(blocks)
    tail = list(blocks[len(blocks) - keep_last :]) if keep_last else []
    body = list(blocks[: len(blocks) - keep_last]) if keep_last else list(blocks)
    room = limit - len(tail) - 1
    left_out = len(body) - room
    return [*body[:room], context(_("+{count} more not shown").format(count=left_out)), *tail]


def more_text(count: int) -> str:
    """``+3 more``: the end of a list that did not fit."""
    return _("+{count} more").format(count=count)
