"""What is new on a day: the log parser and the digest rules, table-driven over plain pages."""

from __future__ import annotations

from datetime import date
from zoneinfo import ZoneInfo

import pytest

from index.catalog.reader import Dated
from index.digest import (
    Signals,
    birth,
    compose_digest,
    dated,
    recent_sources,
)
from index.model import Digest, Link, Page, PageRef
from index.reading.wiki_log import LogEntry, parse_log
from index.reading.wikilinks import LinkResolver

TOKYO = ZoneInfo("Asia/Tokyo")
UTC = ZoneInfo("UTC")

LOG_ONE = """## [2026-10-14] ingest-paper | Example Scheduler
- Source: `.raw/papers/arxiv-2510.00001.pdf`
- Summary: [[@2025__arXiv__Example Scheduler]]
- Pages created: [[Jane Doe]], [[@2024__NSDI__Companion Paper]], [[KVキャッシュ管理]]
- Pages updated: [[ByteDance]], [[@2023__SOSP__Old Paper]]
- Key insight: 一文。
"""


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        pytest.param(
            LOG_ONE,
            [
                LogEntry(
                    "2026-10-14",
                    "ingest-paper",
                    "Example Scheduler",
                    ("@2025__arXiv__Example Scheduler",),
                    ("Jane Doe", "@2024__NSDI__Companion Paper", "KVキャッシュ管理"),
                    ("ByteDance", "@2023__SOSP__Old Paper"),
                )
            ],
            id="harness-entry",
        ),
        pytest.param(
            "---\ntype: meta\ntitle: Log\n---\n# Log\n\n"
            "## [2026-10-14] wiki-query | Minder を開発したのは?\n- Question: Minder を開発したのは?\n"
            "- Pages created: [[wiki/questions/Minder の開発元]]\n"
            "## [2026-10-13] ingest | batch (2 sources)\n- Summary: [[@A]], [[wiki/sources/@B|B]]\n",
            [
                LogEntry(
                    "2026-10-14",
                    "wiki-query",
                    "Minder を開発したのは?",
                    (),
                    ("wiki/questions/Minder の開発元",),
                ),
                LogEntry("2026-10-13", "ingest", "batch (2 sources)", ("@A", "wiki/sources/@B"), ()),
            ],
            id="preamble-query-and-batch",
        ),
        pytest.param(
            "## [2026-10-14] ingest-book | 本\n- Summary: [[@Book - Chapter 1 序]]\n- Pages created:\n"
            "  - [[@Book - Chapter 2 本論]]\n  - [[著者]]\n- Book entity: [[Book]]\n"
            "### a sub-heading stays in the entry\n- Pages created: [[@Book - Chapter 3 結]]\n",
            [
                LogEntry(
                    "2026-10-14",
                    "ingest-book",
                    "本",
                    ("@Book - Chapter 1 序",),
                    ("@Book - Chapter 2 本論", "著者", "@Book - Chapter 3 結"),
                )
            ],
            id="block-list-and-subheading",
        ),
        pytest.param(
            "\ufeff## [2026-10-14] INGEST-Paper | X\r\n- Summary: `[[@InCode]]` [[@Real#^block|disp]]\r\n"
            "## not an entry | no date\r\n- Summary: [[@Stray]]\r\n"
            "##[2026-10-12]save|Y\n- Summary: [[@Z]]\n",
            [
                LogEntry("2026-10-14", "ingest-paper", "X", ("@Real",), ()),
                LogEntry("2026-10-12", "save", "Y", ("@Z",), ()),
            ],
            id="bom-crlf-code-fragment-junk-heading",
        ),
        pytest.param("", [], id="empty"),
        pytest.param("# Log\n\nnothing yet\n", [], id="no-entries"),
    ],
)
def test_parse_log(text: str, expected: list[LogEntry]) -> None:
    assert list(parse_log(text)) == expected


