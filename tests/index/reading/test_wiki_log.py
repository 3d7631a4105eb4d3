"""The wiki's log as LLM-maintained wikis write it: which pages each entry says it created or updated."""

from __future__ import annotations

import pytest

from index.reading.wiki_log import log_blocks, parse_log


def lists(text: str) -> list[tuple[str, str, tuple[str, ...], tuple[str, ...]]]:
    return [(entry.when, entry.op, entry.created, entry.updated) for entry in parse_log(text)]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        pytest.param(
            "## [2026-06-14] ingest | エージェント論文 208 本\n"
            "- 作成（sources）: [[sources/concepts/agent]], [[sources/concepts/planner]]\n"
            "- 更新（entities）: [[OpenAI]]\n",
            [("2026-06-14", "ingest", ("sources/concepts/agent", "sources/concepts/planner"), ("OpenAI",))],
            id="japanese-sakusei-koushin",
        ),
        pytest.param(
            "## [2026-03-02] enrich-pipeline | Battle of Hastings\n"
            "- Created: [[Battle of Hastings]], [[Harold Godwinson]]\n"
            "- Enriched: [[William the Conqueror]] (new section on 1066)\n"
            "- Sources read: [[Anglo-Saxon Chronicle]]\n",
            [
                (
                    "2026-03-02",
                    "enrich-pipeline",
                    ("Battle of Hastings", "Harold Godwinson"),
                    ("William the Conqueror",),
                )
            ],
            id="english-created-enriched",
        ),
        pytest.param(
            "## [2026-05-28 14:00] ingest | 候補ソース\n\n本文 [[既存ページ]] を読んだ。\n\n"
            "- 新規 source 2: [[手引き]] (要約) / [[白書]] (予定)\n"
            "- 新 concept 1: [[合意形成]] (定義)\n"
            "- 既存 2 ページに `## Updates` を append:\n"
            "  - 概念: [[熟議]] / [[投票]]\n"
            "- 主な発見:\n"
            "  - **最初の事例**: [[手引き]] が [[白書]] を引く\n"
            "- source ページ [[年報]] を作成（書誌を明記）\n"
            "- entity ページ 1 個を作成: [[山田太郎]]\n"
            "- 残る [[未作成の章]] は意図的に未作成のまま\n",
            [
                (
                    "2026-05-28 14:00",
                    "ingest",
                    ("手引き", "白書", "合意形成", "年報", "山田太郎"),
                    ("熟議", "投票"),
                )
            ],
            id="timestamped-heading-japanese-lists",
        ),
        pytest.param(
            "## [2026-05-29 11:30] ingest | 納得\n\n"
            "新 concept page: [[納得]]。`sources` に [[既存ソース]] を追加。\n",
            [("2026-05-29 11:30", "ingest", ("納得",), ())],
            id="label-in-a-paragraph-ends-at-the-sentence",
        ),
        pytest.param(
            "## [2026-05-30] deep-dive | raw/book — 3 new pages created\n\n"
            "**Source:** Someone, *A Book*. All files read (`raw/book/`).\n\n"
            "**New People Pages (2):**\n"
            "- `wiki/people/ann.md` — a witness; see [[Bob]]\n"
            "- wiki/people/cid.md — an observer\n\n"
            "**Key new material:** [[Ann]] saw [[Bob]].\n\n"
            "## [2026-05-29] ingest | Book chapters\n\n"
            "Created: `wiki/sources/bk-intro.md`, `wiki/people/dan.md`. Updated: `wiki/people/bob.md`.\n\n"
            "**New source summary pages:** `bk-ch02` through `bk-ch04` (3 chapters).\n\n"
            "**Updated people pages:** `wiki/people/eve.md` (new facts), `wiki/people/fay.md`\n\n"
            "## [2026-05-30] deep-dive | raw/other — 2 new pages created\n\n"
            "People (2 pages):\n- `wiki/people/gus.md` — a painter\n- `wiki/people/hal.md` — a groom\n",
            [
                ("2026-05-30", "deep-dive", ("wiki/people/ann", "wiki/people/cid"), ()),
                (
                    "2026-05-29",
                    "ingest",
                    ("wiki/sources/bk-intro", "wiki/people/dan", "bk-ch02", "bk-ch03", "bk-ch04"),
                    ("wiki/people/bob", "wiki/people/eve", "wiki/people/fay"),
                ),
                ("2026-05-30", "deep-dive", ("wiki/people/gus", "wiki/people/hal"), ()),
            ],
            id="bold-labels-backticked-and-bare-paths-out-of-order",
        ),
        pytest.param(
            "## 2026-08-13\n"
            "* **lint:warning** — contradictions=0, stale=6\n"
            "* **Create**: [値の検証は入口で](pages/heuristics/validate-at-entry.md)"
            " — raw/reviews/a.md を新規ページ化\n"
            "* **Update**: [状態表示は真に](pages/heuristics/truthful-status.md) — raw/fixes/b.md を統合\n"
            "* **Skip**: [20260813T064101Z-pr-2302.md](raw/reviews/20260813T064101Z-pr-2302.md) — 既出\n"
            "\n# Wiki 活動ログ\n\n## 活動ログ\n\n"
            "| 日時 | アクション | 対象 | 詳細 |\n|------|-----|----|----|\n"
            "| 2026-07-19T15:00:00+09:00 | ingest:create |"
            " [一括置換](pages/anti-patterns/bulk-substitution.md) | raw/x.md |\n"
            "| 2026-07-19T10:25:00+09:00 | update | [罠](pages/heuristics/trap.md) | 追記 |\n"
            "| 2026-07-19T10:30:00+09:00 | lint:warning | — | stale=12 |\n",
            [
                (
                    "2026-08-13",
                    "",
                    ("pages/heuristics/validate-at-entry",),
                    ("pages/heuristics/truthful-status",),
                ),
                (
                    "2026-07-19T15:00:00+09:00",
                    "ingest:create",
                    ("pages/anti-patterns/bulk-substitution",),
                    (),
                ),
                ("2026-07-19T10:25:00+09:00", "update", (), ("pages/heuristics/trap",)),
                ("2026-07-19T10:30:00+09:00", "lint:warning", (), ()),
            ],
            id="dated-headings-markdown-links-and-a-table",
        ),
        pytest.param(
            "## 2026-08-08T20:47:23+09:00 — PR #2160 review ingest (skip pages)\n\n"
            "- action: skip\n- pages: none\n",
            [("2026-08-08T20:47:23+09:00", "", (), ())],
            id="timestamp-heading-with-fields",
        ),
        pytest.param(
            "## [2026-10-14] ingest | moves\n- Renamed: [[Old]] → [[New]]\n- Pages deleted: [[Gone]]\n",
            [("2026-10-14", "ingest", (), ())],
            id="renames-and-deletions-are-not-creations",
        ),
    ],
)
def test_what_each_entry_lists(text: str, expected: list) -> None:
    assert lists(text) == expected


