"""The wiki's log: its entries, and the pages each one says it created or updated.

The harness writes ``## [2026-10-14] ingest-paper | title`` with ``- Summary:`` and
``- Pages created:`` fields (wiki-format §7); LLM-maintained wikis write variants of it, and all of
them are read the same way:

- **An entry** is a heading that starts with a date or a timestamp (``## [2026-10-14] op | title``,
  ``## [2026-05-29 11:30] ingest | …``, ``## 2026-08-13``, ``## 2026-08-08T20:47:23+09:00 — …``)
  and runs to the next heading of level one or two. A table row whose first cell is a date
  (``| 2026-07-19T15:00:00+09:00 | ingest:create | [title](pages/x.md) | … |``) is an entry of its
  own. Entries may come newest-first, oldest-first or in no order, in several logs.
- **A label says what a list did**: ``Pages created:``, ``作成（sources）:``, ``Created:``,
  ``**New People Pages (22):**``, ``* **Create**: […](…)``, ``新規 source 2:`` create;
  ``Pages updated:``, ``Enriched:``, ``更新:``, ``* **Update**:``, ``既存 7 ページに … append:``
  update; ``Summary:`` names the source an ingest added. Other labels (``Source:``, ``主な発見:``,
  findings, skips) name pages without saying they were made.
- **A label's pages** are the wikilinks, Markdown links and backticked paths after it, up to the
  end of its sentence, leaving out those in parentheses or after a dash (descriptions). A label with
  nothing after it opens a list: the lines indented under it, or the bullets under a bold label,
  are its items; a neutral label nested in such a list (``People (80 pages):``) keeps its kind.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from urllib.parse import unquote

from index.reading.wikilinks import WIKILINK, clean_target, is_knowledge_target

CREATE, UPDATE, SUMMARY = "create", "update", "summary"

_HEADING = re.compile(r"^(#{1,6})(?!#)(?=[\s\[\d])\s*(.*?)\s*$")
_DATED = re.compile(
    r"^\[?\s*(\d{4}-\d{2}-\d{2}(?:[ T]\d{1,2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:\s?(?:Z|[+-]\d{2}:?\d{2}))?)?)"
    r"(?![\d:])\s*\]?\s*(.*)$"
)
_BULLET = re.compile(r"^(\s*)(?:[-*+•]|\d+[.)])\s+(.*)$")
_ROW = re.compile(r"^\s*\|(.*)\|\s*$")
_RULE = re.compile(r"^\s*(?:-{3,}|\*{3,}|_{3,})\s*$")
_CELL_SPLIT = re.compile(r"(?<!\\)\|")
_SEPARATOR_CELL = re.compile(r"^\s*:?-+:?\s*$")
_MARKDOWN_LINK = re.compile(r"(!?)\[([^\]\n]*)\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
_CODE = re.compile(r"(`+)(?!`)(.+?)(?<!`)\1(?!`)")
_LABEL = re.compile(
    r"^\s*(?:(?:\*\*|__)\s*)?([^\s:：\x00\[\]`|*_][^:：\x00\[\]`|*_]{0,79}?)\s*(?:(?:\*\*|__)\s*)?[:：]"
)
"""``Label:`` or ``**Label:**`` opening a line. Written so that no two quantifiers can share a run
of spaces: a line whose links were blanked out is long runs of them, and a pattern that could cut a
run two ways tried every cut (one log took four minutes to read)."""
_BOLD_START = re.compile(r"^\s*(?:\*\*|__)")
_PARENTHESES = re.compile(r"\([^()]*\)|（[^（）]*）")
_DASHES = ("—", "–", "--")
_MARKS = re.compile(r"[()（）。！？]|\.(?= |$)| (?:—|–|--) ")
"""Where a line's parentheses open and close, its sentences end, and a description begins."""
_MASK = "\x00"

