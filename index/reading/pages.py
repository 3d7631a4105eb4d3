"""One file → one `Page`: frontmatter, title, sections, summary, links and typed relations.

Strict about nothing, forgiving about everything (wiki-format §3, §4, §9): a page that can be read
at all becomes a Page; what was odd about it is returned as problems for the caller to report.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

from index.model import Link, Page, Relation, Section
from index.reading.format import (
    ARCHIVE_CALLOUT,
    BLURB_HEADING,
    COMPANION_TYPES,
    CONCEPT,
    DEFINITION_HEADING,
    ENTITY,
    FOLDER_TYPES,
    LEGACY_HEADINGS,
    LINK_KEYS,
    LINK_LIST_HEADINGS,
    NOTE,
    PROPERTIES_HEADING,
    RELATED_SOURCES_HEADING,
    RELATIONS_HEADING,
    SOURCE,
    SOURCE_LABEL,
    SOURCE_NAME,
    SOURCES_DIR,
    UNASKED_PROPERTIES,
)
from index.reading.frontmatter import list_value, split_frontmatter, text_value
from index.reading.prose import CALLOUT, blurb_text, plain_text, summarize
from index.reading.wikilinks import find_links, find_links_in_values, strip_code, strip_comments

_SECTION_SPLIT = re.compile(r"^##[ \t]+(.+?)[ \t]*#*[ \t]*$", re.MULTILINE)
_FENCE_LINE = re.compile(r"^[ \t]*(```|~~~)")
_H1 = re.compile(r"^#[ \t]+(.+?)[ \t]*$", re.MULTILINE)
_RELATION_LINE = re.compile(
    r"^\s*[-*+]\s*(?:\*\*)?([^\s\[\]:：*][^\[\]:：*]{0,39}?)(?:\*\*)?\s*[:：]\s*(.*)$"
)
"""``- 開発元: [[ByteDance]]``: the label starts at its first letter, so that no two quantifiers share
the spaces before it (a bullet of a long run of spaces took minutes to reject)."""
_BULLET_LINK = re.compile(r"^\s*[-*+]\s*\[\[")
_LINK_ITEM = re.compile(r"^\s*[-*+]\s*(?:\*\*)?(?:[^\[\]:：*]{1,40}[:：]\s*)?\[\[")
_TEXT_FIELDS = (
    "type",
    "title",
    "address",
    "role",
    "entity_tier",
    "created",
    "date",
    "date_published",
    "venue",
    "source_type",
    "entity_type",
    "publish",
)
"""The frontmatter fields a page reads as text (`_typed`)."""
_LIST_FIELDS = tuple(dict.fromkeys(("aliases", "alias", "key_claims", *LINK_KEYS)))
"""The frontmatter fields a page reads as lists (a text counts as a list of one, or of its commas)."""
MAX_PAGE_BYTES = 2 * 1024 * 1024
"""What is indexed of one file: its first 2 MiB (the longest page of a real wiki is a few hundred
KB). A larger file is cut there, with a warning naming it, so that whatever is pushed to the vault
the work of reading one page (splitting, links, names) stays bounded."""
MAX_NAME_CHARS = 200
"""Titles, aliases and headings are cut to this many characters: they are folded, compared and
looked up as names, and an H1 of megabytes must not be."""


@dataclass(frozen=True)
class Parsed:
    page: Page | None
    problems: tuple[str, ...] = ()


def parse_page(path: str, data: bytes, folder_type: str | None = None) -> Parsed:
    """Read one file's bytes as a page. ``folder_type`` is the type its folder implies."""
    problems: list[str] = []
    if len(data) > MAX_PAGE_BYTES:
        data = _cut_at_character(data, MAX_PAGE_BYTES)
        megabytes = MAX_PAGE_BYTES // 2**20
        problems.append(f"larger than {megabytes} MB: only its first {megabytes} MB are indexed")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        text = data.decode("utf-8", errors="replace")
        problems.append(f"invalid UTF-8 at byte {error.start}; undecodable bytes replaced")
    text = text.replace("\r\n", "\n").replace("\r", "\n").lstrip("\ufeff")
    if not text.strip():
        return Parsed(None, ("empty file",))
    split = split_frontmatter(text)
    if split.problem:
        problems.append(split.problem)
    meta, wrong = _typed(split.meta)
    problems.extend(wrong)
    body = strip_comments(split.body)
    body, flattened_title = unflatten(body)
    stem = unicodedata.normalize("NFC", path.rsplit("/", 1)[-1].rsplit(".", 1)[0])
    source_name = SOURCE_NAME.match(stem)
    intro, sections = split_sections(body)
    page_type = (
        text_value(meta, "type")
        or folder_type
        or (SOURCE if source_name else None)
        or _type_from_shape(sections)
    )
    h1 = _H1.search(intro)
    title = (
        text_value(meta, "title")
        or flattened_title
        or (h1.group(1).strip() if h1 else None)
        or (source_name.group(3) if source_name else stem)
    )
    if len(title) > MAX_NAME_CHARS:
        problems.append(f"title longer than {MAX_NAME_CHARS} characters; cut")
        title = _name(title)
    intro_text = _H1.sub("", intro, count=1) if h1 else intro
    all_sections = (Section("", intro_text.strip()), *sections) if intro_text.strip() else tuple(sections)
    year, venue = _year_and_venue(meta, source_name)
    page = Page(
        path=path,
        key=text_value(meta, "address") or path,
        type=page_type.casefold(),
        title=unicodedata.normalize("NFC", title),
        aliases=tuple(
            unicodedata.normalize("NFC", _name(a))
            for a in (*list_value(meta, "aliases"), *list_value(meta, "alias"))
        ),
        summary=summarize(page_type, meta, all_sections),
        role=text_value(meta, "role"),
        tier=(text_value(meta, "entity_tier") or "full").casefold(),
        created=text_value(meta, "created"),
        date=text_value(meta, "date"),
        ingested=text_value(meta, "ingested"),
        added=text_value(meta, "added"),
        year=year,
        venue=venue,
        source_type=text_value(meta, "source_type"),
        entity_type=text_value(meta, "entity_type"),
        publish=str(meta.get("publish", True)).casefold() not in {"false", "no", "0"},
        relations=tuple(_relations(meta, all_sections)),
        links=tuple(_links(meta, body)),
        sections=(
            *(Section(s.heading, plain_text(_prose_of(s))) for s in all_sections if _prose_of(s).strip()),
            *_properties(meta),
        ),
        blurb=_blurb(all_sections),
        companion_of=_companion_of(path, meta) if page_type.casefold() in COMPANION_TYPES else None,
    )
    return Parsed(page, tuple(problems))


