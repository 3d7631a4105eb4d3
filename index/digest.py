"""What is new on a day: the sources added to the wiki on day D (wiki-format §7).

A source is new on D when its ``created`` date is D (else the day of its ``date:``, else the day
``wiki/log.md`` records it as ingested, else the day the indexer first saw it). Pages only updated
on D, ``wiki-query`` entries, briefs and catalogs are not new sources. Everything here is pure: the
facade passes the pages, the log text and its own lookups in.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import date, datetime, time, tzinfo
from zoneinfo import ZoneInfo

from index.model import Digest, DigestItem, Page, PageRef
from index.reading.format import BRIEF, CITING_TYPES, SOURCE
from index.reading.wikilinks import find_links

WIKI_ZONE = ZoneInfo("Asia/Tokyo")
"""The wiki's writers record ``date:`` (ingest time) in JST (wiki-format §3)."""

_HEADING = re.compile(r"^##\s*\[(\d{4}-\d{2}-\d{2})\]\s*([^|]+?)\s*\|\s*(.+?)\s*$")
_FIELD = re.compile(r"^[-*]\s*([^:：\[\]]+?)\s*[:：]\s*(.*)$")
_DAY = re.compile(r"(\d{4})-(\d{2})-(\d{2})")
_MOMENT = re.compile(r"(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{1,2}):(\d{2})(?::(\d{2}))?)?")


@dataclass(frozen=True)
class LogEntry:
    """One ``## [YYYY-MM-DD] op | title`` entry of ``wiki/log.md``."""

    day: str
    op: str
    title: str
    summary: tuple[str, ...] = ()
    """Link targets on the ``- Summary:`` line."""
    created: tuple[str, ...] = ()
    """Link targets listed under ``- Pages created:`` (sources and others)."""

    @property
    def is_ingest(self) -> bool:
        return self.op.startswith("ingest")

    @property
    def source_targets(self) -> tuple[str, ...]:
        """The sources this entry says were added: its summary and the ``@`` pages it created."""
        created = tuple(target for target in self.created if _is_source_target(target))
        return _unique((*self.summary, *created))


def parse_log(text: str) -> tuple[LogEntry, ...]:
    """Every entry of a log.md, in file order; preambles, other headings and junk are skipped.

    An entry's body runs to the next ``## `` line. A field (``- Key: value``) continues over the
    indented or non-bullet lines below it, so block-style ``Pages created:`` lists are read too.
    """
    entries: list[LogEntry] = []
    heading: re.Match[str] | None = None
    body: list[str] = []
    for line in unicodedata.normalize("NFC", text.lstrip("\ufeff")).splitlines():
        if line.startswith("##") and not line.startswith("###"):
            if heading:
                entries.append(_entry(heading, body))
            heading, body = _HEADING.match(line), []
        elif heading:
            body.append(line)
    if heading:
        entries.append(_entry(heading, body))
    return tuple(entries)


def _entry(heading: re.Match[str], body: list[str]) -> LogEntry:
    fields = _fields(body)
    return LogEntry(
        day=heading.group(1),
        op=heading.group(2).strip().casefold(),
        title=heading.group(3),
        summary=_targets(fields.get("summary", "")),
        created=_targets(fields.get("pages created", "")),
    )


def _fields(body: list[str]) -> dict[str, str]:
    fields: dict[str, str] = {}
    name: str | None = None
    for line in body:
        match = _FIELD.match(line) if line[:1] in "-*" else None
        if match:
            name = match.group(1).strip().casefold()
            fields[name] = fields.get(name, "") + " " + match.group(2)
        elif name and line.strip():
            fields[name] += " " + line.strip()
    return fields


def _targets(text: str) -> tuple[str, ...]:
    return _unique(link.target for link in find_links(text))


def _is_source_target(target: str) -> bool:
    return target.rsplit("/", 1)[-1].startswith("@")


def _unique(values: Iterable[str]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(values))


def find_new_sources(
    pages: Sequence[Page],
    log_text: str,
    day: date,
    *,
    first_seen: Callable[[str], str | None],
    resolve: Callable[[str], str | None],
    cited_by: Callable[[str], tuple[PageRef, ...]],
    url_for: Callable[[str], str | None],
    zone: tzinfo = WIKI_ZONE,
    include_unpublished: bool = False,
) -> Digest:
    """The sources new on ``day`` (a calendar day in ``zone``), ordered by their ``date:``.

    ``first_seen(path)`` gives the ISO date (or timestamp) the indexer first saw a page;
    ``resolve`` turns a log link target into a page path; ``cited_by(path)`` lists the pages
    linking to a source (only entities and concepts are kept); ``url_for(path)`` gives the page's
    web link or None. Each source belongs to exactly one day (see ``source_day``), so a source is
    never announced twice and a re-ingest logged on a later day (an update) is not new again.
    """
    logged = logged_days(parse_log(log_text), resolve)
    candidates = [
        page
        for page in pages
        if _is_source(page)
        and (include_unpublished or page.publish)
        and source_day(page, zone, first_seen, logged.get(page.path)) == day
    ]
    candidates.sort(key=_order_key)
    chosen: dict[str, Page] = {}
    for page in candidates:
        chosen.setdefault(page.key, page)
    blurbs = _blurbs(pages, resolve)
    items = tuple(_item(page, blurbs, cited_by, url_for) for page in chosen.values())
    return Digest(date=day.isoformat(), items=items)


