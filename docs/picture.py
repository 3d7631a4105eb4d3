"""`make picture`: docs/answer.svg, the README's picture of an answer in Slack.

The picture is drawn from the real payload: the composer answers `QUESTION` on the bundled example
vault (what `sakuin ask --json` prints), with the 👍/👎 row a mention's answer carries, and this module
turns its Block Kit blocks into an SVG laid out as Slack lays out a message (avatar, name, time,
mrkdwn and rich text, smaller grey context, outlined buttons). There is no browser here: text is
wrapped by an estimate of its width (a CJK character is one em, a Latin one about half), and
the viewer's fonts draw it. `tests/test_picture.py` fails when the committed SVG is not what the
current payload draws. Run: ``python -m docs.picture`` (``--check`` only compares).
"""

from __future__ import annotations

import argparse
import html
import re
import sys
import tempfile
import unicodedata
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
PICTURE = REPO / "docs" / "answer.svg"
QUESTION = "Minder を開発したのはどこ?"
ASKER = "Aiko"
TIME = "10:42"

WIDTH = 760
LEFT = 72  # where a message's text starts, right of the avatar
RIGHT = WIDTH - 24
FONT = "Lato, 'Helvetica Neue', Arial, 'Hiragino Sans', 'Noto Sans CJK JP', 'Yu Gothic', sans-serif"
MONO = "Menlo, Monaco, Consolas, 'Noto Sans Mono CJK JP', monospace"
BODY, SMALL = 15, 13
INK, GREY, LINK, RULE = "#1d1c1d", "#616061", "#1264a3", "#dddddd"


@dataclass(frozen=True)
class Span:
    """A run of text in one style."""

    text: str
    bold: bool = False
    italic: bool = False
    code: bool = False
    strike: bool = False
    link: bool = False


Line = list[Span]


# -- reading Slack's text ------------------------------------------------------------------------

MRKDWN = re.compile(r"<([^>|]+)(?:\|([^>]*))?>|`([^`]+)`|\*([^*\n]+)\*|_([^_\n]+)_|~([^~\n]+)~")


def mrkdwn_spans(text: str, base: Span = Span("")) -> Line:
    """One line of Slack mrkdwn as styled spans: links, `code`, *bold*, _italic_, ~strike~ (nested
    once, as in ``*_x_*``)."""
    spans: Line = []
    at = 0
    for match in MRKDWN.finditer(text):
        if match.start() > at:
            spans.append(replace(base, text=_unescape(text[at : match.start()])))
        url, label, code, bold, italic, strike = match.groups()
        if url is not None:
            spans.append(replace(base, text=_unescape(label or url), link=True))
        elif code is not None:
            spans.append(replace(base, text=_unescape(code), code=True))
        else:
            inner = bold or italic or strike
            style = {"bold": bold is not None, "italic": italic is not None, "strike": strike is not None}
            spans.extend(mrkdwn_spans(inner, replace(base, **{k: True for k, v in style.items() if v})))
        at = match.end()
    if at < len(text):
        spans.append(replace(base, text=_unescape(text[at:])))
    return [span for span in spans if span.text]


def _unescape(text: str) -> str:
    return text.replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&")


def rich_text_spans(elements: Sequence[dict]) -> list[Line]:
    """A rich_text section's elements as lines (a newline inside a text starts a new line)."""
    lines: list[Line] = [[]]
    for element in elements:
        style = element.get("style", {})
        span = Span(
            "",
            bold=style.get("bold", False),
            italic=style.get("italic", False),
            code=style.get("code", False),
            strike=style.get("strike", False),
            link=element["type"] == "link",
        )
        if element["type"] in ("text", "link"):
            text = element.get("text") or element.get("url", "")
        elif element["type"] == "emoji":
            codes = [code for code in element.get("unicode", "").split("-") if code]
            text = "".join(chr(int(code, 16)) for code in codes) or f":{element.get('name', '')}:"
        elif element["type"] in ("user", "channel", "usergroup"):
            text, span = "@" + element.get("user_id", element["type"]), replace(span, link=True)
        else:
            raise ValueError(f"no drawing for rich text element {element['type']!r}")
        for part_no, part in enumerate(text.split("\n")):
            if part_no:
                lines.append([])
            if part:
                lines[-1].append(replace(span, text=part))
    return lines


