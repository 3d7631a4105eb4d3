"""What is new on a day: the pages the wiki gained on day D, by the wiki's own signals.

A page counts on exactly one day, the first of these that dates it (docs/digest.md):

1. ``log``: the earliest log entry that lists it as created (`index.reading.wiki_log`, every variant);
2. ``frontmatter:<field>``: its ``created``, ``ingested``, ``date`` or ``added`` field, by the time
   zone rule of `index.reading.dates` (``date:`` is the harness's JST timestamp; an event's ``date`` says
   when it happened and is not read);
3. ``log`` again: the harness's ingest entry naming it on its ``Summary:`` line, read after the
   page's own dates because a re-ingest of an old source is logged again;
4. ``git``: the first-parent commit that added the file, for a vault in git (the edge reads git and
   hands its answer in: `GitAdditions`);
5. ``first_seen``: when the index first saw the file.

A page moved or renamed keeps its day: the log names it as created once, its dates move with it,
git follows the rename, and the index carries its first sighting over (`index.indexer`).

The digest announces the new sources when the wiki has source pages, else the new knowledge pages
(with the few the log says it updated that day); a day with more than ``max_items`` of them is
summarised. Everything here is pure: the facade passes the catalog's rows, the log's entries and its
own lookups in, and nothing reads a page that is not new that day.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime, time, timedelta, tzinfo
from typing import Protocol
from zoneinfo import ZoneInfo

from index.catalog.graph import is_knowledge
from index.catalog.reader import Dated
from index.model import Digest, DigestItem, DigestSummary, GitAdditions, NewPage, Page, PageRef
from index.reading.dates import day_in, parse_day, parse_moment
from index.reading.format import BRIEF, CITING_TYPES, DATE_FIELDS, HAPPENED_TYPES, SOURCE
from index.reading.vault import PLAIN, WIKI, top_folder
from index.reading.wiki_log import LogEntry

WIKI_ZONE = ZoneInfo("Asia/Tokyo")
"""The wiki's writers record ``date:`` (ingest time) in JST (wiki-format §3)."""
MAX_ITEMS = 25
"""A day with more new items than this is summarised (``DIGEST_MAX_ITEMS``)."""
UPDATES_SHOWN = 5
MOST_LINKED = 10
LOG, GIT, FIRST_SEEN = "log", "git", "first_seen"


@dataclass(frozen=True, slots=True)
class Birth:
    """The day a page counts as new, and the signal that said so (``None``: nothing dates it, or
    ``git`` with no day: it was in the repository before the day asked about)."""

    day: date | None
    by: str | None


@dataclass(frozen=True)
class Signals:
    """What the log (and git) say about pages, read once per digest."""

    created: Mapping[str, date] = field(default_factory=dict)
    ingested: Mapping[str, date] = field(default_factory=dict)
    updated: Mapping[date, tuple[str, ...]] = field(default_factory=dict)
    git: GitAdditions | None = None


def birth_field(page: Page) -> tuple[str, str] | None:
    """The first of `DATE_FIELDS` that holds a date (``YYYY-MM-DD``, with or without a time), and
    its value (kept in the catalog, which finds a day's pages by the date it starts with)."""
    for name in DATE_FIELDS:
        if name == "date" and page.type in HAPPENED_TYPES:
            continue
        value = getattr(page, name)
        if value and parse_day(value) and field_day(name, value, WIKI_ZONE) is not None:
            return name, value
    return None


def field_day(name: str, value: str, zone: tzinfo) -> date | None:
    """The day a frontmatter date field says, in ``zone``: ``date:`` is a JST timestamp (a plain
    date is midnight in Tokyo); the other fields follow `index.reading.dates.day_in`."""
    if name != "date":
        return day_in(value, zone)
    moment = parse_moment(value, WIKI_ZONE)
    return moment.astimezone(zone).date() if moment else None


def dated(page: Page, first_seen: str | None = None) -> Dated:
    """A page as the catalog keeps it for the digest."""
    born = birth_field(page)
    return Dated(
        page.path,
        page.title,
        page.type,
        is_knowledge(page),
        born[0] if born else None,
        born[1] if born else None,
        first_seen,
        page.companion_of,
    )