@pytest.mark.parametrize(
    ("entry", "is_ingest", "sources"),
    [
        (
            LogEntry("2026-10-14", "ingest-paper", "t", ("@A",), ("X", "@B", "wiki/sources/@C")),
            True,
            ("@A", "@B", "wiki/sources/@C"),
        ),
        (LogEntry("2026-10-14", "ingest", "t", ("@A",), ("@A",)), True, ("@A",)),
        (LogEntry("2026-10-14", "wiki-query", "t", (), ("wiki/questions/Q",)), False, ()),
        (LogEntry("2026-10-14", "save", "t", ("@A",), ()), False, ("@A",)),
    ],
)
def test_log_entry_sources(entry: LogEntry, is_ingest: bool, sources: tuple[str, ...]) -> None:
    assert entry.is_ingest is is_ingest
    assert entry.source_targets == sources


def source(stem: str, *, created: str | None = None, date_: str | None = None, **fields: object) -> Page:
    path = f"wiki/sources/{stem}.md"
    defaults: dict[str, object] = {
        "key": fields.pop("address", path),
        "type": "source",
        "title": stem.lstrip("@"),
    }
    return Page(path=path, created=created, date=date_, **{**defaults, **fields})


def page(path: str, type_: str, **fields: object) -> Page:
    title = path.rsplit("/", 1)[-1].removesuffix(".md")
    return Page(path=path, key=path, type=type_, title=title, **fields)


PAGES = (
    source("@A", created="2026-10-14", date_="2026-10-14 10:00", address="c-1", summary="A の要約"),
    source("@B", created="2026-10-14", date_="2026-10-14 09:00", address="c-2", summary="B の要約"),
    source("@C", created="2026-10-10", date_="2026-10-10 12:00", summary="only updated on the 14th"),
    source("@D", date_="2026-10-14 08:30", summary="no created; 08:30 JST is 23:30 UTC on the 13th"),
    source("@E", summary="no date at all"),
    source("@F", created="2026-10-13", date_="2026-10-13 23:50", summary="logged as ingested on the 14th"),
    source("@G - Chapter 1 序", created="2026-10-14", date_="2026-10-14 11:00", publish=False),
    source("@A copy", created="2026-10-14", date_="2026-10-14 12:00", address="c-1"),
    source("_index", created="2026-10-14"),
    page(
        "wiki/briefs/@A.md",
        "brief",
        created="2026-10-14",
        blurb="• 紹介: A は速い",
        companion_of="wiki/sources/@A.md",
    ),
    page("wiki/questions/Q.md", "question", created="2026-10-14"),
    page("wiki/entities/Jane Doe.md", "entity", created="2026-10-14"),
)

LOG = """## [2026-10-14] wiki-query | C について
- Question: C は?
- Summary: [[@C]]
- Pages created: [[wiki/questions/Q]]
## [2026-10-14] ingest-paper | F
- Summary: [[@F]]
- Pages created: [[Jane Doe]]
- Pages updated: [[@C]]
## [2026-10-14] ingest | stale link
- Summary: [[@Deleted Long Ago]]
## [2026-10-12] ingest-paper | C again
- Summary: [[@C]]
"""

FIRST_SEEN = {"wiki/sources/@E.md": "2026-10-14"}


class Dates:
    """The dated rows of plain pages, as the catalog answers the digest (every row a candidate)."""

    def __init__(self, rows: list[Dated]) -> None:
        self.rows = rows

    def dated_candidates(self, low: str, high: str, paths) -> list[Dated]:
        return self.rows

    def dated_of(self, paths) -> list[Dated]:
        wanted = set(paths)
        return [row for row in self.rows if row.path in wanted]

    def dated_of_type(self, kind: str) -> list[Dated]:
        return [row for row in self.rows if row.type == kind]

    def has_type(self, kind: str) -> bool:
        return any(row.type == kind and row.knowledge for row in self.rows)

    def link_counts(self, paths) -> dict[str, int]:
        return {}


