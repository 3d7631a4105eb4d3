"""What a day's digest holds on the wikis teams have, through the real indexer: small vaults in the
shapes of real LLM-maintained wikis, each signal that dates a page, renamed pages and big days."""

from __future__ import annotations

import os
import sqlite3
from datetime import date
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from index.catalog.schema import CATALOG_FILE
from index.generation import current_generation
from index.model import Digest
from index.wiki import Wiki
from tests.vaults import write_vault

TOKYO = ZoneInfo("Asia/Tokyo")
UTC = ZoneInfo("UTC")


def page(title: str, body: str = "", **fields: str) -> str:
    meta = "".join(f"{key}: {value}\n" for key, value in {"title": title, **fields}.items())
    return f"---\n{meta}---\n\n# {title}\n\n{body or title + ' について。'}\n"


def indexed(tmp_path: Path, files: dict[str, str]) -> Wiki:
    wiki = Wiki.open(write_vault(tmp_path / "vault", files), tmp_path / "index")
    wiki.update()
    return wiki


def new_by(digest: Digest) -> dict[str, str]:
    return {page.path: page.new_by for page in digest.pages}


# -- a Japanese wiki: sources with `ingested:`, a log of 作成（sources） lists -------------------

AGENTS = [f"wiki/sources/concepts/agent-{n:02d}.md" for n in range(30)]
LATE = [f"wiki/sources/concepts/late-{n}.md" for n in range(4)]


def japanese_wiki(*, log: bool = True) -> dict[str, str]:
    files = {
        path: page(f"エージェント {n:02d}", type="source", ingested="2026-06-14")
        for n, path in enumerate(AGENTS)
    }
    files |= {path: page(f"追加 {n}", type="source", ingested="2026-06-16") for n, path in enumerate(LATE)}
    files["wiki/entities/OpenAI.md"] = page(
        "OpenAI", "[[agent-03]] と [[agent-07]] を参照。", type="entity", created="2026-06-14"
    )
    files["wiki/concepts/計画.md"] = page("計画", "[[agent-03]] の計画。", type="concept")
    if log:
        stems = ", ".join(f"[[sources/concepts/{Path(path).stem}]]" for path in AGENTS)
        files["wiki/log.md"] = (
            "# ログ\n\n## [2026-06-16] ingest | 追加の 4 本\n"
            f"- 作成（sources）: {', '.join(f'[[sources/concepts/late-{n}]]' for n in range(4))}\n"
            "- 更新（entities）: [[OpenAI]]\n\n"
            f"## [2026-06-14] ingest | エージェント論文\n- 作成（sources）: {stems}\n"
        )
    return files


def test_japanese_wiki_lists_a_small_day_and_summarises_a_big_one(tmp_path: Path) -> None:
    wiki = indexed(tmp_path, japanese_wiki())
    small = wiki.digest(date(2026, 6, 16), zone=TOKYO)
    assert [item.path for item in small.items] == LATE and small.summary is None
    assert set(new_by(small).values()) == {"log"}
    big = wiki.digest(date(2026, 6, 14), zone=TOKYO, max_items=25)
    assert len(big.items) == 30 and big.summary is not None
    assert big.summary.new == 30
    assert big.summary.by_folder == (("wiki/sources", 30),)
    assert big.summary.by_type == (("source", 30),)
    assert [ref.path for ref in big.summary.most_linked[:2]] == [AGENTS[3], AGENTS[7]]
    assert len(big.summary.most_linked) == 10
    assert new_by(big)["wiki/entities/OpenAI.md"] == "frontmatter:created"
    assert wiki.digest(date(2026, 6, 14), zone=TOKYO, max_items=30).summary is None


def test_without_a_log_the_ingested_field_dates_the_sources(tmp_path: Path) -> None:
    wiki = indexed(tmp_path, japanese_wiki(log=False))
    digest = wiki.digest(date(2026, 6, 16), zone=TOKYO)
    assert [item.path for item in digest.items] == LATE
    assert {new_by(digest)[path] for path in LATE} == {"frontmatter:ingested"}


# -- an English wiki without source pages: entities, concepts and events with `created:` --------