# -- measuring and wrapping ----------------------------------------------------------------------


def char_width(char: str, size: float, *, bold: bool = False, code: bool = False) -> float:
    """An estimate of a character's advance: wide (CJK) characters one em, others about half."""
    if unicodedata.east_asian_width(char) in ("W", "F"):
        return size
    if code:
        return size * 0.6
    if char == " ":
        return size * 0.28
    narrow = 0.3 if char in "il.,:;'|!()[]" else 0.66 if char.isupper() else 0.56
    return size * (narrow + (0.06 if bold else 0.0))


def span_width(span: Span, size: float) -> float:
    return sum(char_width(c, size, bold=span.bold, code=span.code) for c in span.text)


def _pieces(span: Span) -> Iterator[Span]:
    """Where a line may break: after a space, and between two wide characters."""
    for piece in re.findall(r"[^\s\u3000-\u9fff\uff00-\uffef]*\s*|[\u3000-\u9fff\uff00-\uffef]", span.text):
        if piece:
            yield replace(span, text=piece)


def wrap(line: Line, width: float, size: float) -> list[Line]:
    """``line`` broken into lines no wider than ``width`` (by the estimate)."""
    lines: list[Line] = [[]]
    used = 0.0
    for span in line:
        for piece in _pieces(span):
            wide = span_width(piece, size)
            if used + wide > width and lines[-1]:
                lines.append([])
                used = 0.0
                piece = replace(piece, text=piece.text.lstrip())
            lines[-1].append(piece)
            used += wide
    return lines


# -- drawing -------------------------------------------------------------------------------------


class Canvas:
    """SVG elements laid out top to bottom; ``y`` is where the next one starts."""

    def __init__(self) -> None:
        self.parts: list[str] = []
        self.y = 20.0

    def text_lines(
        self, lines: Sequence[Line], x: float, width: float, size: float = BODY, colour: str = INK
    ) -> None:
        leading = size * 1.47
        for line in lines:
            for wrapped in wrap(line, width, size):
                self.y += leading
                self.parts.append(_text(wrapped, x, self.y - leading * 0.3, size, colour))

    def button(self, label: str, x: float, y: float, *, size: float = SMALL) -> float:
        """An outlined button at (x, y); returns its width."""
        wide = span_width(Span(label, bold=True), size) + 24
        self.parts.append(
            f'<rect x="{x:.1f}" y="{y:.1f}" width="{wide:.1f}" height="28" rx="4" fill="#ffffff" '
            f'stroke="#bbbbbb"/>'
        )
        self.parts.append(_text([Span(label, bold=True)], x + 12, y + 19, size, INK))
        return wide

    def svg(self) -> str:
        height = round(self.y + 20)
        return (
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{height}" '
            f'viewBox="0 0 {WIDTH} {height}" font-family="{html.escape(FONT, quote=False)}">\n'
            f'<rect width="{WIDTH}" height="{height}" rx="8" fill="#ffffff" stroke="{RULE}"/>\n'
            + "\n".join(self.parts)
            + "\n</svg>\n"
        )


def _merged(line: Line) -> Line:
    """Neighbouring spans of one style as one (wrapping cut them at every possible break)."""
    merged: Line = []
    for span in line:
        if merged and replace(merged[-1], text="") == replace(span, text=""):
            merged[-1] = replace(span, text=merged[-1].text + span.text)
        else:
            merged.append(span)
    return merged


def _text(line: Line, x: float, y: float, size: float, colour: str) -> str:
    tspans = []
    for span in _merged(line):
        attributes = []
        if span.bold:
            attributes.append('font-weight="700"')
        if span.italic:
            attributes.append('font-style="italic"')
        if span.code:
            attributes.append(f'font-family="{html.escape(MONO, quote=False)}" fill="#c01343"')
        elif span.link:
            attributes.append(f'fill="{LINK}"')
        if span.strike:
            attributes.append('text-decoration="line-through"')
        tspans.append(f"<tspan{''.join(' ' + a for a in attributes)}>{html.escape(span.text)}</tspan>")
    return (
        f'<text x="{x:.1f}" y="{y:.1f}" font-size="{size}" fill="{colour}" xml:space="preserve">'
        + "".join(tspans)
        + "</text>"
    )


