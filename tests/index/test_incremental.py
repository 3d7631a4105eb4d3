"""An index kept up to date edit by edit answers exactly as one built from scratch.

After each step of a sequence of edits, renames, deletions and additions (links that start or stop
resolving, names and display names that change, pages that stop being knowledge pages), the
updated index is compared with a fresh build of the same vault: the catalog's rows, the name
table, and what readers get (cards, backlinks, lookups, searches).
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Callable
from pathlib import Path

import pytest

from index.catalog.graph import name_rows
from index.catalog.schema import CATALOG_FILE, SCHEMA_VERSION
from index.catalog.writer import CatalogWriter
from index.generation import current_generation
from index.wiki import Wiki
from tests.vaults import SMALL_VAULT, entity, write_vault

Step = tuple[Callable[[Path], None], tuple[str, ...]]
"""What a step does to the vault, and the paths a file watcher would report."""


def write(relative: str, text: str) -> Step:
    return (lambda vault: write_vault(vault, {relative: text})), (relative,)


def rename(old: str, new: str) -> Step:
    def step(vault: Path) -> None:
        (vault / new).parent.mkdir(parents=True, exist_ok=True)
        os.rename(vault / old, vault / new)

    return step, (old, new)


def delete(relative: str) -> Step:
    return (lambda vault: (vault / relative).unlink()), (relative,)


BYTEDANCE = "wiki/entities/ByteDance.md"
MINDER = "wiki/entities/Minder.md"
BRIEF = "wiki/briefs/@2025__NSDI__Minder - Faulty Machine Detection.md"
STEPS: list[tuple[str, Step]] = [
    (
        "an alias and a display name change",
        write(
            BYTEDANCE,
            entity(
                "ByteDance",
                aliases=("バイトダンス", "ByteDance Ltd."),
                body="## 関連\n\n- 関連プロダクト: [[MegaScale|メガスケール]] / [[Minder|マインダー]]\n"
                "- 関連人物: [[Zhuo Jiang]] / [[Wei Zhang|張偉]]\n",
            ),
        ),
    ),
    ("a page for a name linked without one", write("wiki/entities/Zhuo Jiang.md", entity("Zhuo Jiang"))),
    ("a page moves to another folder", rename(MINDER, "wiki/concepts/Minder.md")),
    ("a linked page is deleted", delete("wiki/entities/University of Chinese Academy of Sciences.md")),
    (
        "a title changes, the old one kept as an alias",
        write("wiki/entities/MegaScale.md", entity("MegaScale v2", aliases=("MegaScale",))),
    ),
    (
        "a page stops being a knowledge page",
        write(
            "wiki/entities/ByteDance Seed.md",
            "---\ntype: meta\ntitle: ByteDance Seed\n---\n# ByteDance Seed\n",
        ),
    ),
    (
        "a companion brief appears",
        write(BRIEF, "---\ntype: brief\ntitle: 紹介\n---\n# 紹介\n\n## 紹介文\n\n[[Minder]] の論文。\n"),
    ),
    ("the moved page's old place is taken again", write(MINDER, entity("Minder", aliases=("マインダー",)))),
    ("a page becomes an empty file", write("wiki/entities/Anna Stub.md", "")),
    (
        "a page links the new one by its alias",
        write("wiki/entities/Ant Group.md", entity("Ant Group", body="[[マインダー]] と [[UCAS]] を使う。")),
    ),
]


@pytest.fixture
def vault(tmp_path: Path) -> Path:
    return write_vault(tmp_path / "vault", SMALL_VAULT)


@pytest.mark.parametrize("told", [False, True], ids=["scanning", "told-the-paths"])
def test_every_step_leaves_the_index_a_fresh_build_would_make(
    vault: Path, tmp_path: Path, told: bool
) -> None:
    """Finding the changes by comparing every file, or told them (as the watcher tells the bot)."""
    kept = Wiki.open(vault, tmp_path / "kept")
    kept.update()
    for number, (what, (step, paths)) in enumerate(STEPS):
        step(vault)
        report = kept.update(paths=[vault / path for path in paths] if told else None)
        assert not report.rebuilt, what
        fresh = Wiki.open(vault, tmp_path / f"fresh-{number}")
        fresh.update()
        assert rows(kept) == rows(fresh), what
        assert keys(kept) == keys(fresh), what
        expected = answers(fresh)
        for kind, got in answers(kept).items():
            for key, value in got.items():
                assert value == expected[kind][key], (what, kind, key)
            assert got.keys() == expected[kind].keys(), (what, kind)


def test_an_update_rereads_only_the_pages_whose_links_changed(vault: Path, tmp_path: Path) -> None:
    """Adding the page a name linked without one relinks the two pages that link it, nothing else."""
    wiki = Wiki.open(vault, tmp_path / "index")
    wiki.update()
    write_vault(vault, {"wiki/entities/Zhuo Jiang.md": entity("Zhuo Jiang")})
    report = wiki.update()
    assert (report.added, report.changed, report.removed) == (1, 0, 0)
    assert {ref.path for ref in wiki.card("wiki/entities/Zhuo Jiang.md").backlinks} == {
        BYTEDANCE,
        "wiki/entities/Ant Group.md",
    }
    assert wiki.lookup("Zhuo Jiang").unresolved is None


def rows(wiki: Wiki) -> dict[str, list[tuple]]:
    """The catalog's tables, without when files were first seen (a fresh build sees them now)."""
    generation = wiki.live().catalog.generation
    with sqlite3.connect(generation / CATALOG_FILE) as db:
        return {
            "files": db.execute(
                "SELECT path, mtime_ns, size, skipped, warning FROM files ORDER BY path"
            ).fetchall(),
            "pages": db.execute("SELECT * FROM pages ORDER BY path").fetchall(),
            "records": db.execute("SELECT * FROM records ORDER BY path").fetchall(),
            "links": db.execute("SELECT * FROM links ORDER BY source, ord").fetchall(),
            "names": db.execute("SELECT * FROM names ORDER BY path, kind, name").fetchall(),
            "words": db.execute("SELECT * FROM name_words ORDER BY path, kind, word, key").fetchall(),
        }


