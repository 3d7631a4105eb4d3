"""Page text as people read it: plain text from Markdown, link labels, summaries, short passages.

Everything the domain hands the edges is plain text made here, so no edge needs to know Markdown:
links read as their labels; embeds, emphasis, quote and callout marks are gone; list items stay
one per line with their marker.
"""

from __future__ import annotations

import re

from index.model import Section
from index.reading.format import CITATION_WORDS, DEFINITION_HEADING, OVERVIEW_HEADING, SOURCE, SOURCE_NAME
from index.reading.frontmatter import list_value, text_value
from index.reading.wikilinks import WIKILINK

_NUMBERED_CITATION = re.compile(r"[ \t]*(?<![\[\]^\\])\[\^?(?!0)\d+(?:\s*[,–-]\s*\^?\d+)*\](?![\[*+?{])")
"""``[41, 42]``, ``[10–12]``, ``[^3]``; not a regular expression's class (``^[1-9][0-9]*$``, whose
backticks are gone by the time citations are stripped): references count from 1 and stand alone."""
_SOURCE_CITATION = re.compile(rf"[(（]\s*(?:{'|'.join(CITATION_WORDS)})\s*[:：][^()（）]*[)）]")
_MARKUP = re.compile(r"\*\*|__|`")
_FENCE = re.compile(r"^[ \t]*(?:`{3,}|~{3,})[^`\n]*$", re.MULTILINE)
"""A code fence's line, with its language (```bash): the code is text, the fence is not."""
_THEMATIC_BREAK = re.compile(r"^[ \t]{0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$", re.MULTILINE)
"""A line of three or more ``-``, ``*`` or ``_`` (``---``, ``* * *``): a break between parts of a
page, read as an empty line (it is no sentence, and it holds none of the question's words)."""
_TABLE_RULE = re.compile(r"^\|?\s*:?-{2,}:?\s*(?:\|\s*:?-{2,}:?\s*)*\|?$")
_CALLOUT_MARK = re.compile(r"^>\s*\[![\w-]+\][-+]?\s*", re.MULTILINE)
CALLOUT = re.compile(r"^>\s*\[!([\w-]+)\]([-+]?)\s*(.*)$")
"""``> [!type]- title``: groups type, fold mark, title."""
_QUOTE = re.compile(r"^(?:>\s?)+", re.MULTILINE)
_STRUCTURE_LINE = re.compile(r"^(?:#{1,6}[ \t].*|>\s*\[![\w-]+\].*)\n?", re.MULTILINE)
"""Heading lines and callout title lines: structure, not text."""
_TITLES = (
    "Rev Mrs Messrs Prof Capt Col Gen Maj Lieut Sgt Cpl Hon Gov Sen Supt Insp vs cf viz approx Fig Vol Nos pp"
)
"""Abbreviations a capital follows inside a sentence (``the Rev. Foyster``, ``Prof. Hans Thirring``,
``React vs. Vue``): their full stop ends no sentence. ``etc.`` and ``Inc.`` end sentences too often
to be here."""
NOT_AFTER_TITLE = "".join(rf"(?<!\b{title}\.)" for title in _TITLES.split())
"""Put right after a full stop in a pattern: the stop is not a title's."""
_SENTENCE_END = re.compile(rf"[。！？!?]+|\.{NOT_AFTER_TITLE}(?=\s|$)")
"""A sentence ends at 。！？!? or at a full stop followed by a space (not inside ``3.5`` or ``e.g``,
not after a title)."""
_UNBREAKABLE = re.compile(
    r"<[^<>\s][^<>\n]*>"
    r"|``[^\n]+?``|`[^`\n]+`"
    r"|\b[a-z][a-z0-9+.\-]{0,31}://[^\s<>`「」『』（）【】、。，！？]*[^\s<>`「」『』（）【】、。，！？.,;:!?'\")\]]"
    r"|「[^「」\n]{1,80}」|『[^『』\n]{1,80}』|（[^（）\n]{1,80}）",
    re.IGNORECASE,
)
"""What no sentence end may cut: ``<…>`` on one line (Slack's ``<!channel>``, ``<@U…>``,
``<url|text>``; not ``a < b``), a code span, a URL (its trailing punctuation is the sentence's), a
short Japanese quote or aside (「私は何を知るか？」と刻ませた is one sentence)."""
_NOT_PROSE = ("#", ">", "![[", "|", "```", "Navigation:", "**Figure", "(Figure")
SUMMARY_CHARS = 240


def link_label(target: str, display: str | None) -> str:
    """How a link reads in a list of pages: its display text, else the source title, else the name."""
    if display:
        return display
    name = target.rsplit("/", 1)[-1]
    source = SOURCE_NAME.match(name)
    return source.group(3) if source else name


def prose_label(target: str, display: str | None) -> str:
    """How a link reads inside prose. A cited source reads as its short name (``MegaScale``) or
    venue and year (``SOSP 2025``): its full title in every citing page would make those pages
    answer questions about the paper instead of the paper's own page."""
    if display:
        return display
    name = target.rsplit("/", 1)[-1]
    source = SOURCE_NAME.match(name)
    if not source:
        return name
    title = source.group(3)
    return title.split(" - ", 1)[0] if " - " in title else f"{source.group(2)} {source.group(1)}"