def message_head(canvas: Canvas, name: str, initial: str, colour: str, *, app: bool) -> None:
    """A message's avatar square, sender and time."""
    top = canvas.y + 4
    canvas.parts.append(f'<rect x="20" y="{top:.1f}" width="36" height="36" rx="6" fill="{colour}"/>')
    canvas.parts.append(
        f'<text x="38" y="{top + 25:.1f}" font-size="18" font-weight="700" fill="#ffffff" '
        f'text-anchor="middle">{html.escape(initial)}</text>'
    )
    spans = [Span(name, bold=True)]
    canvas.parts.append(_text(spans, LEFT, top + 13, BODY, INK))
    x = LEFT + span_width(spans[0], BODY) + 8
    if app:
        badge = f'<rect x="{x:.1f}" y="{top + 1:.1f}" width="30" height="15" rx="3" fill="#e8e8e8"/>'
        canvas.parts.append(badge)
        canvas.parts.append(_text([Span("APP", bold=True)], x + 4, top + 13, 10, GREY))
        x += 38
    canvas.parts.append(_text([Span(TIME)], x, top + 13, 12, GREY))
    canvas.y = top + 16


def draw_block(canvas: Canvas, block: dict) -> None:
    """One Block Kit block, as Slack draws it."""
    kind = block["type"]
    width = RIGHT - LEFT
    if kind == "header":
        canvas.text_lines([[Span(block["text"]["text"], bold=True)]], LEFT, width, 18)
    elif kind == "section":
        accessory = block.get("accessory")
        room = width - (110 if accessory else 0)
        top = canvas.y
        _section_text(canvas, block.get("text", {}), room)
        for field in block.get("fields", ()):
            _section_text(canvas, field, room)
        if accessory:
            _accessory(canvas, accessory, top + 6)
            canvas.y = max(canvas.y, top + 40)
    elif kind == "rich_text":
        for element in block["elements"]:
            _rich_element(canvas, element, width)
    elif kind == "context":
        spans: Line = []
        for element in block["elements"]:
            if element["type"] == "mrkdwn":
                spans.extend(mrkdwn_spans(element["text"].replace("\n", " ")))
            elif element["type"] == "plain_text":
                spans.append(Span(element["text"]))
            spans.append(Span("  "))
        canvas.text_lines([spans], LEFT, width, SMALL, GREY)
    elif kind in ("actions", "context_actions"):
        x, top = float(LEFT), canvas.y + 8
        for element in block["elements"]:
            for label in _control_labels(element):
                x += canvas.button(label, x, top) + 8
        canvas.y = top + 32
    elif kind == "divider":
        canvas.y += 10
        y = f"{canvas.y:.1f}"
        canvas.parts.append(f'<line x1="{LEFT}" x2="{RIGHT}" y1="{y}" y2="{y}" stroke="{RULE}"/>')
    else:
        raise ValueError(f"no drawing for block {kind!r}")
    canvas.y += 4


def _section_text(canvas: Canvas, text: dict, width: float) -> None:
    if not text:
        return
    for raw in text["text"].split("\n"):
        if text["type"] == "mrkdwn" and raw.startswith(">"):
            top = canvas.y
            canvas.text_lines([mrkdwn_spans(raw[1:].lstrip())], LEFT + 14, width - 14)
            _quote_bar(canvas, top)
        else:
            spans = mrkdwn_spans(raw) if text["type"] == "mrkdwn" else [Span(raw)]
            canvas.text_lines([spans], LEFT, width)


def _quote_bar(canvas: Canvas, top: float) -> None:
    """The grey bar left of a quote that started at ``top``."""
    height = canvas.y - top - 2
    bar = f'<rect x="{LEFT}" y="{top + 4:.1f}" width="4" height="{height:.1f}" rx="2" fill="{RULE}"/>'
    canvas.parts.append(bar)