def keys(wiki: Wiki) -> list[str]:
    """The name keys the fuzzy lookups scan, as the kept index holds them in memory."""
    return list(wiki.live().graph.names._by_length)


def answers(wiki: Wiki) -> dict[str, dict[str, object]]:
    """What readers get: every page's card and backlinks, lookups of every name a page is known
    by (and of typos and unresolved names), and searches for every title."""
    pages = wiki.live().catalog.pages.values()
    names = {name for page in pages for name in (page.title, page.stem, *page.aliases)}
    names |= {"Wei Zhang", "張偉", "UCAS", "University of Chinese Academy", "ByteDanse", "Minderr"}
    return {
        "cards": {page.path: wiki.card(page.path) for page in pages},
        "lookups": {name: wiki.lookup(name) for name in sorted(names)},
        "searches": {
            page.title: {hit.path for hit in wiki.search(page.title, limit=50).hits} for page in pages
        },
    }


def test_an_edited_page_is_found_by_its_new_words_only(vault: Path, tmp_path: Path) -> None:
    """The same reader (thread) searching across edits: passages an edit replaced stop matching."""
    wiki = Wiki.open(vault, tmp_path / "index")
    wiki.update()
    page = "wiki/entities/MegaScale.md"
    for word in ("Qwzfirst", "Qwzsecond", "Qwzthird"):
        write_vault(vault, {page: entity("MegaScale", body=f"{word} を含む本文。")})
        wiki.update(paths=[page])
        assert [hit.path for hit in wiki.search(word).hits] == [page]
    assert wiki.search("Qwzfirst").hits == wiki.search("Qwzsecond").hits == ()
    assert [hit.path for hit in wiki.search("MegaScale", limit=50).hits].count(page) == 1