def _typed(meta: dict[str, object]) -> tuple[dict[str, object], list[str]]:
    """The frontmatter with each field a page reads in the shape it is read in, and what was
    dropped: a text field holding a list or a mapping, a list field holding a mapping, and the
    items of a list field that are lists or mappings (an unquoted ``[[link]]`` is a list in YAML)."""
    typed = dict(meta)
    problems: list[str] = []
    for key in _TEXT_FIELDS:
        value = typed.get(key)
        if isinstance(value, list | dict):
            del typed[key]
            problems.append(f"frontmatter field '{key}' dropped: {_shape(value)} where text was expected")
    for key in _LIST_FIELDS:
        value = typed.get(key)
        if isinstance(value, dict):
            del typed[key]
            problems.append(f"frontmatter field '{key}' dropped: {_shape(value)} where a list was expected")
        elif isinstance(value, list) and any(isinstance(item, list | dict) for item in value):
            typed[key] = [item for item in value if not isinstance(item, list | dict)]
            problems.append(
                f"frontmatter field '{key}': items that are not text dropped (quote a link: \"[[…]]\")"
            )
    return typed, problems


def _shape(value: object) -> str:
    return "a list" if isinstance(value, list) else "a mapping"


def _cut_at_character(data: bytes, limit: int) -> bytes:
    """The first ``limit`` bytes or fewer, never cutting a UTF-8 character in two."""
    end = limit
    while end > limit - 3 and data[end] & 0xC0 == 0x80:  # a continuation byte: inside a character
        end -= 1
    return data[:end]


def _name(text: str) -> str:
    return text[:MAX_NAME_CHARS].rstrip() if len(text) > MAX_NAME_CHARS else text