def read_signals(
    entries: Iterable[LogEntry],
    resolve: Callable[[str], str | None],
    zone: tzinfo,
    git: GitAdditions | None = None,
) -> Signals:
    """Page path → the first day the log lists it as created (and, for the harness, as an ingest's
    summary); day → the pages the log lists as updated that day."""
    created: dict[str, date] = {}
    ingested: dict[str, date] = {}
    updated: dict[date, list[str]] = {}
    resolved: dict[str, str | None] = {}

    def paths(targets: Iterable[str]) -> Iterable[str]:
        for target in targets:
            if target not in resolved:
                resolved[target] = resolve(target)
            path = resolved[target]
            if path:
                yield path

    for entry in entries:
        day = day_in(entry.when, zone)
        if day is None:
            continue
        for path in paths(entry.created):
            if path not in created or day < created[path]:
                created[path] = day
        if entry.is_ingest:
            for path in paths(entry.source_targets):
                if path not in ingested or day < ingested[path]:
                    ingested[path] = day
        for path in paths(entry.updated):
            updated.setdefault(day, []).append(path)
    return Signals(
        created, ingested, {day: tuple(dict.fromkeys(found)) for day, found in updated.items()}, git
    )


def birth(row: Dated, zone: tzinfo, signals: Signals, day: date) -> Birth:
    """The day ``row`` counts as new (see the module's list); ``day``: the day asked about, which
    git's "it was already there" answers only for days after its history begins."""
    logged = signals.created.get(row.path)
    if logged:
        return Birth(logged, LOG)
    if row.field and row.value:
        found = field_day(row.field, row.value, zone)
        if found:
            return Birth(found, f"frontmatter:{row.field}")
    ingested = signals.ingested.get(row.path)
    if ingested:
        return Birth(ingested, LOG)
    git = signals.git
    if git is not None and row.path in git.tracked:
        added = day_in(git.added.get(row.path), zone)
        if added:
            return Birth(added, GIT)
        since = parse_moment(git.known_since, zone)
        if row.path not in git.added and since is not None and since <= datetime.combine(day, time(), zone):
            return Birth(None, GIT)
    seen = day_in(row.first_seen, zone)
    return Birth(seen, FIRST_SEEN) if seen else Birth(None, None)


def new_on(rows: Iterable[Dated], signals: Signals, day: date, zone: tzinfo) -> list[tuple[Dated, Birth]]:
    """The knowledge pages new on ``day``, with what dated each."""
    found = []
    for row in rows:
        if not row.knowledge or _hidden(row.path):
            continue
        born = birth(row, zone, signals, day)
        if born.day == day:
            found.append((row, born))
    return found


class DigestPages(Protocol):
    """What the digest reads of the catalog (`index.catalog.reader.CatalogRows` answers it)."""

    def dated_candidates(self, low: str, high: str, paths: Iterable[str]) -> list[Dated]:
        """The pages dated between ``low`` and ``high`` (ISO dates), or among ``paths``."""
        ...

    def dated_of(self, paths: Iterable[str]) -> list[Dated]: ...

    def dated_of_type(self, kind: str) -> list[Dated]: ...

    def has_type(self, kind: str) -> bool: ...

    def link_counts(self, paths: Iterable[str]) -> dict[str, int]: ...


def compose_digest(
    pages: DigestPages,
    log: Sequence[LogEntry],
    day: date,
    *,
    read: Callable[[str], Page | None],
    resolve: Callable[[str], str | None],
    cited_by: Callable[[str], tuple[PageRef, ...]],
    url_for: Callable[[str], str | None],
    git: GitAdditions | None = None,
    zone: tzinfo = WIKI_ZONE,
    include_unpublished: bool = False,
    max_items: int = MAX_ITEMS,
) -> Digest:
    """The digest of ``day`` (a calendar day in ``zone``).

    ``pages``: the catalog's dated rows; ``log``: the log's entries (`index.reading.wiki_log`); ``read(path)``
    the page itself (only new sources and their briefs are read); ``resolve`` turns a log link target
    into a page path; ``cited_by`` lists the pages linking to a source (entities and concepts are
    kept); ``url_for`` gives a page's web link.
    """
    signals = read_signals(log, resolve, zone, git)
    named = [path for found in (signals.created, signals.ingested) for path, on in found.items() if on == day]
    if git is not None:
        named += [path for path, when in git.added.items() if day_in(when, zone) == day]
    window = ((day - timedelta(days=1)).isoformat(), (day + timedelta(days=1)).isoformat())
    new = new_on(pages.dated_candidates(*window, named), signals, day, zone)
    sources = [page for row, _ in new if row.type == SOURCE and (page := read(row.path)) is not None]
    chosen: dict[str, Page] = {}
    for page in sorted(sources, key=_order_key):
        if include_unpublished or page.publish:
            chosen.setdefault(page.key, page)
    kept = {page.path for page in chosen.values()}
    briefs = _briefs_for(pages.dated_of_type(BRIEF), chosen.values(), resolve, read) if chosen else []
    blurbs = _blurbs([*chosen.values(), *briefs], resolve)
    items = tuple(_item(page, blurbs, cited_by, url_for) for page in chosen.values())
    listed = tuple(
        NewPage(row.path, row.title, row.type, born.by or FIRST_SEEN, _folder(row.path), url_for(row.path))
        for row, born in sorted(new, key=lambda found: _page_order(found[0]))
        if row.type != SOURCE or row.path in kept
    )
    announces = SOURCE if pages.has_type(SOURCE) else "page"
    digest = Digest(date=day.isoformat(), items=items, pages=listed, announces=announces)
    if announces != SOURCE:
        updated = signals.updated.get(day, ())
        digest = _with_updates(digest, updated, pages.dated_of(updated), url_for)
    if digest.count > max_items:
        digest = _summarised(digest, pages.link_counts, url_for)
    return digest


