"""``rich_text`` blocks: bold and links that render in Japanese.

Slack's mrkdwn only renders ``*bold*`` when the asterisks touch a space or punctuation; inside
Japanese prose (``の*6,000 GPU*超``) they show as asterisks. ``rich_text`` carries the style on each
run of text instead, so it renders whatever the neighbouring characters are. Its text is literal:
nothing in it is mrkdwn, an entity or a mention (those are element types of their own), so wiki
text goes in as it is, unescaped.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from urllib.parse import urlsplit


def rich_text(*lines: Sequence[dict]) -> dict:
    """A rich_text block of one section per line (a section is a paragraph in Slack)."""
    return {
        "type": "rich_text",
        "elements": [{"type": "rich_text_section", "elements": list(line)} for line in lines if line],
    }


def run(text: str, *, bold: bool = False, italic: bool = False) -> dict:
    element: dict = {"type": "text", "text": text}
    style = _style(bold, italic)
    if style:
        element["style"] = style
    return element


def linked(url: str | None, label: str, *, bold: bool = False, italic: bool = False) -> dict:
    """A link to one of our own page URLs (http or https only), else the label as text."""
    if not url or urlsplit(url).scheme not in ("http", "https"):
        return run(label, bold=bold, italic=italic)
    element: dict = {"type": "link", "url": url, "text": label}
    style = _style(bold, italic)
    if style:
        element["style"] = style
    return element


def marked(text: str, marks: Iterable[tuple[int, int]]) -> list[dict]:
    """``text`` as runs, the ``marks`` spans (start, end) in bold."""
    runs: list[dict] = []
    at = 0
    for start, end in sorted(marks):
        start, end = max(start, at), min(end, len(text))
        if start >= end:
            continue
        if start > at:
            runs.append(run(text[at:start]))
        runs.append(run(text[start:end], bold=True))
        at = end
    if at < len(text):
        runs.append(run(text[at:]))
    return runs


def _style(bold: bool, italic: bool) -> dict:
    style = {}
    if bold:
        style["bold"] = True
    if italic:
        style["italic"] = True
    return style
