from __future__ import annotations

from pathlib import Path

import pytest

from index.reading.pages import parse_page, unflatten
from tests.conftest import SEEDS

ENTITY = """---
address: c-000412
type: entity
title: "ByteDance"
created: 2026-07-03
aliases:
  - "バイトダンス"
entity_type: organization
role: "北京に本社を置くテクノロジー企業"
related:
  - "[[KVキャッシュ管理]]"
sources:
  - "[[@2025__arXiv__Example]]"
---

# ByteDance

## 概要

北京に本社を置くテクノロジー企業である。

## 関連ソース

- [[@2024__NSDI__MegaScale]] — 訓練基盤

## 関連

- ソース: [[@2025__NSDI__Minder]] / [[@2024__NSDI__MegaScale]]
- 関連プロダクト: [[MegaScale]] / [[Minder|マインダー]]
- [[Plain Bullet]]

```
- 概念: [[InFence]]
```
"""


def parse(text: str | bytes, path: str = "wiki/entities/X.md", folder: str | None = "entity"):
    data = text.encode() if isinstance(text, str) else text
    return parse_page(path, data, folder)


def test_entity_page() -> None:
    page = parse(ENTITY).page
    assert page is not None
    assert (page.key, page.type, page.title, page.aliases) == (
        "c-000412",
        "entity",
        "ByteDance",
        ("バイトダンス",),
    )
    assert page.summary == "北京に本社を置くテクノロジー企業"
    assert page.created == "2026-07-03" and page.tier == "full" and page.entity_type == "organization"
    relations = [(r.label, [link.target for link in r.links]) for r in page.relations]
    assert relations == [
        ("ソース", ["@2024__NSDI__MegaScale"]),
        ("ソース", ["@2025__NSDI__Minder", "@2024__NSDI__MegaScale"]),
        ("関連プロダクト", ["MegaScale", "Minder"]),
        ("関連", ["Plain Bullet"]),
        ("ソース", ["@2025__arXiv__Example"]),
        ("関連", ["KVキャッシュ管理"]),
    ]
    targets = {link.target for link in page.links}
    assert "InFence" not in targets and {"KVキャッシュ管理", "@2025__arXiv__Example", "Minder"} <= targets


@pytest.mark.parametrize(
    ("seed", "title", "labels", "first_products"),
    [
        (
            "000_213e1c2424b8de26.txt",
            "Ant Group",
            ["ソース", "関連プロダクト", "関連組織", "関連人物", "共同研究先", "概念"],
            ["XPUTimer", "DLRover", "CCL-D"],
        ),
        (
            "003_fae802be7995b149.txt",
            "ByteDance",
            ["ソース", "エンティティ", "概念"],
            ["MegaScale", "Minder"],
        ),
    ],
)
def test_flattened_seed_exports(seed: str, title: str, labels: list[str], first_products: list[str]) -> None:
    result = parse_page(seed, (SEEDS / seed).read_bytes())
    page = result.page
    assert page is not None and result.problems == ()
    assert page.title == title and page.type == "entity"
    assert [relation.label for relation in page.relations] == labels
    second = [link.target for link in page.relations[1].links]
    assert second[: len(first_products)] == first_products
    assert page.summary and "[[" not in page.summary and len(page.summary) <= 240
    assert page.sections[0].text.startswith(page.summary[:10])


@pytest.mark.parametrize(
    ("flat", "title"),
    [
        ("# Ant Group 中国の企業。 ## 関連 - ソース: [[@A]]", "Ant Group"),
        ("# 異常検知 データから外れ値を見つける。 ## 関連 - 概念: [[X]]", "異常検知"),
        ("# Xuan Zhang (Ant Group) 研究者。 ## 関連 - 関連組織: [[Ant Group]]", "Xuan Zhang (Ant Group)"),
    ],
)
def test_flattened_title_is_the_leading_name(flat: str, title: str) -> None:
    assert unflatten(flat)[1] == title


@pytest.mark.parametrize(
    ("data", "title", "problem"),
    [
        (ENTITY.replace("\n", "\r\n"), "ByteDance", None),
        ("---\ntitle: Open\n# Heading\nbody", "Heading", "closing"),
        (b"---\ntitle: Bytes\n---\n# Bytes\nbad \xff\xfe here\n", "Bytes", "invalid UTF-8"),
        ("---\ntags: [a, b]\naliases: []\ncommunity: 3\nreview_state: draft\n---\n# Keys\n", "Keys", None),
        ("# 見出しだけ\n", "見出しだけ", None),
        ("本文だけ", "X", None),
    ],
)
def test_odd_files_still_become_pages(data: str | bytes, title: str, problem: str | None) -> None:
    result = parse(data)
    assert result.page is not None and result.page.title == title
    assert (problem is None and not result.problems) or any(problem in p for p in result.problems if problem)


@pytest.mark.parametrize("data", ["", "   \n\n", b""])
def test_empty_file_is_skipped_with_a_reason(data: str | bytes) -> None:
    assert parse(data).page is None
    assert parse(data).problems == ("empty file",)


def test_large_page_is_read_whole() -> None:
    body = "".join(f"## 節 {n}\n\n" + "長い本文の段落。" * 200 + "\n\n" for n in range(60))
    page = parse(f"---\ntitle: 巨大\n---\n# 巨大\n\n{body}").page
    assert page is not None and len(page.sections) == 60