def digest_of(pages, log: str, day: date, *, seen=None, cited_by=None, url_for=None, **options) -> Digest:
    """The digest of plain pages, as the catalog would hand them to the domain."""
    resolver = LinkResolver((p.path, p.title, p.aliases) for p in pages)
    by_path = {page.path: page for page in pages}
    first_seen = seen if seen is not None else FIRST_SEEN
    return compose_digest(
        Dates([dated(page, first_seen.get(page.path)) for page in pages]),
        parse_log(log),
        day,
        read=by_path.get,
        resolve=resolver.resolve,
        cited_by=cited_by or (lambda path: ()),
        url_for=url_for or (lambda path: None),
        **options,
    )


def digest_paths(
    day: date, zone: ZoneInfo = TOKYO, *, include_unpublished: bool = False, pages=PAGES, log=LOG, seen=None
) -> list[str]:
    digest = digest_of(pages, log, day, seen=seen, zone=zone, include_unpublished=include_unpublished)
    assert digest.date == day.isoformat()
    return [item.path.removeprefix("wiki/sources/").removesuffix(".md") for item in digest.items]


@pytest.mark.parametrize(
    ("day", "zone", "include_unpublished", "expected"),
    [
        pytest.param(date(2026, 10, 14), TOKYO, False, ["@D", "@B", "@A", "@E"], id="tokyo-14th"),
        pytest.param(
            date(2026, 10, 14), TOKYO, True, ["@D", "@B", "@A", "@G - Chapter 1 序", "@E"], id="unpublished"
        ),
        pytest.param(date(2026, 10, 13), TOKYO, False, ["@F"], id="tokyo-13th"),
        pytest.param(date(2026, 10, 13), UTC, False, ["@F", "@D"], id="utc-13th-gets-the-jst-morning"),
        pytest.param(date(2026, 10, 14), UTC, False, ["@B", "@A", "@E"], id="utc-14th"),
        pytest.param(date(2026, 10, 12), TOKYO, False, [], id="re-logged-old-source"),
        pytest.param(date(2026, 10, 10), TOKYO, False, ["@C"], id="created-day-of-updated-page"),
        pytest.param(date(2026, 10, 15), TOKYO, False, [], id="empty-day"),
    ],
)
def test_new_sources_per_day(
    day: date, zone: ZoneInfo, include_unpublished: bool, expected: list[str]
) -> None:
    assert digest_paths(day, zone, include_unpublished=include_unpublished) == expected


def test_page_dates_win_over_a_later_log_entry() -> None:
    assert "@F" not in digest_paths(date(2026, 10, 14))
    assert "@F" in digest_paths(date(2026, 10, 13))


@pytest.mark.parametrize(
    ("log", "expected_day"),
    [
        ("## [2026-10-14] ingest-paper | U\n- Summary: [[@U]]\n", date(2026, 10, 14)),
        (
            "## [2026-10-14] ingest | batch\n- Pages created: [[X]], [[wiki/sources/@U|U]]\n",
            date(2026, 10, 14),
        ),
        (
            "## [2026-10-16] ingest | again\n- Summary: [[@U]]\n"
            "## [2026-10-13] ingest | U\n- Summary: [[@U]]\n",
            date(2026, 10, 13),
        ),
        ("## [2026-10-14] wiki-query | U\n- Summary: [[@U]]\n", date(2026, 10, 15)),
        ("## [2026-10-14] ingest | U\n- Pages updated: [[@U]]\n", date(2026, 10, 15)),
        ("", date(2026, 10, 15)),
    ],
)
def test_log_dates_a_source_without_dates(log: str, expected_day: date) -> None:
    pages = (*PAGES, source("@U"))
    seen = {"wiki/sources/@U.md": "2026-10-15"}
    for day in (date(2026, 10, 13), date(2026, 10, 14), date(2026, 10, 15)):
        found = "@U" in digest_paths(day, pages=pages, log=log, seen=seen)
        assert found is (day == expected_day), day


