"""Incremental indexing, bad files, concurrent writers and damaged indexes, on real files."""

from __future__ import annotations

import os
import random
import threading
from pathlib import Path

import pytest

from index.catalog.schema import CATALOG_FILE
from index.generation import current_generation
from index.wiki import IndexNotReady, Wiki
from tests.vaults import SMALL_VAULT, entity, write_vault


@pytest.fixture
def vault(tmp_path: Path) -> Path:
    return write_vault(tmp_path / "vault", SMALL_VAULT)


def open_built(vault: Path, tmp_path: Path) -> Wiki:
    wiki = Wiki.open(vault, tmp_path / "index")
    wiki.update()
    return wiki


def test_first_update_builds_then_only_changes_are_applied(vault: Path, tmp_path: Path) -> None:
    wiki = Wiki.open(vault, tmp_path / "index")
    with pytest.raises(IndexNotReady):
        wiki.lookup("ByteDance")
    first = wiki.update()
    assert first.rebuilt and first.added == first.pages == 12
    assert wiki.update().added == wiki.update().changed == 0

    (vault / "wiki/entities/MegaScale.md").write_text(entity("MegaScale", body="新しい本文 Zyxwv を含む。"))
    (vault / "wiki/entities/Volcano Engine.md").write_text(entity("Volcano Engine"))
    (vault / "wiki/entities/Anna Stub.md").unlink()
    report = wiki.update()
    assert (report.added, report.changed, report.removed, report.rebuilt) == (1, 1, 1, False)
    assert wiki.search("Zyxwv").hits[0].path == "wiki/entities/MegaScale.md"
    assert wiki.lookup("Volcano Engine").match is not None
    assert wiki.card("wiki/entities/Anna Stub.md") is None


def test_renamed_page_moves_with_its_backlinks(vault: Path, tmp_path: Path) -> None:
    wiki = open_built(vault, tmp_path)
    assert "wiki/entities/ByteDance.md" in {
        ref.path for ref in wiki.card("wiki/entities/Minder.md").backlinks
    }
    os.rename(vault / "wiki/entities/Minder.md", vault / "wiki/concepts/Minder.md")
    wiki.update()
    assert wiki.lookup("Minder").match.path == "wiki/concepts/Minder.md"
    card = wiki.card("wiki/entities/ByteDance.md")
    products = next(group for group in card.groups if group.label == "関連プロダクト")
    assert [ref.path for ref in products.refs] == ["wiki/entities/MegaScale.md", "wiki/concepts/Minder.md"]
    assert "wiki/entities/ByteDance.md" in {
        ref.path for ref in wiki.card("wiki/concepts/Minder.md").backlinks
    }


def test_bad_files_are_reported_and_everything_else_is_indexed(vault: Path, tmp_path: Path) -> None:
    write_vault(
        vault,
        {
            "wiki/entities/Empty Page.md": "",
            "wiki/entities/Broken Encoding.md": b"---\ntitle: Broken\n---\n# Broken\n\xff\xfe ok\n",
            "wiki/entities/Unclosed.md": "---\ntitle: Unclosed\n# Unclosed\n",
            "wiki/entities/CRLF Entity.md": entity("CRLF Entity").replace("\n", "\r\n"),
            "wiki/concepts/巨大ページ.md": "# 巨大ページ\n\n"
            + ("## 節\n\n" + "長文です。" * 400 + "\n\n") * 100,
        },
    )
    report = Wiki.open(vault, tmp_path / "index").update()
    assert [(s.path, s.reason) for s in report.skipped] == [("wiki/entities/Empty Page.md", "empty file")]
    warned = {w.path: w.reason for w in report.warnings}
    assert "invalid UTF-8" in warned["wiki/entities/Broken Encoding.md"]
    assert "closing" in warned["wiki/entities/Unclosed.md"]
    assert report.pages == 12 + 4


def test_skipped_files_are_not_reported_again_until_they_change(vault: Path, tmp_path: Path) -> None:
    write_vault(vault, {"wiki/entities/Empty Page.md": ""})
    wiki = open_built(vault, tmp_path)
    assert wiki.update().changed == 0
    write_vault(vault, {"wiki/entities/Empty Page.md": entity("No Longer Empty")})
    assert wiki.update().changed == 1
    assert wiki.lookup("No Longer Empty").match is not None


def test_another_process_commit_is_seen_by_readers(vault: Path, tmp_path: Path) -> None:
    reader = open_built(vault, tmp_path)
    (vault / "wiki/entities/Volcano Engine.md").write_text(entity("Volcano Engine"))
    Wiki.open(vault, tmp_path / "index").update()
    reader._checked = 0.0
    assert reader.lookup("Volcano Engine").match is not None