def test_a_catalog_of_an_older_schema_is_rebuilt_keeping_when_pages_were_first_seen(
    vault: Path, tmp_path: Path
) -> None:
    Wiki.open(vault, tmp_path / "index").update()
    generation = current_generation(tmp_path / "index")
    assert generation is not None
    with sqlite3.connect(generation / CATALOG_FILE) as db:
        db.execute("UPDATE files SET first_seen = '2025-01-02T03:04:05+00:00' WHERE path LIKE '%Minder.md'")
        db.execute("UPDATE meta SET value = ? WHERE key = 'version'", (SCHEMA_VERSION - 1,))
    db.close()
    wiki = Wiki.open(vault, tmp_path / "index")
    assert wiki.state().status == "empty"
    assert wiki.update().rebuilt
    assert wiki.live().catalog.first_seen.get("wiki/entities/Minder.md") == "2025-01-02T03:04:05+00:00"
    assert wiki.live().catalog.first_seen.get("wiki/entities/ByteDance.md") is not None


def test_an_index_from_before_the_sqlite_catalog_is_rebuilt_keeping_when_pages_were_first_seen(
    vault: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A generation holding the old ``catalog.pickle`` (classes of ``index.*`` that no longer exist)."""
    import pickle

    import index.catalog  # house-move: keep (where schema 3 kept its Catalog)

    class Catalog:  # the pickled catalog of schema 3, as far as first_seen goes
        def __init__(self, first_seen: dict[str, str]) -> None:
            self.first_seen = first_seen

    Catalog.__module__, Catalog.__qualname__ = "index.catalog", "Catalog"  # house-move: keep
    monkeypatch.setattr(index.catalog, "Catalog", Catalog, raising=False)  # house-move: keep
    old = pickle.dumps(Catalog({"wiki/entities/Minder.md": "2025-01-02T03:04:05+00:00"}))
    monkeypatch.undo()
    generation = tmp_path / "index" / "gen-0001"
    generation.mkdir(parents=True)
    (generation / "catalog.pickle").write_bytes(old)
    (tmp_path / "index" / "CURRENT").write_text("gen-0001")
    wiki = Wiki.open(vault, tmp_path / "index")
    assert wiki.state().status == "empty"
    assert wiki.update().rebuilt
    assert wiki.live().catalog.first_seen.get("wiki/entities/Minder.md") == "2025-01-02T03:04:05+00:00"
    assert wiki.live().catalog.first_seen.get("wiki/entities/ByteDance.md") is not None


def test_told_paths_that_are_no_pages_change_nothing_and_a_first_update_scans_anyway(
    vault: Path, tmp_path: Path
) -> None:
    Wiki.open(vault, tmp_path / "index").update()
    write_vault(vault, {"wiki/entities/Volcano Engine.md": entity("Volcano Engine")})
    wiki = Wiki.open(vault, tmp_path / "index")  # nothing scanned yet in this process
    first = wiki.update(paths=[])
    assert (first.added, first.survey is not None) == (1, True)
    write_vault(
        vault, {"wiki/entities/Zeta.md": entity("Zeta"), "notes/x.md": "# x", "wiki/_draft.md": "# d"}
    )
    outside = tmp_path / "elsewhere.md"
    outside.write_text("# elsewhere")
    report = wiki.update(paths=["notes/x.md", "wiki/_draft.md", outside, ".obsidian/app.json"])
    assert (report.added, report.changed, report.removed, report.survey) == (0, 0, 0, None)
    assert wiki.update(paths=["wiki/entities/Zeta.md"]).added == 1
    assert wiki.lookup("Zeta").match is not None


def test_a_build_replaces_a_pages_names_without_reading_the_other_pages_names(tmp_path: Path) -> None:
    """A build writes names page by page before it makes the catalog's other indexes: replacing one
    page's names must find them by path, not scan every name written so far (quadratic in pages)."""
    writer = CatalogWriter(tmp_path, create=True)
    statements: list[str] = []
    writer.db.set_trace_callback(statements.append)
    writer.set_names("wiki/entities/Kite Labs.md", name_rows([("Kite Labs AI", "title")]), kinds=("title",))
    writer.db.set_trace_callback(None)
    deletes = [sql for sql in statements if sql.lstrip().upper().startswith("DELETE")]
    assert deletes
    for sql in deletes:
        plan = [row[-1] for row in writer.db.execute("EXPLAIN QUERY PLAN " + sql)]
        assert not any(step.startswith("SCAN") for step in plan), (sql, plan)
    writer.close()