def plain_text(markdown: str) -> str:
    """Markdown to readable text: links become their labels; embeds, emphasis, quote and callout
    marks go. Lines (and list markers) are kept."""

    def label(match: re.Match[str]) -> str:
        if match.group(1):
            return ""
        return prose_label(match.group(2).strip(), (match.group(3) or "").strip() or None)

    text = WIKILINK.sub(label, markdown.replace("\\|", "|"))
    text = _QUOTE.sub("", _CALLOUT_MARK.sub("", _FENCE.sub("", text)))
    text = _THEMATIC_BREAK.sub("", text)
    return _MARKUP.sub("", table_rows(text))


def table_rows(text: str) -> str:
    """Markdown tables as one line per row that says each cell under its column's header
    (``| Setting | Default |`` over ``| port | 8000 |`` → ``Setting: port · Default: 8000``): a row
    read alone, in a passage, a sentence or a Slack message, still says what its numbers are."""
    lines = text.split("\n")
    out: list[str] = []
    index = 0
    while index < len(lines):
        header = _cells(lines[index])
        if header and index + 1 < len(lines) and _TABLE_RULE.match(lines[index + 1].strip()):
            index += 2
            while index < len(lines) and (row := _cells(lines[index])):
                out.append(_row_line(header, row))
                index += 1
            continue
        out.append(lines[index])
        index += 1
    return "\n".join(out)


def _cells(line: str) -> list[str]:
    stripped = line.strip()
    if not stripped.startswith("|") or stripped.count("|") < 2:
        return []
    return [cell.strip() for cell in stripped.strip("|").split("|")]


def _row_line(header: list[str], row: list[str]) -> str:
    pairs = [
        f"{name}: {cell}" if name else cell
        for name, cell in zip(header + [""] * (len(row) - len(header)), row, strict=False)
        if cell
    ]
    return " · ".join(pairs)


def blurb_text(markdown: str) -> str:
    """A section written to be posted as it is (``## 紹介文``): its plain text without heading or
    callout title lines, one line per paragraph line or list item."""
    return plain_text(_STRUCTURE_LINE.sub("", markdown)).strip()


def strip_citations(text: str) -> str:
    """Drop ``(Source: …)`` provenance notes and numbered references (``[41, 42]``, ``[^3]``): useful
    in the page, where the list they point to is, noise in a one-line passage."""
    text = _NUMBERED_CITATION.sub("", _SOURCE_CITATION.sub("", text))
    return re.sub(r"[ \t]{2,}", " ", text)


def summarize(page_type: str, meta: dict[str, object], sections: tuple[Section, ...]) -> str:
    """The 1–3 line summary: role, 概要, 定義, the abstract callout, or the first paragraph."""
    role = text_value(meta, "role")
    by_heading = {section.heading: section.text for section in sections}
    abstract = _abstract(by_heading.get("", ""))
    candidates: list[str | None]
    if page_type == SOURCE:
        claims = list_value(meta, "key_claims")
        candidates = [abstract, by_heading.get(OVERVIEW_HEADING), "。".join(claims) if claims else None]
    else:
        candidates = [role, by_heading.get(OVERVIEW_HEADING), by_heading.get(DEFINITION_HEADING), abstract]
    candidates.append(_first_paragraph(by_heading.get("", "")))
    candidates.extend(_first_paragraph(section.text) for section in sections)
    for candidate in candidates:
        paragraph = _first_paragraph(candidate or "")
        if paragraph:
            return shorten(_SOURCE_CITATION.sub("", plain_text(paragraph)).strip(), SUMMARY_CHARS)
    return ""


def _abstract(intro: str) -> str | None:
    lines = intro.split("\n")
    for index, line in enumerate(lines):
        callout = CALLOUT.match(line.strip())
        if callout and callout.group(1).casefold() == "abstract":
            body = []
            for following in lines[index + 1 :]:
                if not following.startswith(">"):
                    break
                body.append(following.lstrip("> ").strip())
            return " ".join(part for part in body if part) or None
    return None


def _first_paragraph(text: str) -> str | None:
    paragraph: list[str] = []
    for line in text.split("\n"):
        stripped = line.strip()
        if not stripped or stripped.startswith(_NOT_PROSE):
            if paragraph:
                break
            continue
        bullet = stripped[:1] in "-*+"
        if paragraph and bullet:
            break
        paragraph.append(stripped.lstrip("-*+ ").strip())
        if bullet:
            break
    return " ".join(paragraph) or None


def masked(text: str) -> str:
    """``text`` with each span no sentence end may cut (``<!channel>``, a code span, a URL) written
    as as many ``x``: the sentence ends found in it are outside them, at the same offsets."""
    return _UNBREAKABLE.sub(lambda match: "x" * len(match.group()), text)


def split_outside(pattern: re.Pattern[str], text: str) -> list[str]:
    """``pattern.split(text)`` (for a pattern without groups) that never cuts inside ``<…>``, a code
    span or a URL: the ``!`` of ``<!channel>`` or the ``?`` of ``https://a.b/c?d=1`` end nothing."""
    pieces, start = [], 0
    for match in pattern.finditer(masked(text)):
        pieces.append(text[start : match.start()])
        start = match.end()
    pieces.append(text[start:])
    return pieces


def shorten(text: str, limit: int) -> str:
    """Whitespace folded, then cut at the last sentence end within ``limit`` characters (past its
    first third), else at ``limit`` with an ellipsis."""
    text = " ".join(text.split())
    if len(text) <= limit:
        return text
    head = masked(text)[: limit + 1]  # one more: a full stop at the limit is an end only before a space
    ends = [m.end() for m in _SENTENCE_END.finditer(head) if limit // 3 < m.end() <= limit]
    return text[: ends[-1]].strip() if ends else text[:limit].rstrip() + "…"