def test_two_writers_at_once_serialise(vault: Path, tmp_path: Path) -> None:
    open_built(vault, tmp_path)
    for n in range(20):
        (vault / f"wiki/entities/New {n}.md").write_text(entity(f"New {n}"))
    errors: list[BaseException] = []

    def run() -> None:
        try:
            Wiki.open(vault, tmp_path / "index").update()
        except BaseException as error:
            errors.append(error)

    threads = [threading.Thread(target=run) for _ in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    final = Wiki.open(vault, tmp_path / "index")
    assert final.state().pages == 32
    assert len(final.search("New", limit=50).hits) == 20


def test_crash_in_the_middle_of_an_update_keeps_the_previous_index(vault: Path, tmp_path: Path) -> None:
    wiki = open_built(vault, tmp_path)

    def explode(done: int, total: int) -> None:
        raise RuntimeError("power cut")

    (vault / "wiki/entities/Volcano Engine.md").write_text(entity("Volcano Engine"))
    with pytest.raises(RuntimeError):
        wiki.update(progress=explode)
    assert wiki.lookup("ByteDance").match is not None
    again = Wiki.open(vault, tmp_path / "index")
    assert again.lookup("Volcano Engine").match is None
    assert again.update().added == 1
    assert again.lookup("Volcano Engine").match is not None


@pytest.mark.parametrize("damage", ["catalog", "segments", "current"])
def test_damaged_index_is_rebuilt(vault: Path, tmp_path: Path, damage: str) -> None:
    open_built(vault, tmp_path)
    generation = current_generation(tmp_path / "index")
    assert generation is not None
    if damage == "catalog":
        (generation / CATALOG_FILE).write_bytes(b"not a database" * 100)
    elif damage == "segments":
        for path in generation.glob("*.seg"):
            path.write_bytes(b"garbage")
        for path in generation.glob("_sakuin_*.toc"):
            path.write_bytes(b"garbage")
    else:
        (tmp_path / "index" / "CURRENT").write_text("gen-9999")
    wiki = Wiki.open(vault, tmp_path / "index")
    assert wiki.state().status == "empty"
    report = wiki.update()
    assert report.rebuilt and report.pages == 12
    assert wiki.lookup("ByteDance").match is not None


def test_rebuild_replaces_the_generation(vault: Path, tmp_path: Path) -> None:
    wiki = open_built(vault, tmp_path)
    elsewhere = Wiki.open(vault, tmp_path / "index")  # another process, still on the old generation
    assert elsewhere.search(
        "Minder"
    ).hits  # ... which it just checked, so it will not look again for a second
    first = current_generation(tmp_path / "index")
    assert wiki.update(rebuild=True).rebuilt
    second = current_generation(tmp_path / "index")
    assert first != second and first.exists()
    assert elsewhere.search("Minder").hits
    wiki.update(rebuild=True)
    assert not first.exists() and second.exists()
    assert wiki.lookup("ByteDance").match is not None


@pytest.mark.parametrize("pool_mb", [64, 0.01])  # 0.01: the writers spill runs and merge them
def test_parallel_build_answers_like_a_single_process_build(
    vault: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, pool_mb: float
) -> None:
    """Enough passages for both writer processes (batches of 100), words spread over all of them:
    every word finds the same passages with the same scores as in a one-process build."""
    import index.indexer
    import index.store.engine

    monkeypatch.setattr(index.indexer, "PARALLEL_FROM_PAGES", 1)
    monkeypatch.setattr(index.store.engine, "POOL_MB", pool_mb)
    rng = random.Random(5)
    # Latin words (scored a term at a time) and Japanese ones (phrases of bigrams: whoosh's matchers)
    words = [f"zq{number:02d}word" for number in range(20)] + [
        "分散学習", "障害検知", "集合通信", "根本原因", "推論基盤", "訓練停止", "計算資源", "記憶領域",
        "通信遅延", "経路制御", "負荷分散", "異常検知", "性能劣化", "監視基盤", "再現実験", "評価指標",
    ]  # fmt: skip
    pages = {
        f"wiki/entities/Generated {number:03d}.md": entity(
            f"Generated {number:03d}",
            body="\n\n".join(f"## 節{n}\n\n{' '.join(rng.sample(words, 8))} を調べた。" for n in range(3)),
        )
        for number in range(90)
    }
    write_vault(vault, pages)
    single = Wiki.open(vault, tmp_path / "single")
    single.update(workers=1)
    parallel = Wiki.open(vault, tmp_path / "parallel")
    assert parallel.update(workers=2).pages == single.state().pages
    # "を調べた": in every passage, so searched as a phrase (whoosh's matchers walk the postings in order)
    questions = ("Minder を開発したのはどこ?", "障害マシン", "CCL ハング", "ByteDance", "を調べた")
    for question in (*questions, *words):
        found = [(h.path, h.section, h.score) for h in parallel.search(question, limit=50).hits]
        assert found == [(h.path, h.section, h.score) for h in single.search(question, limit=50).hits]
        assert found


def test_a_build_whose_writer_process_fails_is_not_published(
    vault: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """whoosh would commit what the other writer wrote; the build fails and the old index stays."""
    import index.indexer
    import index.store.engine

    wiki = open_built(vault, tmp_path)
    write_vault(vault, {f"wiki/entities/More {n:03d}.md": entity(f"More {n:03d}") for n in range(150)})
    monkeypatch.setattr(index.indexer, "PARALLEL_FROM_PAGES", 1)
    monkeypatch.setattr(index.store.engine, "POOL_MB", None)  # the writer processes cannot start their pools
    with pytest.raises(index.store.building.WriterFailed):
        wiki.update(rebuild=True, workers=2)
    assert wiki.lookup("ByteDance").match is not None and wiki.lookup("More 001").match is None
    monkeypatch.undo()
    assert wiki.update(rebuild=True, workers=2).rebuilt
    assert wiki.lookup("More 001").match is not None


def test_a_file_that_breaks_the_parser_is_skipped_and_the_rest_indexed(vault: Path, tmp_path: Path) -> None:
    write_vault(
        vault,
        {
            "wiki/entities/Anchor Bomb.md": "---\na: &a [*a]\n---\n# Anchor Bomb\n",
            "wiki/entities/Superscript Year.md": '---\ndate_published: "²⁰²⁴"\n---\n# Superscript Year\n',
        },
    )
    if hasattr(os, "symlink"):
        os.symlink(vault / "missing.md", vault / "wiki/entities/Dangling.md")
    report = Wiki.open(vault, tmp_path / "index").update()
    assert report.pages >= 13
    wiki = Wiki.open(vault, tmp_path / "index")
    assert wiki.lookup("Superscript Year").match is not None
    assert wiki.lookup("ByteDance").match is not None


def test_unchanged_pages_follow_a_link_target_that_appears_later(vault: Path, tmp_path: Path) -> None:
    write_vault(
        vault,
        {
            "wiki/entities/Acme.md": entity(
                "Acme", body="[[Zeta Labs|ゼータ]] および [[Omega Corp|オメガ]] と協業。"
            ),
            "wiki/entities/Omega Corp.md": entity("Omega Corp"),
        },
    )
    wiki = open_built(vault, tmp_path)
    (vault / "wiki/entities/Zeta Labs.md").write_text(entity("Zeta Labs"))
    wiki.update()
    fresh = Wiki.open(vault, tmp_path / "fresh")
    fresh.update()
    question = "Zeta Labs と Omega Corp の両方と組むのは?"
    assert fresh.search(question).hits[0].path == "wiki/entities/Acme.md"
    assert [h.path for h in wiki.search(question).hits] == [h.path for h in fresh.search(question).hits]


def test_a_rebuild_keeps_when_pages_were_first_seen(vault: Path, tmp_path: Path) -> None:
    wiki = open_built(vault, tmp_path)
    seen = wiki.live().catalog.first_seen.get("wiki/entities/Minder.md")
    assert seen is not None
    wiki.update(rebuild=True)
    assert wiki.live().catalog.first_seen.get("wiki/entities/Minder.md") == seen


@pytest.mark.parametrize(
    ("removed", "warned"),
    [
        pytest.param(6, False, id="half-is-not-most"),
        pytest.param(7, True, id="most"),
        pytest.param(12, True, id="all"),
    ],
)
def test_an_update_removing_most_of_the_vault_is_warned_about_until_the_vault_changes(
    vault: Path, tmp_path: Path, caplog: pytest.LogCaptureFixture, removed: int, warned: bool
) -> None:
    wiki = open_built(vault, tmp_path)
    for path in sorted(wiki.live().catalog.pages)[:removed]:
        (vault / path).unlink()
    with caplog.at_level("WARNING", logger="sakuin.index"):
        report = wiki.update()
    assert report.removed == removed
    if not warned:
        assert report.removal_warning is None and wiki.state().removal_warning is None
        return
    assert report.removal_warning is not None
    assert report.removal_warning.startswith(f"{removed} of the vault's 12 files were removed at ")
    assert report.removal_warning in caplog.text
    assert wiki.update().removal_warning is None  # said once ...
    assert wiki.state().removal_warning == report.removal_warning  # ... and shown until the vault changes
    (vault / "wiki/log.md").write_text("## [2026-10-15] lint | nothing\n")
    wiki.update()
    assert Wiki.open(vault, tmp_path / "index").state().removal_warning == report.removal_warning
    (vault / "wiki/entities/Back.md").write_text(entity("Back"))
    wiki.update()
    assert wiki.state().removal_warning is None


def test_few_pages_removed_from_a_small_vault_are_no_warning(tmp_path: Path) -> None:
    vault = write_vault(tmp_path / "vault", {f"wiki/entities/P{n}.md": entity(f"P{n}") for n in range(5)})
    wiki = open_built(vault, tmp_path)
    for path in vault.glob("wiki/entities/*.md"):
        path.unlink()
    assert wiki.update().removal_warning is None and wiki.state().pages == 0


def test_a_rebuild_after_most_of_the_vault_went_is_warned_about_too(vault: Path, tmp_path: Path) -> None:
    wiki = open_built(vault, tmp_path)
    for path in list(wiki.live().catalog.pages):
        (vault / path).unlink()
    report = wiki.update(rebuild=True)
    assert report.rebuilt and report.removal_warning is not None
    assert report.removal_warning.startswith("12 of the vault's 12 files were removed at ")
    assert wiki.state().removal_warning == report.removal_warning