def test_source_without_any_date_counts_on_first_seen_day() -> None:
    assert "@E" not in digest_paths(date(2026, 10, 14), seen={"wiki/sources/@E.md": "2026-10-15"})
    assert "@E" in digest_paths(date(2026, 10, 15), seen={"wiki/sources/@E.md": "2026-10-15"})
    assert "@E" not in digest_paths(date(2026, 10, 14), seen={"other": "2026-10-14"})


@pytest.mark.parametrize(
    ("created", "date_", "seen", "zone", "expected"),
    [
        ("2026-10-14", "2026-10-13 23:00", None, TOKYO, date(2026, 10, 14)),
        ("2026-10-14", None, None, UTC, date(2026, 10, 14)),
        (None, "2026-10-14 00:10", None, TOKYO, date(2026, 10, 14)),
        (None, "2026-10-14 00:10", None, UTC, date(2026, 10, 13)),
        (None, "2026-10-14 09:00", None, UTC, date(2026, 10, 14)),
        (None, "2026-10-14", None, TOKYO, date(2026, 10, 14)),
        (None, "2026-10-14 9:05", None, TOKYO, date(2026, 10, 14)),
        (None, None, "2026-10-13T20:00:00+00:00", TOKYO, date(2026, 10, 14)),
        (None, None, "2026-10-13T20:00:00+00:00", UTC, date(2026, 10, 13)),
        (None, None, "2026-10-13", UTC, date(2026, 10, 13)),
        ("not a date", "", None, TOKYO, None),
        (None, None, None, TOKYO, None),
        ("2026-02-30", None, "2026-03-01", TOKYO, date(2026, 3, 1)),
    ],
)
def test_source_day(created, date_, seen, zone, expected) -> None:
    page_ = source("@X", created=created, date_=date_)
    assert birth(dated(page_, seen), zone, Signals(), date(2026, 10, 14)).day == expected


def test_items_carry_blurb_citations_and_url() -> None:
    refs = {
        "wiki/sources/@A.md": (
            PageRef("Jane Doe", "wiki/entities/Jane Doe.md", "entity"),
            PageRef("KVキャッシュ管理", "wiki/concepts/KVキャッシュ管理.md", "concept"),
            PageRef("Q", "wiki/questions/Q.md", "question"),
            PageRef("@B", "wiki/sources/@B.md", "source"),
            PageRef("Jane Doe", "wiki/entities/Jane Doe.md", "entity"),
            PageRef("未作成", None, None),
        )
    }
    pages = (
        *PAGES,
        source("@L", created="2026-10-14", summary="own summary", links=(Link("wiki/briefs/@L", "紹介文"),)),
        page("wiki/briefs/@L.md", "brief", blurb="• L の紹介"),
    )
    digest = digest_of(
        pages,
        "",
        date(2026, 10, 14),
        cited_by=lambda path: refs.get(path, ()),
        url_for=lambda path: "https://wiki.example/" + path,
    )
    items = {item.path: item for item in digest.items}
    a = items["wiki/sources/@A.md"]
    assert a.summary == "• 紹介: A は速い"
    assert [ref.path for ref in a.cited_by] == [
        "wiki/entities/Jane Doe.md",
        "wiki/concepts/KVキャッシュ管理.md",
    ]
    assert a.url == "https://wiki.example/wiki/sources/@A.md"
    assert a.date == "2026-10-14 10:00"
    assert items["wiki/sources/@B.md"].summary == "B の要約"
    assert items["wiki/sources/@L.md"].summary == "• L の紹介"


def test_recent_sources_newest_first() -> None:
    resolver = LinkResolver((p.path, p.title, p.aliases) for p in PAGES)
    items = recent_sources(
        PAGES,
        4,
        first_seen=FIRST_SEEN.get,
        resolve=resolver.resolve,
        cited_by=lambda path: (),
        url_for=lambda path: None,
    )
    assert [item.path.removeprefix("wiki/sources/") for item in items] == [
        "@A copy.md",
        "@A.md",
        "@B.md",
        "@D.md",
    ]
    assert items[1].summary == "• 紹介: A は速い"