@pytest.mark.parametrize(
    ("path", "meta", "year", "venue", "title"),
    [
        (
            "wiki/sources/@2025__NSDI__Minder - Faulty Machines.md",
            "",
            2025,
            "NSDI",
            "Minder - Faulty Machines",
        ),
        ("wiki/sources/@2023__OReilly__Book - Chapter 3 題.md", "", 2023, "OReilly", "Book"),
        ("wiki/sources/2024__arXiv__Legacy.md", "", 2024, "arXiv", "Legacy"),
        ("wiki/sources/slug.md", "date_published: 2021-05-01\n", 2021, None, "slug"),
    ],
)
def test_source_names(path: str, meta: str, year: int, venue: str | None, title: str) -> None:
    page = parse(f"---\ntype: source\n{meta}---\n\n> [!abstract] 概要\n> 要約。\n", path, "source").page
    assert page is not None
    assert (page.year, page.venue, page.title, page.summary) == (year, venue, title, "要約。")


def test_concept_summary_and_legacy_inbox() -> None:
    text = "---\ntype: concept\n---\n# 異常検知\n\n## 定義\n\n外れ値の検出。\n\n## 横断的知見\n\n- 観察\n"
    page = parse(text, "wiki/concepts/異常検知.md", "concept").page
    assert page is not None
    assert page.summary == "外れ値の検出。"
    assert [s.heading for s in page.sections] == ["定義", "未編纂の観察"]


def test_brief_blurb_and_companion() -> None:
    text = (
        '---\ntype: brief\ntitle: "紹介: X"\nsources:\n  - "[[wiki/sources/@2025__NSDI__X]]"\n---\n'
        "# 紹介: X\n\n## 紹介文\n\n- 要点です。\n\n## 出典\n"
    )
    page = parse(text, "wiki/briefs/@2025__NSDI__X.md", "brief").page
    assert page is not None
    assert page.blurb == "- 要点です。"
    assert page.companion_of == "wiki/sources/@2025__NSDI__X.md"


@pytest.mark.parametrize(
    ("path", "companion_of"),
    [
        ("wiki/briefs/@2025__NSDI__X.md", "wiki/sources/@2025__NSDI__X.md"),
        ("wiki/briefs/serving/@2025__NSDI__X.md", "wiki/sources/serving/@2025__NSDI__X.md"),
        ("wiki/asks/a/b/@2025__NSDI__X.md", "wiki/sources/a/b/@2025__NSDI__X.md"),
    ],
)
def test_a_companion_without_a_source_link_mirrors_its_path(path: str, companion_of: str) -> None:
    page = parse("---\ntype: brief\n---\n# 紹介\n\n## 紹介文\n\n- 要点。\n", path, "brief").page
    assert page is not None and page.companion_of == companion_of


def test_seed_files_are_real(tmp_path: Path) -> None:
    assert len(list(SEEDS.glob("*.txt"))) == 2


@pytest.mark.parametrize(
    ("text", "title"),
    [
        ("# OpenAI Five\n\nDota bot; C# ## notes are below.\n", "OpenAI Five"),
        ("# Markdown Tips\n\nUse `## ` to start a section.\n", "Markdown Tips"),
        ("# Ant Group ## 関連 - 関連組織: [[Alibaba]]", "Ant Group"),
    ],
)
def test_only_real_flattened_exports_are_unflattened(text: str, title: str) -> None:
    page = parse(text, "notes/x.md", None).page
    assert page is not None and page.title == title


@pytest.mark.parametrize(
    ("frontmatter", "read", "problems"),
    [
        pytest.param(
            "title: [A, B]\nrole: {x: 1}",
            {"title": "X", "summary": "本文。"},
            [
                "frontmatter field 'title' dropped: a list where text was expected",
                "frontmatter field 'role' dropped: a mapping where text was expected",
            ],
            id="text-fields-holding-lists-or-mappings",
        ),
        pytest.param(
            "aliases: {a: 1}",
            {"aliases": ()},
            ["frontmatter field 'aliases' dropped: a mapping where a list was expected"],
            id="aliases-as-a-mapping",
        ),
        pytest.param(
            'related: [[Unquoted]]\nsources:\n  - "[[Quoted]]"\n  - [nested, list]',
            {"links": ("Quoted",)},
            [
                "frontmatter field 'related': items that are not text dropped (quote a link: \"[[…]]\")",
                "frontmatter field 'sources': items that are not text dropped (quote a link: \"[[…]]\")",
            ],
            id="unquoted-links-are-lists-in-yaml",
        ),
        pytest.param(
            "created: 2026-02-30\ndate_published: 2024-01-05\naliases: 5",
            {"created": None, "year": 2024, "aliases": ("5",)},
            ["frontmatter field 'created' dropped: '2026-02-30' is not a valid date"],
            id="a-bad-date-loses-its-field-only",
        ),
    ],
)
def test_a_field_of_the_wrong_shape_is_dropped_and_the_page_kept(
    frontmatter: str, read: dict[str, object], problems: list[str]
) -> None:
    result = parse(f"---\n{frontmatter}\n---\n# X\n\n本文。\n")
    assert result.page is not None and list(result.problems) == problems
    page = result.page
    shown = {"links": tuple(link.target for link in page.links)}
    assert {key: shown[key] if key in shown else getattr(page, key) for key in read} == read


@pytest.mark.parametrize(
    "text",
    [
        pytest.param("---\ntitle: Only Frontmatter\n---\n", id="frontmatter-only"),
        pytest.param("---\ntitle: Only Frontmatter\n---\n%% a note to myself %%\n", id="comment-only-body"),
    ],
)
def test_a_page_with_no_body_is_a_page(text: str) -> None:
    result = parse(text)
    assert result.page is not None and result.page.title == "Only Frontmatter" and result.problems == ()