_UPDATE_WORDS = re.compile(r"updat|enrich|revis|append|追記|加筆|更新|既存|反映|拡充", re.IGNORECASE)
_PAGE_NOUNS = (
    r"pages?|entr(?:y|ies)|notes?|files?|sources?|entit(?:y|ies)|concepts?|people|persons?|places?"
    r"|themes?|events?|phenomen\w*|articles?|papers?|topics?|summar(?:y|ies)"
)
_PAGE_GROUP = re.compile(r"\bpages?\b|ページ", re.IGNORECASE)
_BARE_PATH = re.compile(
    r"(?<![^\s(（,、:：])((?:[^\s/\x00()（）\[\]`,、]+/)*[^\s/\x00()（）\[\]`,、]+\.md)(?![\w])"
)
_RANGE_WORD = re.compile(r"^\s*(?:through|thru|to|–|〜|~|から)\s*$", re.IGNORECASE)
_NUMBERED = re.compile(r"^(.*?)(\d+)$")
_LETTERED = re.compile(r"^(.*[-_ ])([a-z])$")
MAX_RANGE = 500
_CREATE_WORDS = re.compile(
    rf"\bcreat(?:e|ed|es|ing|ion)\b|^new$|^new\s+(?:[\w/-]+\s+){{0,3}}(?:{_PAGE_NOUNS})\b"
    r"|^(?:pages?\s+)?added\b|(?<!未)作成|新規|新設|^新(?=\s)|新しい\s*ページ|(?:source|page|ページ)\s*化",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class LogEntry:
    """One entry of the log: its date or timestamp as written, and what it lists."""

    when: str
    op: str
    title: str
    summary: tuple[str, ...] = ()
    """Link targets on a ``Summary:`` line (the harness: the source an ingest added)."""
    created: tuple[str, ...] = ()
    """Targets the entry lists as created."""
    updated: tuple[str, ...] = ()
    """Targets the entry lists as updated or enriched."""

    @property
    def is_ingest(self) -> bool:
        return self.op.startswith("ingest")

    @property
    def source_targets(self) -> tuple[str, ...]:
        """The sources this entry says were added: its summary and the ``@`` pages it created."""
        created = tuple(target for target in self.created if target.rsplit("/", 1)[-1].startswith("@"))
        return _unique((*self.summary, *created))


@dataclass(frozen=True)
class LogBlock:
    """A stretch of the log as written: an entry (its heading and body, ``when`` set), a table row
    that is an entry (``when`` set, the row its text), or text that is no entry (a preamble, an
    undated section: ``when`` empty). What the log says, for a question about the wiki's history."""

    when: str
    heading: str
    """The heading without its ``#`` marks and its date's brackets (``2026-05-28 init | Wiki
    initialised``); empty for a preamble and a row."""
    text: str


def parse_log(text: str) -> tuple[LogEntry, ...]:
    """Every entry of a log, in file order (a table row's entry where the row is); preambles,
    undated headings and junk are skipped."""
    entries: list[LogEntry] = []
    for heading, _, body, row in _walk(text):
        if row is not None:
            entries.append(row)
        elif heading is not None:
            entries.append(_entry(heading, body))
    return tuple(entries)


def log_blocks(text: str) -> tuple[LogBlock, ...]:
    """The log cut where `parse_log` cuts it, every stretch with its text: each entry (a row
    too), and the text before the first entry and under undated headings, in `parse_log`'s order
    (file order, a dated table row before the stretch it stands in)."""
    blocks: list[LogBlock] = []
    for heading, written, body, row in _walk(text):
        said = "\n".join(body).strip()
        if row is not None:
            blocks.append(LogBlock(row.when, "", said))
        elif heading is not None or said:
            blocks.append(LogBlock(heading[0] if heading else "", written, said))
    return tuple(blocks)


_Stretch = tuple[tuple[str, str, str] | None, str, list[str], LogEntry | None]
"""(the entry's heading read, or None; the heading as written; the body lines; a row's entry)."""


def _walk(text: str) -> Iterator[_Stretch]:
    """The log's stretches in file order: text under a heading (or before any), up to the next
    heading of level one or two or dated heading, and each table row that is an entry."""
    heading: tuple[str, str, str] | None = None
    written = ""
    body: list[str] = []
    for line in unicodedata.normalize("NFC", text.lstrip("\ufeff")).splitlines():
        row = _row_entry(line)
        if row is not None:
            yield None, "", [line.strip()], row
            continue
        match = _HEADING.match(line)
        if match and not _RULE.match(line):
            level, rest = len(match.group(1)), match.group(2)
            dated = _DATED.match(rest)
            if dated or level <= 2:
                yield heading, written, body, None
                heading, body = (_heading(dated) if dated else None), []
                written = f"{dated.group(1)} {dated.group(2)}".strip() if dated else rest
                continue
        body.append(line)
    yield heading, written, body, None


def _heading(dated: re.Match[str]) -> tuple[str, str, str]:
    when, rest = dated.group(1), dated.group(2).strip()
    if "|" in rest:
        op, _, title = rest.partition("|")
        return when, op.strip().casefold(), title.strip()
    return when, "", rest.lstrip("—–-:： ").strip()


def _entry(heading: tuple[str, str, str], body: list[str]) -> LogEntry:
    lists: dict[str, list[str]] = {CREATE: [], UPDATE: [], SUMMARY: []}
    when, op, title = heading
    for kind, targets in _listed(body, _classify(title) if _classify(title) == CREATE else None):
        lists[kind].extend(targets)
    return LogEntry(
        when,
        op,
        title,
        summary=_unique(lists[SUMMARY]),
        created=_unique(lists[CREATE]),
        updated=_unique(lists[UPDATE]),
    )


@dataclass
class _Open:
    """A label whose list may go on below it."""

    level: int
    kind: str | None


def _listed(body: list[str], made: str | None) -> Iterator[tuple[str, list[str]]]:
    """(kind, targets) of every labelled list in an entry's lines. ``made``: what the entry's
    heading says it did (``— 45 new pages created``), the kind of its bare bullets and of labels
    that only name a group of pages (``People (25 pages):``)."""
    stack: list[_Open] = []
    for line in body:
        if not line.strip():
            continue
        if _RULE.match(line) or line.lstrip().startswith("#"):
            stack.clear()
            continue
        bullet = _BULLET.match(line)
        text = bullet.group(2) if bullet else line.strip()
        segments = _segments(text)
        labelled = segments[0][0] is not None
        indent = len((bullet.group(1) if bullet else line[: len(line) - len(line.lstrip())]).expandtabs(4))
        # Bullets and indented lines nest by indentation; a bold label (``**New pages:**``)
        # holds the plain labels and bullets below it.
        level = indent if bullet or indent else (-2 if labelled and _BOLD_START.match(text) else -1)
        while stack and stack[-1].level >= level:
            stack.pop()
        parent = stack[-1].kind if stack else None
        kind: str | None
        if labelled:
            label = segments[0][0] or ""
            kind = _classify(label) or parent or (made if _PAGE_GROUP.search(label) else None)
        elif bullet or indent:
            kind = parent if stack else (_classify_prose(segments[0][2]) or made)
        else:
            kind = None
        if labelled or bullet or indent:
            stack.append(_Open(level, kind))
        for index, (label, targets, _text) in enumerate(segments):
            segment_kind = kind if index == 0 else (_classify(label) if label is not None else None)
            if segment_kind and targets:
                yield segment_kind, targets


def _segments(text: str) -> list[tuple[str | None, list[str], str]]:
    """A line cut at its sentence ends: (label or None, targets, the text without them) of each."""
    masked, spans = _mask_targets(text)
    marks = [(match.start(), match.group(), 0) for match in _MARKS.finditer(masked)]
    events = sorted([*marks, *((begin, target, end) for begin, end, target in spans)])
    segments: list[tuple[str | None, list[str], str]] = []
    start, depth, described = 0, 0, False
    targets: list[str] = []
    last_end = 0
    for index, mark, end in events:
        if end:  # a target
            if depth == 0 and not described:
                if targets and _RANGE_WORD.match(masked[last_end:index]):
                    targets.extend(_between(targets[-1], mark))
                targets.append(mark)
                last_end = end
        elif mark in "(（":
            depth += 1
        elif mark in ")）":
            depth = max(depth - 1, 0)
        elif depth == 0 and mark.strip() in _DASHES:
            described = True
        elif depth == 0:
            segments.append(_segment(masked[start:index], targets))
            start, described, targets = index + 1, False, []
    if start < len(masked) or not segments:
        segments.append(_segment(masked[start:], targets))
    return segments


def _segment(piece: str, targets: list[str]) -> tuple[str | None, list[str], str]:
    label = _LABEL.match(piece)
    return (label.group(1).strip() if label else None, targets, piece.replace(_MASK, " "))


def _between(first: str, last: str) -> list[str]:
    """The names a range stands for between its ends (``mhh-ch05`` through ``mhh-ch32``;
    ``mhh-app-a`` through ``mhh-app-f``), ends excluded; none unless both share their stem."""
    one, other = _NUMBERED.match(first), _NUMBERED.match(last)
    if one and other and one.group(1) == other.group(1):
        low, high, width = int(one.group(2)), int(other.group(2)), len(one.group(2))
        if 0 <= high - low <= MAX_RANGE:
            return [f"{one.group(1)}{number:0{width}d}" for number in range(low + 1, high)]
    one, other = _LETTERED.match(first), _LETTERED.match(last)
    if one and other and one.group(1) == other.group(1) and one.group(2) < other.group(2):
        return [one.group(1) + chr(code) for code in range(ord(one.group(2)) + 1, ord(other.group(2)))]
    return []


def _mask_targets(text: str) -> tuple[str, list[tuple[int, int, str]]]:
    """The text with every link and code span blanked out, and (start, end, target) of each that
    names a page: Markdown links, backticked paths or names, wikilinks, then bare ``….md`` paths.
    A span that names a page is blanked with a mark no label can hold; the others with spaces."""
    spans: list[tuple[int, int, str]] = []

    def blanked(target: Callable[[re.Match[str]], str | None]) -> Callable[[re.Match[str]], str]:
        def blank(match: re.Match[str]) -> str:
            found = target(match)
            if found:
                spans.append((match.start(), match.end(), found))
            return (_MASK if found else " ") * (match.end() - match.start())

        return blank

    masked = text
    if "](" in masked:
        masked = _MARKDOWN_LINK.sub(blanked(lambda m: None if m.group(1) else _link_path(m.group(3))), masked)
    if "`" in masked:
        masked = _CODE.sub(blanked(lambda m: _code_target(m.group(2))), masked)
    if "[[" in masked:
        masked = WIKILINK.sub(blanked(_wikilink_target), masked.replace("\\|", "| "))
    if ".md" in masked:
        masked = _BARE_PATH.sub(blanked(lambda m: _knowledge(clean_target(m.group(1)))), masked)
    spans.sort()
    return masked, spans


def _wikilink_target(match: re.Match[str]) -> str | None:
    return None if match.group(1) else _knowledge(clean_target(match.group(2)))


def _knowledge(target: str) -> str | None:
    return target if is_knowledge_target(target) else None


def _code_target(code: str) -> str | None:
    """A backticked path or name (`` `wiki/people/x.md` ``, `` `gotb-ch02` ``) as a link target."""
    token = code.strip()
    if not token or "[[" in token or token.startswith("#") or any(char.isspace() for char in token):
        return None
    target = clean_target(token)
    return target if is_knowledge_target(target) else None


def _link_path(href: str) -> str | None:
    """A Markdown link's target as a page path, or None for web addresses and anchors."""
    if re.match(r"^[a-z][a-z0-9+.-]*:", href, re.IGNORECASE) or href.startswith("#"):
        return None
    path = unquote(href.split("#", 1)[0]).removeprefix("./")
    target = clean_target(path)
    return target if is_knowledge_target(target) else None


def _classify(label: str) -> str | None:
    """What a label says its pages were: created, updated, an ingest's summary, or nothing."""
    text = " ".join(_PARENTHESES.sub(" ", label).replace("*", " ").split())
    if text.casefold() == SUMMARY:
        return SUMMARY
    if _UPDATE_WORDS.search(text):
        return UPDATE
    if _CREATE_WORDS.search(text):
        return CREATE
    return None


def _classify_prose(text: str) -> str | None:
    """A bullet without a label (``- source ページ [[X]] を作成``): what its own words say."""
    kind = _classify(text)
    return kind if kind != SUMMARY else None


def _row_entry(line: str) -> LogEntry | None:
    """A table row whose first cell is a date: an entry of its own (``| when | action | target |``)."""
    row = _ROW.match(line)
    if not row:
        return None
    cells = [cell.strip() for cell in _CELL_SPLIT.split(unicodedata.normalize("NFC", row.group(1)))]
    if len(cells) < 2 or all(_SEPARATOR_CELL.match(cell) for cell in cells):
        return None
    dated = _DATED.match(cells[0])
    if not dated or dated.group(2):
        return None
    op = cells[1].casefold()
    kind = _classify(cells[1])
    targets = next((found for cell in cells[2:] if (found := _cell_targets(cell))), [])
    return LogEntry(
        dated.group(1),
        op,
        "",
        created=_unique(targets) if kind == CREATE else (),
        updated=_unique(targets) if kind == UPDATE else (),
    )


def _cell_targets(cell: str) -> list[str]:
    return [target for *_, target in _mask_targets(cell)[1]]


def _unique(values: Iterable[str]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(values))