def _rich_element(canvas: Canvas, element: dict, width: float) -> None:
    kind = element["type"]
    if kind == "rich_text_section":
        canvas.text_lines(rich_text_spans(element["elements"]), LEFT, width)
    elif kind == "rich_text_quote":
        top = canvas.y
        canvas.text_lines(rich_text_spans(element["elements"]), LEFT + 14, width - 14)
        _quote_bar(canvas, top)
    elif kind == "rich_text_list":
        for item in element["elements"]:
            lines = rich_text_spans(item["elements"])
            lines[0] = [Span("• "), *lines[0]]
            canvas.text_lines(lines, LEFT + 14, width - 14)
    elif kind == "rich_text_preformatted":
        lines = [[replace(s, code=True) for s in line] for line in rich_text_spans(element["elements"])]
        canvas.text_lines(lines, LEFT + 8, width - 8)
    else:
        raise ValueError(f"no drawing for rich text element {kind!r}")


def _accessory(canvas: Canvas, accessory: dict, top: float) -> None:
    labels = _control_labels(accessory)
    wide = span_width(Span(labels[0], bold=True), SMALL) + 24
    canvas.button(labels[0], RIGHT - wide, top)


def _control_labels(element: dict) -> list[str]:
    """What a control shows: a button its text, a menu its placeholder and ▾, feedback its thumbs."""
    kind = element["type"]
    if kind == "button":
        return [element["text"]["text"]]
    if kind in ("static_select", "external_select", "overflow"):
        placeholder = element.get("placeholder", {}).get("text", "")
        return [f"{placeholder} ▾".strip()]
    if kind == "feedback_buttons":  # Slack draws the two as thumbs, their texts as tooltips
        return ["👍", "👎"]
    raise ValueError(f"no drawing for control {kind!r}")


def render(question: str, message: dict) -> str:
    """The SVG of ``question`` asked in a channel and ``message`` (a Slack payload) answering it."""
    canvas = Canvas()
    message_head(canvas, ASKER, ASKER[0], "#4a8f6b", app=False)
    canvas.text_lines([[Span("@sakuin", link=True), Span(" " + question)]], LEFT, RIGHT - LEFT)
    canvas.y += 16
    message_head(canvas, "sakuin", "索", "#3f4a8a", app=True)
    for block in message["blocks"]:
        draw_block(canvas, block)
    return canvas.svg()


# -- the real payload ----------------------------------------------------------------------------


def answer_message(index_dir: Path) -> dict:
    """The message the bot posts for `QUESTION` on the bundled vault, with its 👍/👎 row: the
    composer's payload (``sakuin ask --json``) and the controls a mention's answer gets."""
    from bot.answering.replies import replies_for_text
    from bot.blocks.controls import feedback_block, with_controls
    from bot.i18n import language_for_question, use_language
    from config.settings import BUNDLED_VAULT, Settings
    from index.wiki import Wiki

    settings = Settings(
        _env_file=None,
        wiki_dir=BUNDLED_VAULT,
        index_dir=index_dir,
        state_db=index_dir / "state.sqlite3",
        ui_language="ja",
    )
    wiki = Wiki.open(settings.wiki_dir, settings.index_dir)
    wiki.update()
    with use_language(language_for_question(QUESTION, settings.ui_language)):  # as a mention's answer
        (reply,) = replies_for_text(QUESTION, wiki, settings)
        message = reply.message()
        pages = message["metadata"]["event_payload"]["pages"]
        controls = [feedback_block(QUESTION, pages)]
    return {**message, "blocks": with_controls(message["blocks"], controls)}


def current_picture() -> str:
    with tempfile.TemporaryDirectory() as work:
        return render(QUESTION, answer_message(Path(work) / "index"))


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m docs.picture", description=__doc__.split("\n")[0])
    parser.add_argument("--check", action="store_true", help="only say whether docs/answer.svg is current")
    args = parser.parse_args(argv)
    picture = current_picture()
    if args.check:
        current = PICTURE.exists() and PICTURE.read_text(encoding="utf-8") == picture
        print(f"{PICTURE.relative_to(REPO)} is {'current' if current else 'stale: run make picture'}")
        return 0 if current else 1
    PICTURE.write_text(picture, encoding="utf-8")
    print(f"wrote {PICTURE.relative_to(REPO)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
