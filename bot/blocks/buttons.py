"""The interactive elements of our messages and the action ids the listeners answer.

Action ids are shared between the builders (which put them in blocks) and `bot/listeners/actions`
(which match them), so they live here, next to the elements that carry them. Slack wants action ids
unique within a block, hence the ``:<n>`` suffix on repeated buttons; listeners match the prefix.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from bot.blocks.elements import MAX_OPTION_VALUE, MAX_OPTIONS, actions, button, option, static_select
from bot.blocks.mrkdwn import escape
from bot.i18n import _
from index import path_token

OPEN_PAGE = "open_page"
OPEN_PAGE_SELECT = "open_page_select"
CHOOSE_CANDIDATE = "choose_candidate"
SHARE = "share_to_channel"

OPEN_PAGE_ACTION = re.compile(rf"^{OPEN_PAGE}(:\d+)?$")
CHOOSE_CANDIDATE_ACTION = re.compile(rf"^{CHOOSE_CANDIDATE}(:\d+)?$")

SHARE_BLOCK_ID = "share"
SHARE_TEXT_PREFIX = "text:"
SHARE_PAGE_PREFIX = "page:"
HASHED_PREFIX = "#"
MAX_BUTTONS_BEFORE_SELECT = 5


def page_value(path: str) -> str:
    """The value that names a page in a button or select option.

    Select options allow 150 characters; a longer path is replaced by a digest that the listener
    resolves by hashing the wiki's paths (`hashed_page_value`).
    """
    if len(path) <= MAX_OPTION_VALUE and not path.startswith(HASHED_PREFIX):
        return path
    return hashed_page_value(path)


def hashed_page_value(path: str) -> str:
    """``#`` and the page's `path_token` (the listener asks the wiki which page has it)."""
    return HASHED_PREFIX + path_token(path)


def open_page_button(label: str, path: str, index: int = 0) -> dict:
    return button(label, f"{OPEN_PAGE}:{index}", page_value(path))


def open_pages_row(pages: Sequence[tuple[str, str]], placeholder: str) -> dict:
    """One actions block that opens any of ``pages`` (label, path): buttons for a few, a select for many.

    A select holds at most 100 options; its placeholder then says how many of how many it offers.
    """
    if len(pages) <= MAX_BUTTONS_BEFORE_SELECT:
        return actions([open_page_button(label, path, index) for index, (label, path) in enumerate(pages)])
    options = [option(label, page_value(path)) for label, path in pages[:MAX_OPTIONS]]
    if len(pages) > MAX_OPTIONS:
        placeholder = _("{placeholder} ({shown} of {total}, +{more} more)").format(
            placeholder=placeholder, shown=MAX_OPTIONS, total=len(pages), more=len(pages) - MAX_OPTIONS
        )
    return actions([static_select(placeholder, OPEN_PAGE_SELECT, options)])


def candidate_buttons(candidates: Sequence[tuple[str, str]]) -> dict:
    """Buttons that choose one of several matching pages (label, path)."""
    return actions(
        [
            button(label, f"{CHOOSE_CANDIDATE}:{index}", page_value(path))
            for index, (label, path) in enumerate(candidates)
        ]
    )


def share_row(value: str) -> dict:
    """The "Share to channel" button of a private answer; ``value`` says how to rebuild the answer."""
    return actions([button(_("Share to channel"), SHARE, value, style="primary")], block_id=SHARE_BLOCK_ID)


def share_text_value(text: str) -> str:
    """The command to re-run when sharing; escaped like all user text, so no raw ``<!…>`` is ever sent."""
    return SHARE_TEXT_PREFIX + escape(text)


def share_page_value(path: str) -> str:
    return SHARE_PAGE_PREFIX + path