def english_wiki() -> dict[str, str]:
    return {
        "wiki/entities/Harold Godwinson.md": page("Harold Godwinson", type="entity", created="2026-03-02"),
        "wiki/entities/William the Conqueror.md": page(
            "William the Conqueror", type="entity", created="2026-01-10"
        ),
        "wiki/entities/Edith.md": page("Edith", type="entity", created="2026-03-02"),
        "wiki/concepts/Feudalism.md": page("Feudalism", type="concept", created="2026-01-10"),
        "wiki/events/Battle of Hastings.md": page("Battle of Hastings", type="event", date="1066-10-14"),
        "wiki/events/Coronation.md": page(
            "Coronation", type="event", date="1066-12-25", created="2026-03-02"
        ),
        "raw/chronicle.md": "# the original, never a page\n",
        "wiki/log.md": (
            "## [2026-03-02] enrich | Hastings\n- Created: [[Battle of Hastings]], [[Harold Godwinson]]\n"
            "- Enriched: [[William the Conqueror]], [[Feudalism]], [[Harold Godwinson]]\n\n"
            "## [2026-01-10] ingest | first pages\n- Created: [[William the Conqueror]], [[Feudalism]]\n"
        ),
    }


def test_a_wiki_without_source_pages_gets_its_new_pages_by_type_and_its_updates(tmp_path: Path) -> None:
    digest = indexed(tmp_path, english_wiki()).digest(date(2026, 3, 2), zone=TOKYO)
    assert digest.announces == "page" and digest.items == ()
    assert new_by(digest) == {
        "wiki/entities/Edith.md": "frontmatter:created",
        "wiki/entities/Harold Godwinson.md": "log",
        "wiki/events/Battle of Hastings.md": "log",
        "wiki/events/Coronation.md": "frontmatter:created",
    }
    assert [page.type for page in digest.pages] == ["entity", "entity", "event", "event"]
    assert [ref.path for ref in digest.updated] == [
        "wiki/entities/William the Conqueror.md",
        "wiki/concepts/Feudalism.md",
    ]
    assert digest.updated_total == 2


def test_an_event_date_says_when_it_happened_not_when_the_page_was_written(tmp_path: Path) -> None:
    files = english_wiki()
    del files["wiki/log.md"]
    wiki = indexed(tmp_path, files)
    assert "wiki/events/Battle of Hastings.md" not in new_by(wiki.digest(date(1066, 10, 14), zone=TOKYO))
    seen = wiki.live().catalog.first_seen.get("wiki/events/Battle of Hastings.md")
    assert seen is not None
    today = date.fromisoformat(seen[:10])
    assert new_by(wiki.digest(today, zone=UTC))["wiki/events/Battle of Hastings.md"] == "first_seen"


# -- a plain vault with no dates: a newest-first log with timestamps and Japanese lists ---------


def test_a_wiki_without_dates_is_dated_by_its_log(tmp_path: Path) -> None:
    files = {
        "sources/白書.md": page("白書"),
        "sources/年報.md": page("年報"),
        "concepts/熟議.md": page("熟議", "## Updates\n\n### 2026-05-28: 追記\n\n白書から。"),
        "entities/山田太郎.md": page("山田太郎"),
        "log.md": (
            "# Log\n\n## [2026-05-28 14:00] ingest | 白書\n\n- 新規 source 1: [[白書]] (政府)\n"
            "- 新規 entity 1: [[山田太郎]]\n- 既存 1 ページに `## Updates` を append: [[熟議]]\n\n"
            "## [2026-05-26 18:30] ingest | 年報\n\n- source ページ [[年報]] を作成（書誌）\n"
            "- concept ページ 1 個を作成: [[熟議]]\n"
        ),
    }
    wiki = indexed(tmp_path, files)
    later = wiki.digest(date(2026, 5, 28), zone=TOKYO)
    assert [item.path for item in later.items] == ["sources/白書.md"]
    assert new_by(later) == {"sources/白書.md": "log", "entities/山田太郎.md": "log"}
    assert later.updated == ()  # a wiki with source pages announces its sources
    earlier = wiki.digest(date(2026, 5, 26), zone=TOKYO)
    assert new_by(earlier) == {"sources/年報.md": "log", "concepts/熟議.md": "log"}


# -- a wiki whose log lives beside wiki/, out of date order, with bold labels and paths ---------