def test_newest_first_and_oldest_first_read_alike() -> None:
    newest_first = (
        "# Log\n\n## [2026-06-16] ingest | b\n- 作成: [[B]]\n\n## [2026-06-14] ingest | a\n- 作成: [[A]]\n"
    )
    oldest_first = (
        "# Log\n\n## [2026-06-14] ingest | a\n- 作成: [[A]]\n\n## [2026-06-16] ingest | b\n- 作成: [[B]]\n"
    )
    assert sorted(lists(newest_first)) == sorted(lists(oldest_first))
    assert len(lists(newest_first)) == 2


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        pytest.param(
            "# Wiki Log\n\nFormat: `## [YYYY-MM-DD] type | description`\n\n"
            "## [2026-05-28] init | Wiki initialised\n\nIndex and log bootstrapped.\n",
            [
                ("", "Wiki Log", "Format: `## [YYYY-MM-DD] type | description`"),
                ("2026-05-28", "2026-05-28 init | Wiki initialised", "Index and log bootstrapped."),
            ],
            id="preamble-then-entry",
        ),
        pytest.param(
            "## 2026-08-23\n* **lint:warning** — stale=21\n### detail\n- more\n## 2026-08-21\n* x\n",
            [
                ("2026-08-23", "2026-08-23", "* **lint:warning** — stale=21\n### detail\n- more"),
                ("2026-08-21", "2026-08-21", "* x"),
            ],
            id="a-deeper-heading-stays-in-its-entry",
        ),
        pytest.param(
            "| when | action |\n|---|---|\n| 2026-07-19T15:00:00+09:00 | ingest:create | [x](pages/x.md) |\n",
            [
                (
                    "2026-07-19T15:00:00+09:00",
                    "",
                    "| 2026-07-19T15:00:00+09:00 | ingest:create | [x](pages/x.md) |",
                ),
                ("", "", "| when | action |\n|---|---|"),
            ],
            id="a-dated-row-is-an-entry-read-before-the-text-around-it",
        ),
        pytest.param(
            "## Conventions\nAppend only.\n## [2026-01-02 10:30] ingest | a\n",
            [("", "Conventions", "Append only."), ("2026-01-02 10:30", "2026-01-02 10:30 ingest | a", "")],
            id="undated-section-and-an-empty-entry",
        ),
        pytest.param("", [], id="empty"),
    ],
)
def test_the_log_cut_into_blocks_with_their_text(text: str, expected: list) -> None:
    assert [(block.when, block.heading, block.text) for block in log_blocks(text)] == expected


def test_blocks_cut_where_the_entries_are() -> None:
    text = "# Log\nintro\n## [2026-06-14] ingest | a\n- 作成: [[A]]\n| 2026-06-15 | create | [[B]] |\n## x\n"
    dated = [block.when for block in log_blocks(text) if block.when]
    assert dated == [entry.when for entry in parse_log(text)] == ["2026-06-15", "2026-06-14"]