def _with_updates(
    digest: Digest, updated: Sequence[str], rows: Sequence[Dated], url_for: Callable[[str], str | None]
) -> Digest:
    """The pages the log lists as updated that day, other than the day's new ones (the first
    `UPDATES_SHOWN`, and how many there were)."""
    new = {page.path for page in digest.pages}
    known = {row.path: row for row in rows if row.knowledge}
    refs = [
        PageRef(known[path].title, path, known[path].type, url_for(path))
        for path in updated
        if path in known and path not in new
    ]
    return Digest(
        digest.date,
        digest.items,
        digest.pages,
        digest.announces,
        tuple(refs[:UPDATES_SHOWN]),
        len(refs),
    )


def _summarised(
    digest: Digest,
    link_counts: Callable[[Iterable[str]], Mapping[str, int]],
    url_for: Callable[[str], str | None],
) -> Digest:
    """A big day's digest: how many per group and per folder, and the ten most linked."""
    folders = {page.path: page.folder for page in digest.pages}
    if digest.announces == SOURCE:
        listed = [(item.path, item.title, SOURCE, item.source_type or SOURCE) for item in digest.items]
    else:
        listed = [(page.path, page.title, page.type, page.type) for page in digest.pages]
    counts = link_counts([path for path, *_ in listed])
    ranked = sorted(listed, key=lambda item: (-counts.get(item[0], 0), item[1].casefold(), item[0]))
    summary = DigestSummary(
        new=len(listed),
        by_type=_counted(group for *_, group in listed),
        by_folder=_counted(folders.get(path) or _folder(path) for path, *_ in listed),
        most_linked=tuple(
            PageRef(title, path, kind, url_for(path)) for path, title, kind, _ in ranked[:MOST_LINKED]
        ),
    )
    return Digest(
        digest.date,
        digest.items,
        digest.pages,
        digest.announces,
        digest.updated,
        digest.updated_total,
        summary,
    )


def _counted(values: Iterable[str]) -> tuple[tuple[str, int], ...]:
    return tuple(sorted(Counter(values).items(), key=lambda item: (-item[1], item[0])))


def _briefs_for(
    rows: Sequence[Dated],
    sources: Iterable[Page],
    resolve: Callable[[str], str | None],
    read: Callable[[str], Page | None],
) -> list[Page]:
    """The briefs that may introduce one of ``sources``: named like it, its companion, or linked
    from it (only those are read)."""
    paths = {page.path for page in sources}
    if not paths:
        return []
    stems = {page.stem for page in sources}
    linked = {link.target.lstrip("/") for page in sources for link in page.links}
    briefs = []
    for row in rows:
        if row.type != BRIEF:
            continue
        stem = row.path.rsplit("/", 1)[-1].removesuffix(".md")
        companion = resolve(row.companion) if row.companion else None
        if stem in stems or companion in paths or row.path.removesuffix(".md") in linked:
            page = read(row.path)
            if page is not None:
                briefs.append(page)
    return briefs


def _folder(path: str) -> str:
    return top_folder(path, WIKI if path.startswith("wiki/") else PLAIN)


def _page_order(row: Dated) -> tuple:
    return (row.type != SOURCE, row.type, row.title.casefold(), row.path)


def _hidden(path: str) -> bool:
    return path.rsplit("/", 1)[-1].startswith("_")


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


def _moment(page: Page, zone: tzinfo, first_seen: Callable[[str], str | None]) -> datetime | None:
    """When the source was added, as precisely as the page says (for newest-first lists)."""
    moment = parse_moment(page.date, WIKI_ZONE) or parse_moment(page.created, WIKI_ZONE)
    return moment or parse_moment(first_seen(page.path), zone)


def _order_key(page: Page) -> tuple:
    """By ``date:``; sources without one go last, by title."""
    moment = parse_moment(page.date, WIKI_ZONE)
    return (moment is None, moment.timestamp() if moment else 0.0, page.title.casefold(), page.path)


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