def test_a_log_beside_the_wiki_with_bold_labels_and_paths(tmp_path: Path) -> None:
    files = {
        "wiki/sources/bk-intro.md": page("Intro", type="source", updated="2026-06-03"),
        **{
            f"wiki/sources/bk-ch0{n}.md": page(f"Chapter {n}", type="source", updated="2026-06-03")
            for n in (1, 2, 3)
        },
        "wiki/people/ann.md": page("Ann", type="person", updated="2026-06-03"),
        "wiki/people/bob.md": page("Bob", type="person", updated="2026-06-03"),
        "log.md": (
            "# Wiki Log\n\n## [2026-05-30] deep-dive | raw/book — 1 new page created\n\n"
            "**New People Pages (1):**\n- `wiki/people/bob.md` — a groom; brother of [[Ann]]\n\n"
            "## [2026-05-28] ingest | Book\n\nCreated: `wiki/sources/bk-intro.md`, `wiki/people/ann.md`.\n\n"
            "**New source summary pages:** `bk-ch01` through `bk-ch03` (3 chapters).\n\n"
            "## [2026-06-03] housekeeping | notes\n\n**Updated people pages:** `wiki/people/ann.md`\n"
        ),
    }
    wiki = indexed(tmp_path, files)
    assert [item.path for item in wiki.digest(date(2026, 5, 28), zone=TOKYO).items] == [
        "wiki/sources/bk-ch01.md",
        "wiki/sources/bk-ch02.md",
        "wiki/sources/bk-ch03.md",
        "wiki/sources/bk-intro.md",
    ]
    assert new_by(wiki.digest(date(2026, 5, 30), zone=TOKYO)) == {"wiki/people/bob.md": "log"}
    assert wiki.digest(date(2026, 6, 3), zone=TOKYO).pages == ()


# -- a plain vault of pages/ with ISO `created:` timestamps and a log of bullets and a table ---


def rite_wiki() -> dict[str, str]:
    return {
        "pages/heuristics/validate-at-entry.md": page(
            "値の検証は入口で", created='"2026-08-13T08:43:00+09:00"'
        ),
        "pages/heuristics/truthful-status.md": page("状態表示は真に", created='"2026-07-01T10:00:00+09:00"'),
        "pages/anti-patterns/bulk-substitution.md": page("一括置換", created='"2026-07-19T06:00:00Z"'),
        "pages/patterns/late-utc.md": page("深夜の UTC", created="2026-07-22T21:35:00Z"),
        "raw/reviews/a.md": "# raw review\n",
        "log.md": (
            "## 2026-08-13\n* **lint:warning** — stale=6\n"
            "* **Create**: [値の検証は入口で](pages/heuristics/validate-at-entry.md)"
            " — raw/reviews/a.md を新規ページ化\n"
            "* **Update**: [状態表示は真に](pages/heuristics/truthful-status.md) — 統合\n\n"
            "## 活動ログ\n\n| 日時 | アクション | 対象 | 詳細 |\n|----|----|----|----|\n"
            "| 2026-07-19T15:00:00+09:00 | ingest:create |"
            " [一括置換](pages/anti-patterns/bulk-substitution.md) | x |\n"
        ),
    }


def test_a_plain_vault_with_timestamps_and_a_table_log(tmp_path: Path) -> None:
    wiki = indexed(tmp_path, rite_wiki())
    digest = wiki.digest(date(2026, 8, 13), zone=TOKYO)
    assert digest.announces == "page"
    assert new_by(digest) == {"pages/heuristics/validate-at-entry.md": "log"}
    assert [ref.path for ref in digest.updated] == ["pages/heuristics/truthful-status.md"]
    assert new_by(wiki.digest(date(2026, 7, 19), zone=TOKYO)) == {
        "pages/anti-patterns/bulk-substitution.md": "log"
    }


@pytest.mark.parametrize(("zone", "day"), [(TOKYO, date(2026, 7, 23)), (UTC, date(2026, 7, 22))])
def test_a_timestamp_with_an_offset_counts_on_its_day_in_the_digest_zone(
    tmp_path: Path, zone: ZoneInfo, day: date
) -> None:
    wiki = indexed(tmp_path, rite_wiki())
    assert new_by(wiki.digest(day, zone=zone)) == {"pages/patterns/late-utc.md": "frontmatter:created"}


# -- each frontmatter field, several logs, renamed pages ----------------------------------------


