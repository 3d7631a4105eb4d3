"""Slack mrkdwn: escaping text that did not come from us, links built from our own URLs, mentions.

Everything the wiki says and everything a user types is escaped with `escape` before it goes into a
message, so a typed ``<!channel>`` or ``<@U123>`` is shown as text and never pings anyone. Links
are only built from URLs the wiki gave us (`link`), never from user input.
"""

from __future__ import annotations

import re
from urllib.parse import quote, urlsplit

_ESCAPES = {"&": "&amp;", "<": "&lt;", ">": "&gt;"}
_ESCAPED = re.compile(r"[&<>]")
_ENTITY = re.compile(r"&(amp|lt|gt);")
_UNESCAPES = {"amp": "&", "lt": "<", "gt": ">"}
_LEADING_MENTION = re.compile(r"^\s*<@([UW][A-Z0-9]+)(?:\|[^>]*)?>[\s:,、]*")
_PARTIAL_ENTITY = re.compile(r"&[a-z]{0,3}$")
_URL_SAFE = "/:@!$'()*+,;=?#[]~%-._"
ELLIPSIS = "…"


def escape(text: str) -> str:
    """Escape exactly ``&``, ``<`` and ``>`` (Slack decodes these three and nothing else)."""
    return _ESCAPED.sub(lambda match: _ESCAPES[match.group()], text)


def unescape(text: str) -> str:
    """Turn the text of a Slack payload (where Slack escaped ``&<>``) back into what the user typed.

    One pass, so ``&amp;lt;`` becomes ``&lt;`` and not ``<``.
    """
    return _ENTITY.sub(lambda match: _UNESCAPES[match.group(1)], text)


def link(url: str | None, label: str) -> str:
    """``<url|label>`` with the label escaped; the escaped label alone when there is no usable URL.

    Only http(s) URLs are linked; characters that would end the link early (``|``, ``>``, spaces) are
    percent-encoded so the URL can never smuggle mrkdwn into the message.
    """
    text = escape(label)
    if not url or urlsplit(url).scheme not in ("http", "https"):
        return text
    return f"<{quote(url, safe=_URL_SAFE)}|{text}>"


def strip_mention(text: str, bot_user_id: str | None = None) -> str:
    """Remove the ``<@U…>`` that addresses the bot at the start of an app_mention's text.

    When the bot's user id is known only its own mention is removed, so a question that starts by
    naming someone else keeps that name.
    """
    match = _LEADING_MENTION.match(text)
    if match is None or (bot_user_id is not None and match.group(1) != bot_user_id):
        return text.strip()
    return text[match.end() :].strip()


def clip(mrkdwn: str, limit: int) -> str:
    """Cut already-escaped text to at most ``limit`` characters, ending in an ellipsis.

    Never cuts an ``&amp;``-style entity in half. Use it on escaped prose only, not on text that holds
    links (lists of links are shortened item by item instead).
    """
    if len(mrkdwn) <= limit:
        return mrkdwn
    cut = _PARTIAL_ENTITY.sub("", mrkdwn[: limit - len(ELLIPSIS)])
    return cut.rstrip() + ELLIPSIS


def escape_clipped(text: str, limit: int) -> str:
    """Escape raw text and keep it within ``limit`` characters."""
    return clip(escape(text), limit)


def bold(mrkdwn: str) -> str:
    """Bold already-escaped text; Slack needs the asterisks to touch non-space characters."""
    stripped = mrkdwn.strip()
    return f"*{stripped}*" if stripped else ""