def unflatten(body: str) -> tuple[str, str | None]:
    """Restore the structure of an export that lost its line breaks (the seed pages).

    ``# Title prose… ## 関連 - ソース: [[…]] / [[…]] - 概念: […]`` on one line becomes an H1
    line, a body, and a ``## 関連`` section with one relation per line. Returns the new body and
    the title when one was recovered from the flattened H1.
    """
    lines = [line for line in body.split("\n") if line.strip()]
    if not lines or len(lines) > 2 or not lines[0].startswith("# ") or " ## " not in strip_code(lines[0]):
        return body, None
    text = " ".join(lines)
    text = re.sub(r"\s+##\s+", "\n\n## ", text)
    text = re.sub(r"^(##\s+\S+)\s+", r"\1\n", text, flags=re.MULTILINE)
    text = _split_bullets(text)
    title = None
    if text.startswith("# "):
        first, _, rest = text.partition("\n")
        title, prose = _leading_name(first[2:])
        text = f"# {title}\n\n{prose}\n{rest}"
    return text, title


def _split_bullets(text: str) -> str:
    """Put each `` - `` bullet that starts a relation, a link or bold text on its own line."""
    out: list[str] = []
    depth = 0
    index = 0
    while index < len(text):
        if text.startswith("[[", index):
            depth += 1
        elif text.startswith("]]", index) and depth:
            depth -= 1
        after_sentence = index > 0 and text[index - 1] in "。）)"
        following = text[index + 3 : index + 50]
        if depth == 0 and text.startswith(" - ", index) and (after_sentence or _starts_bullet(following)):
            out.append("\n- ")
            index += 3
            continue
        out.append(text[index])
        index += 1
    return "".join(out)


def _starts_bullet(following: str) -> bool:
    return bool(re.match(r"(\[\[|\*\*|[^\s\[\]:：]{1,20}[:：]\s*\[\[)", following))


def _leading_name(h1: str) -> tuple[str, str]:
    """Split a flattened H1 into the page's name and the prose glued after it."""
    h1 = h1.strip()
    latin = re.match(r"[A-Za-z0-9][\w.&'’+\-]*(?:[ ][A-Za-z0-9(][\w.&'’+\-()]*){0,7}", h1)
    if latin and (len(h1) == latin.end() or not h1[latin.end()].isascii() or h1[latin.end()] == " "):
        name = latin.group().strip()
        rest = h1[latin.end() :].strip()
        if not rest or not rest[0].isascii():
            return name, rest
        words = name.split(" ")
        return words[0], " ".join([*words[1:], rest]).strip()
    name, _, rest = h1.partition(" ")
    return name, rest


def split_sections(body: str) -> tuple[str, list[Section]]:
    """Split on ``## `` headings outside code fences; ``###`` stays with its parent."""
    intro: list[str] = []
    sections: list[Section] = []
    heading: str | None = None
    buffer: list[str] = []
    in_fence = False
    for line in body.split("\n"):
        if _FENCE_LINE.match(line):
            in_fence = not in_fence
        match = None if in_fence else _SECTION_SPLIT.match(line)
        if match and not line.startswith("###"):
            if heading is None:
                intro = buffer
            else:
                sections.append(Section(heading, "\n".join(buffer).strip()))
            written = _name(match.group(1).strip())
            heading = LEGACY_HEADINGS.get(written, written)
            buffer = []
            continue
        buffer.append(line)
    if heading is None:
        return "\n".join(buffer), []
    sections.append(Section(heading, "\n".join(buffer).strip()))
    return "\n".join(intro), [_without_archives(s) for s in sections]


def _without_archives(section: Section) -> Section:
    """Drop ``> [!note]- 編纂前の観察`` callouts: observations already compiled elsewhere."""
    kept: list[str] = []
    skipping = False
    for line in section.text.split("\n"):
        callout = CALLOUT.match(line)
        if callout:
            skipping = ARCHIVE_CALLOUT in callout.group(3)
        elif not line.startswith(">"):
            skipping = False
        if not skipping:
            kept.append(line)
    return Section(section.heading, "\n".join(kept))


def _type_from_shape(sections: list[Section]) -> str:
    """A page with no type and no telling folder: concepts define, entities relate."""
    headings = {section.heading for section in sections}
    if DEFINITION_HEADING in headings:
        return CONCEPT
    if RELATIONS_HEADING in headings or RELATED_SOURCES_HEADING in headings:
        return ENTITY
    return NOTE