@pytest.mark.parametrize(
    ("fields", "zone", "day", "by"),
    [
        ({"created": "2026-10-14"}, UTC, date(2026, 10, 14), "frontmatter:created"),
        ({"ingested": "2026-10-14"}, TOKYO, date(2026, 10, 14), "frontmatter:ingested"),
        ({"date": "2026-10-14 08:30"}, UTC, date(2026, 10, 13), "frontmatter:date"),
        ({"added": "2026-10-14"}, TOKYO, date(2026, 10, 14), "frontmatter:added"),
        ({"created": "someday", "added": "2026-10-14"}, TOKYO, date(2026, 10, 14), "frontmatter:added"),
        (
            {"created": "2026-10-14", "ingested": "2026-10-20"},
            TOKYO,
            date(2026, 10, 14),
            "frontmatter:created",
        ),
    ],
)
def test_each_frontmatter_date_field(
    tmp_path: Path, fields: dict, zone: ZoneInfo, day: date, by: str
) -> None:
    wiki = indexed(tmp_path, {"wiki/entities/X.md": page("X", type="entity", **fields)})
    assert new_by(wiki.digest(day, zone=zone)) == {"wiki/entities/X.md": by}


def test_several_logs_are_read_and_are_not_pages(tmp_path: Path) -> None:
    files = {
        "wiki/entities/A.md": page("A", type="entity"),
        "wiki/entities/B.md": page("B", type="entity"),
        "wiki/log.md": "## [2026-02-01] ingest | b\n- Created: [[B]]\n",
        "wiki/log-2025.md": "## [2025-12-31] ingest | a\n- Created: [[A]]\n",
    }
    wiki = indexed(tmp_path, files)
    assert wiki.live().catalog.pages.get("wiki/log-2025.md") is None
    assert new_by(wiki.digest(date(2025, 12, 31), zone=TOKYO)) == {"wiki/entities/A.md": "log"}
    write_vault(tmp_path / "vault", {"wiki/log-2025.md": "## [2025-12-30] ingest | a\n- Created: [[A]]\n"})
    wiki.update()
    assert new_by(wiki.digest(date(2025, 12, 30), zone=TOKYO)) == {"wiki/entities/A.md": "log"}


def backdate(tmp_path: Path, path: str, when: str) -> None:
    """As if the index had first seen ``path`` at ``when``."""
    generation = current_generation(tmp_path / "index")
    assert generation is not None
    with sqlite3.connect(generation / CATALOG_FILE) as db:
        db.execute("UPDATE files SET first_seen = ? WHERE path = ?", (when, path))
    db.close()


@pytest.mark.parametrize("rebuild", [False, True])
def test_a_renamed_or_moved_page_is_not_new(tmp_path: Path, rebuild: bool) -> None:
    files = {
        "wiki/entities/Old Name.md": page("Kite Labs", type="entity"),
        "wiki/entities/Moved.md": page("Moved", type="entity"),
        "wiki/concepts/Logged.md": page("Logged", type="concept"),
        "wiki/log.md": "## [2026-01-05] ingest | x\n- Created: [[Logged]]\n",
    }
    wiki = indexed(tmp_path, files)
    for path in ("wiki/entities/Old Name.md", "wiki/entities/Moved.md"):
        backdate(tmp_path, path, "2025-01-02T03:04:05+00:00")
    vault = tmp_path / "vault"
    os.rename(vault / "wiki/entities/Old Name.md", vault / "wiki/entities/Kite.md")  # renamed, same title
    (vault / "wiki/people").mkdir()
    os.rename(vault / "wiki/entities/Moved.md", vault / "wiki/people/Moved.md")  # moved, same name
    os.rename(vault / "wiki/concepts/Logged.md", vault / "wiki/concepts/Logged Again.md")
    write_vault(vault, {"wiki/concepts/Logged Again.md": page("Logged", type="concept")})
    wiki = Wiki.open(vault, tmp_path / "index")
    wiki.update(rebuild=rebuild)
    assert wiki.live().catalog.first_seen.get("wiki/people/Moved.md") == "2025-01-02T03:04:05+00:00"
    if not rebuild:  # a rebuild knows departed pages by their file name only
        assert wiki.live().catalog.first_seen.get("wiki/entities/Kite.md") == "2025-01-02T03:04:05+00:00"
    assert new_by(wiki.digest(date(2026, 1, 5), zone=TOKYO)) == {"wiki/concepts/Logged Again.md": "log"}
