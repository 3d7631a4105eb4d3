"""The terminal of the command line: its two consoles, JSON as the contracts print it, and Block
Kit rendered as Slack would show it (`sakuin ask`, `sakuin shell`, `sakuin digest --dry-run`)."""

from __future__ import annotations

import html
import json
import re
from collections.abc import Iterable
from typing import TYPE_CHECKING

from rich.console import Console
from rich.rule import Rule
from rich.text import Text

from bot.i18n import ngettext

if TYPE_CHECKING:
    from bot.blocks.reply import Reply


class _Console(Console):
    def on_broken_pipe(self) -> None:
        """The reader left (``sakuin search … | head -1``): rich would exit 1; the command line
        catches this and exits 0 (`bot.cli.commands.main`)."""
        self.quiet = True
        raise BrokenPipeError


err = _Console(stderr=True, highlight=False, soft_wrap=True, markup=False)
out = _Console(highlight=False, soft_wrap=True, markup=False)

_LINK = re.compile(r"<([^<>|]+)\|([^<>]+)>|<([^<>|]+)>")
_BOLD = re.compile(r"(?<![\w*])\*(?!\s)([^*\n]+?)(?<!\s)\*(?![\w*])")
_ITALIC = re.compile(r"(?<![\w_])_(?!\s)([^_\n]+?)(?<!\s)_(?![\w_])")


def print_json(data: object) -> None:
    print(json.dumps(data, ensure_ascii=False, indent=2))


def render_reply(reply: Reply, console: Console) -> None:
    for block in reply.blocks:
        for line in render_block(block):
            console.print(line)


def render_block(block: dict) -> Iterable[Text | Rule]:
    kind = block.get("type")
    if kind == "header":
        yield Text(_plain(block["text"]), style="bold underline")
    elif kind == "divider":
        yield Rule(style="dim")
    elif kind == "section":
        if block.get("text"):
            yield _mrkdwn(block["text"])
        for field in block.get("fields", ()):
            yield _mrkdwn(field)
        accessory = block.get("accessory")
        if accessory:
            yield Text(f"  {_element_label(accessory)}", style="cyan")
    elif kind == "context":
        yield Text("  ".join(_plain(element) for element in block.get("elements", ())), style="dim")
    elif kind == "actions":
        yield Text("  ".join(_element_label(element) for element in block.get("elements", ())), style="cyan")
    elif kind == "rich_text":
        yield from _rich_text(block.get("elements", ()))


def _rich_text(elements: Iterable[dict]) -> Iterable[Text]:
    """Each section, quote or preformatted run as a line; bold and italic as styles, a link as its
    label and address."""
    for element in elements:
        kind = element.get("type")
        if kind == "rich_text_list":
            for item in _rich_text(element.get("elements", ())):
                yield Text("• ") + item
            continue
        line = Text("> " if kind == "rich_text_quote" else "")
        for inline in element.get("elements", ()):
            line.append_text(_inline(inline))
        yield line


def _inline(element: dict) -> Text:
    style = element.get("style") or {}
    styles = " ".join(name for name in ("bold", "italic", "strike") if style.get(name))
    kind = element.get("type")
    if kind == "link":
        label = element.get("text") or element.get("url", "")
        return Text(f"{label} ({element.get('url', '')})", style=f"{styles} underline".strip())
    if kind == "emoji":
        return Text(f":{element.get('name', '')}:")
    if kind == "text":
        return Text(element.get("text", ""), style=styles)
    return Text("")


def _element_label(element: dict) -> str:
    if element.get("type") == "button":
        return f"[{_plain(element['text'])}]"
    placeholder = element.get("placeholder")
    options = element.get("options", ())
    label = _plain(placeholder) if placeholder else element.get("type", "")
    if not options:
        return f"[{label}]"
    choices = ngettext("{count} option", "{count} options", len(options)).format(count=len(options))
    return f"[{label} ▾ {choices}]"


def _plain(obj: dict | str) -> str:
    """Text of a text object; the bot escapes plain_text too, so entities decode either way."""
    text = obj if isinstance(obj, str) else obj.get("text", "")
    if isinstance(obj, dict) and obj.get("type") == "mrkdwn":
        return _unmark(text)
    return html.unescape(text)


def _mrkdwn(obj: dict) -> Text:
    if obj.get("type") != "mrkdwn":
        return Text(obj.get("text", ""))
    return Text(_unmark(obj.get("text", "")))


def _unmark(text: str) -> str:
    """Slack mrkdwn to readable text: links show their label and address, entities decode."""

    def link(match: re.Match[str]) -> str:
        if match.group(3):
            return match.group(3)
        url, label = match.group(1), match.group(2)
        return label if url.startswith(("#", "@", "!")) else f"{label} ({url})"

    text = _ITALIC.sub(r"\1", _BOLD.sub(r"\1", _LINK.sub(link, text)))
    return html.unescape(text)
