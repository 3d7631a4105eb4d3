"""What a person reads of a message, in order: the measure of "answer on the first screen".

The visible text of a message is the text of its header, section (text, then fields), context,
``rich_text`` and ``markdown`` blocks, in block order, as Slack renders it: a link shows its label,
entities are decoded, emphasis marks are not characters anyone reads. Buttons, selects, images and
dividers are not counted: they are controls, not the answer. The benchmark and the reply tests
use this one definition.
"""

from __future__ import annotations

import html
import re
import unicodedata
from collections.abc import Iterable, Iterator

FIRST_SCREEN_CHARS = 400
"""About what a person reads of a Slack message before deciding whether it answered them."""

_LINK = re.compile(r"<([^<>|]+)\|([^<>]*)>|<([^<>|]+)>")
_EMPHASIS = re.compile(r"(?<![\w*_~])([*_~])(?!\s)(.+?)(?<!\s)\1(?![\w*_~])")
_MARKDOWN_LINK = re.compile(r"\[([^\]]*)\]\([^)]*\)")


def visible_text(blocks: Iterable[dict]) -> str:
    """The message's readable text, one line per piece, in the order Slack shows it."""
    return "\n".join(piece for piece in _pieces(blocks) if piece)


def first_screen(blocks: Iterable[dict], chars: int = FIRST_SCREEN_CHARS) -> str:
    """The first ``chars`` visible characters, NFKC-normalised and case-folded (for matching keys)."""
    return unicodedata.normalize("NFKC", visible_text(blocks)).casefold()[:chars]


def _pieces(blocks: Iterable[dict]) -> Iterator[str]:
    for block in blocks:
        kind = block.get("type")
        if kind in ("header", "section"):
            if block.get("text"):
                yield _text_object(block["text"])
            for field in block.get("fields") or ():
                yield _text_object(field)
        elif kind == "context":
            for element in block.get("elements") or ():
                if element.get("type") in ("mrkdwn", "plain_text"):
                    yield _text_object(element)
        elif kind == "rich_text":
            yield "".join(_rich_text(block.get("elements") or ()))
        elif kind == "markdown":
            yield _MARKDOWN_LINK.sub(r"\1", block.get("text", "")).replace("**", "")


def _text_object(obj: dict) -> str:
    text = obj.get("text", "")
    if obj.get("type") != "mrkdwn":
        return html.unescape(text)

    def label(match: re.Match[str]) -> str:
        if match.group(3) is not None:
            return match.group(3)
        return match.group(2)

    return html.unescape(_EMPHASIS.sub(r"\2", _LINK.sub(label, text)))


def _rich_text(elements: Iterable[dict]) -> Iterator[str]:
    """Sections, lists, quotes and preformatted runs, each on its own line; text and link labels."""
    for element in elements:
        kind = element.get("type")
        if kind in ("rich_text_section", "rich_text_quote", "rich_text_preformatted"):
            yield "".join(_inline(element.get("elements") or ())) + "\n"
        elif kind == "rich_text_list":
            yield from _rich_text(element.get("elements") or ())
        else:
            yield from _inline((element,))


def _inline(elements: Iterable[dict]) -> Iterator[str]:
    for element in elements:
        kind = element.get("type")
        if kind == "text":
            yield element.get("text", "")
        elif kind == "link":
            yield element.get("text") or element.get("url", "")
        elif kind == "emoji":
            yield f":{element.get('name', '')}:"