def logged_days(entries: Iterable[LogEntry], resolve: Callable[[str], str | None]) -> dict[str, date]:
    """Page path → the first day an ingest entry of the log records it as added."""
    days: dict[str, date] = {}
    for entry in entries:
        entry_day = _parse_day(entry.day)
        if not entry.is_ingest or entry_day is None:
            continue
        for target in entry.source_targets:
            path = resolve(target)
            if path and (path not in days or entry_day < days[path]):
                days[path] = entry_day
    return days


def recent_sources(
    pages: Sequence[Page],
    limit: int,
    *,
    first_seen: Callable[[str], str | None],
    resolve: Callable[[str], str | None],
    cited_by: Callable[[str], tuple[PageRef, ...]],
    url_for: Callable[[str], str | None],
    zone: tzinfo = WIKI_ZONE,
    include_unpublished: bool = False,
) -> tuple[DigestItem, ...]:
    """The ``limit`` most recently added sources, newest first (for the App Home tab)."""
    sources = [page for page in pages if _is_source(page) and (include_unpublished or page.publish)]
    undated = datetime.min.replace(tzinfo=zone)
    sources.sort(key=lambda page: _moment(page, zone, first_seen) or undated, reverse=True)
    blurbs = _blurbs(pages, resolve)
    return tuple(_item(page, blurbs, cited_by, url_for) for page in sources[: max(limit, 0)])


def source_day(
    page: Page, zone: tzinfo, first_seen: Callable[[str], str | None], logged: date | None = None
) -> date | None:
    """The one day a source counts as added, in ``zone``.

    In order: ``created`` (a plain calendar date, taken as written); the day of ``date:`` (a JST
    timestamp, converted to ``zone``: the same ingest is the 14th in Tokyo but may be the 13th in
    UTC); the day log.md records its ingest (``logged``); the day the indexer first saw it.
    The page's own dates win over the log because log entries are never edited and a re-ingest of
    an old source is logged again: the source was updated that day, not added.
    """
    created = _parse_day(page.created)
    if created:
        return created
    moment = _parse_moment(page.date, WIKI_ZONE)
    if moment:
        return moment.astimezone(zone).date()
    if logged:
        return logged
    seen = _parse_moment(first_seen(page.path), zone)
    return seen.astimezone(zone).date() if seen else None


def _moment(page: Page, zone: tzinfo, first_seen: Callable[[str], str | None]) -> datetime | None:
    """When the source was added, as precisely as the page says (for newest-first lists)."""
    moment = _parse_moment(page.date, WIKI_ZONE) or _parse_moment(page.created, WIKI_ZONE)
    return moment or _parse_moment(first_seen(page.path), zone)


def _order_key(page: Page) -> tuple:
    """By ``date:``; sources without one go last, by title."""
    moment = _parse_moment(page.date, WIKI_ZONE)
    return (moment is None, moment.timestamp() if moment else 0.0, page.title.casefold(), page.path)


def _parse_day(value: str | None) -> date | None:
    match = _DAY.match(value.strip()) if value else None
    if not match:
        return None
    try:
        return date(int(match.group(1)), int(match.group(2)), int(match.group(3)))
    except ValueError:
        return None


def _parse_moment(value: str | None, naive_zone: tzinfo) -> datetime | None:
    """A date or timestamp string as an aware datetime; naive values are read in ``naive_zone``."""
    if not value or not value.strip():
        return None
    text = value.strip()
    try:
        parsed = datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        match = _MOMENT.match(text)
        day = _parse_day(text)
        if not match or not day:
            return None
        hour, minute, second = (int(group or 0) for group in match.groups()[3:])
        try:
            parsed = datetime.combine(day, time(hour, minute, second))
        except ValueError:
            parsed = datetime.combine(day, time())
    return parsed if parsed.tzinfo else parsed.replace(tzinfo=naive_zone)


def _is_source(page: Page) -> bool:
    return page.type == SOURCE and not page.stem.startswith("_")


def _blurbs(pages: Sequence[Page], resolve: Callable[[str], str | None]) -> dict[str, str]:
    """Source path → the ``## 紹介文`` of its brief: the brief's ``companion_of`` resolved like a link
    (a source nested or moved elsewhere is found by its name), else a brief the source links to."""
    briefs = {page.path.removesuffix(".md"): page for page in pages if page.type == BRIEF and page.blurb}
    blurbs: dict[str, str] = {}
    for brief in briefs.values():
        source = resolve(brief.companion_of) if brief.companion_of else None
        if source and brief.blurb:
            blurbs.setdefault(source, brief.blurb)
    for page in pages:
        if page.type != SOURCE or page.path in blurbs:
            continue
        for link in page.links:
            brief = briefs.get(link.target.lstrip("/"))
            if brief and brief.blurb:
                blurbs[page.path] = brief.blurb
                break
    return blurbs


def _item(
    page: Page,
    blurbs: dict[str, str],
    cited_by: Callable[[str], tuple[PageRef, ...]],
    url_for: Callable[[str], str | None],
) -> DigestItem:
    citing = {ref.path: ref for ref in cited_by(page.path) if ref.path and ref.type in CITING_TYPES}
    return DigestItem(
        path=page.path,
        title=page.title,
        venue=page.venue,
        year=page.year,
        summary=(blurbs.get(page.path) or page.summary or "").strip(),
        cited_by=tuple(citing.values()),
        source_type=page.source_type,
        url=url_for(page.path),
        date=page.date or page.created,
    )
