"""The FTS5 baseline: words of 3+ characters through trigram MATCH, shorter ones through LIKE."""

from __future__ import annotations

from pathlib import Path

import pytest

from bench.fts5 import Fts5Index, query_words

PAGES = {
    "wiki/entities/ByteDance.md": '---\ntype: entity\ntitle: "ByteDance"\n'
    'aliases:\n  - "バイトダンス"\n---\n\n'
    "# ByteDance\n\nByteDanceの訓練クラスタで障害を検知する。\n",
    "wiki/concepts/異常検知.md": '---\ntype: concept\ntitle: "異常検知"\naliases: []\n---\n\n'
    "# 異常検知\n\n異常検知はログから外れ値を見つける。\n",
    "wiki/sources/@2025__NSDI__Minder - Faulty Machine Detection.md": "---\ntype: source\n"
    'title: "Minder - Faulty Machine Detection"\n---\n\n# Minder - Faulty Machine Detection\n\n'
    "Minder detects faulty machines in distributed training.\n",
}


@pytest.fixture
def index(tmp_path: Path) -> Fts5Index:
    vault = tmp_path / "vault"
    for path, text in PAGES.items():
        (vault / path).parent.mkdir(parents=True, exist_ok=True)
        (vault / path).write_text(text, encoding="utf-8")
    (vault / "wiki" / "index.md").write_text("# Index\n\n- [[ByteDance]] 訓練\n", encoding="utf-8")
    return Fts5Index.build(vault, tmp_path / "fts5.sqlite3")


@pytest.mark.parametrize(
    ("query", "words"),
    [
        ("Minderを開発したのは?", ["minder", "開発"]),
        ("which paper proposes faulty machine detection?", ["proposes", "faulty", "machine", "detection"]),
        ("ＢｙｔｅＤａｎｃｅの異常検知", ["bytedance", "異常検知"]),
    ],
)
def test_query_words(query: str, words: list[str]) -> None:
    assert query_words(query) == words


@pytest.mark.parametrize(
    ("query", "first"),
    [
        ("faulty machine detection", "wiki/sources/@2025__NSDI__Minder - Faulty Machine Detection.md"),
        ("異常検知とは?", "wiki/concepts/異常検知.md"),
        ("訓練", "wiki/entities/ByteDance.md"),  # two characters: only the LIKE fallback can find it
    ],
)
def test_search(index: Fts5Index, query: str, first: str) -> None:
    assert index.search(query)[0] == first


def test_catalogs_are_not_indexed(index: Fts5Index) -> None:
    assert "wiki/index.md" not in index.search("訓練", limit=10)


@pytest.mark.parametrize(
    ("name", "exact"),
    [("ByteDance", True), ("ｂｙｔｅｄａｎｃｅ", True), ("バイトダンス", True), ("BiteDance", False)],
)
def test_lookup(index: Fts5Index, name: str, exact: bool) -> None:
    paths, was_exact = index.lookup(name)
    assert paths[0] == "wiki/entities/ByteDance.md"
    assert was_exact is exact


def test_refresh_makes_an_edit_searchable(index: Fts5Index, tmp_path: Path) -> None:
    vault = tmp_path / "vault"
    path = "wiki/concepts/異常検知.md"
    assert index.search("zqxnonce") == []
    (vault / path).write_text(PAGES[path] + "\nzqxnonce を追記。\n", encoding="utf-8")
    index.refresh(vault, [path])
    assert index.search("zqxnonce") == [path]
    assert len(index.search("異常検知", limit=10)) == 1


def test_given_pages_are_indexed_whatever_the_layout_and_broken_frontmatter(tmp_path: Path) -> None:
    """The real-wiki benchmark hands FTS5 the pages sakuin indexes (here a vault without ``wiki/``)."""
    vault = tmp_path / "notes"
    (vault / "People").mkdir(parents=True)
    (vault / "People" / "Jane Roe.md").write_text("---\ntitle: [unclosed\n---\nJane founded Acme.\n")
    (vault / "Acme.md").write_bytes(b"Acme builds robots \xff in Osaka.\n")
    index = Fts5Index.build(vault, tmp_path / "fts5.sqlite3", ["People/Jane Roe.md", "Acme.md"])
    assert index.search("founded") == ["People/Jane Roe.md"]
    assert index.search("robots osaka") == ["Acme.md"]
    assert index.lookup("Jane Roe") == (["People/Jane Roe.md"], True)  # named by its file when YAML fails