def _prose_of(section: Section) -> str:
    """The section's text without link-list items: in 関連/関連ソース/出典 those lines name other
    pages; indexed as this page's prose they made hubs outrank the pages they point to (measured
    in docs/benchmarks.md). Prose written there (a note appended at the end) stays."""
    if section.heading not in LINK_LIST_HEADINGS:
        return section.text
    return "\n".join(line for line in section.text.split("\n") if not _LINK_ITEM.match(line))


def _properties(meta: dict[str, object]) -> tuple[Section, ...]:
    """The frontmatter fields a person may ask about (author, source, url, dates, a description),
    one ``field: value`` line each, as a section of their own after the text."""
    lines = []
    for key, value in meta.items():
        if not isinstance(key, str) or key.casefold() in UNASKED_PROPERTIES:
            continue
        values = list_value(meta, key) if isinstance(value, list) else (text_value(meta, key) or "",)
        shown = ", ".join(plain_text(item) for item in values if item and not isinstance(item, dict))
        if shown.strip() and not shown.startswith("{"):
            lines.append(f"{key.replace('_', ' ')}: {shown}")
    return (Section(PROPERTIES_HEADING, "\n".join(lines)),) if lines else ()


def _year_and_venue(
    meta: dict[str, object], source_name: re.Match[str] | None
) -> tuple[int | None, str | None]:
    if source_name:
        return int(source_name.group(1)), source_name.group(2)
    published = text_value(meta, "date_published")
    year = int(published[:4]) if published and published[:4].isdecimal() and published[:4].isascii() else None
    return year, text_value(meta, "venue")


def _relations(meta: dict[str, object], sections: tuple[Section, ...]) -> list[Relation]:
    relations: list[Relation] = []
    for section in sections:
        if section.heading == RELATIONS_HEADING:
            relations.extend(_relation_lines(section.text))
        elif section.heading == RELATED_SOURCES_HEADING:
            links = tuple(link for link in find_links(section.text) if link.target.startswith("@"))
            if links:
                relations.append(Relation(SOURCE_LABEL, links))
    shown = {link.target for relation in relations for link in relation.links}
    sources = tuple(
        link for link in find_links_in_values(list_value(meta, "sources")) if link.target not in shown
    )
    if sources and text_value(meta, "type") != SOURCE:
        relations.append(Relation(SOURCE_LABEL, sources))
    related = tuple(
        link for link in find_links_in_values(list_value(meta, "related")) if link.target not in shown
    )
    if related:
        relations.append(Relation(RELATIONS_HEADING, related))
    return relations


def _relation_lines(text: str) -> list[Relation]:
    relations: list[Relation] = []
    for line in strip_code(text).split("\n"):
        labelled = _RELATION_LINE.match(line)
        if labelled and "[[" in labelled.group(2):
            links = tuple(find_links(labelled.group(2)))
            if links:
                relations.append(Relation(labelled.group(1).strip(), links))
        elif _BULLET_LINK.match(line):
            links = tuple(find_links(line))
            if links:
                relations.append(Relation(RELATIONS_HEADING, links))
    return relations


def _links(meta: dict[str, object], body: str) -> list[Link]:
    found = list(find_links(body))
    for key in LINK_KEYS:
        found.extend(find_links_in_values(list_value(meta, key)))
    return found


def _companion_of(path: str, meta: dict[str, object]) -> str:
    """The source an ask or brief accompanies: its path-qualified ``sources:`` link, else its own
    path with ``sources`` for the companion folder (``wiki/briefs/x/@A.md`` → ``wiki/sources/x/@A.md``).
    The digest resolves it against the pages, so a source filed elsewhere is found by its name."""
    for link in find_links_in_values(list_value(meta, "sources")):
        if "/" in link.target:
            return link.target + ".md"
    parts = path.split("/")
    for index, part in enumerate(parts[:-1]):
        if FOLDER_TYPES.get(part.casefold()) in COMPANION_TYPES:
            return "/".join([*parts[:index], SOURCES_DIR, *parts[index + 1 :]])
    return "/".join([*parts[:-2], SOURCES_DIR, parts[-1]]) if len(parts) >= 2 else path


def _blurb(sections: tuple[Section, ...]) -> str | None:
    for section in sections:
        if section.heading == BLURB_HEADING and section.text.strip():
            return blurb_text(section.text) or None
    return None
