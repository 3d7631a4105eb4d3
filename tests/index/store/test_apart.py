"""Passages searched apart (the wiki's log): in an index of their own beside the knowledge pages'."""

from __future__ import annotations

from pathlib import Path

import pytest

from index.reading.format import WIKI_LOG
from index.store.engine import SearchStore
from index.store.values import Chunk, QueryPlan

PAGE = Chunk(path="wiki/entities/Kite.md", ordinal=0, heading="", text="kite stores checkpoints fast.")
LOGGED = Chunk(
    path="wiki/log.md", ordinal=0, heading="2026-05-28 init", text="kite ingest done.", kind=WIKI_LOG
)


@pytest.fixture
def store(tmp_path: Path) -> SearchStore:
    store = SearchStore(tmp_path / "store")
    store.create()
    with store.writing() as batch:
        batch.add(PAGE)
        batch.add(LOGGED)
        batch.add(
            Chunk(path="wiki/log.md", ordinal=1, heading="2026-05-29 lint", text="lint clean.", kind=WIKI_LOG)
        )
    return store


@pytest.mark.parametrize(
    ("kind", "terms", "found"),
    [
        ("", ("kite",), ["wiki/entities/Kite.md"]),
        (WIKI_LOG, ("kite",), ["wiki/log.md"]),
        ("", ("lint",), []),
        (WIKI_LOG, ("lint",), ["wiki/log.md"]),
    ],
)
def test_a_search_looks_at_one_kind_of_passage(
    store: SearchStore, kind: str, terms: tuple, found: list
) -> None:
    assert [match.path for match in store.search(QueryPlan(terms=terms, kind=kind), limit=5)] == found


def test_a_phrase_search_looks_at_one_kind_too(store: SearchStore) -> None:
    plan = QueryPlan(terms=(), phrases=(("kite", "ingest"),), kind=WIKI_LOG)
    assert [match.path for match in store.search(plan, limit=5)] == ["wiki/log.md"]
    assert store.search(QueryPlan(terms=(), phrases=(("kite", "ingest"),)), limit=5) == []


def test_the_log_does_not_change_what_a_word_weighs_among_the_pages(store: SearchStore) -> None:
    assert store.document_frequencies(["kite", "lint"]) == (1, {"kite": 1, "lint": 0})
    assert store.document_frequencies(["kite", "lint"], WIKI_LOG) == (2, {"kite": 1, "lint": 1})
    assert store.postings(["lint"]) == {"lint": 0}


def test_a_log_page_is_read_and_deleted_like_any_page(store: SearchStore) -> None:
    assert [chunk.ordinal for chunk in store.page_chunks("wiki/log.md")] == [0, 1]
    with store.writing() as batch:
        batch.delete_page("wiki/log.md")
    assert store.page_chunks("wiki/log.md") == []
    assert [chunk.path for chunk in store.page_chunks("wiki/entities/Kite.md")] == ["wiki/entities/Kite.md"]


def test_a_store_without_its_apart_index_cannot_be_opened(tmp_path: Path) -> None:
    """An index from before passages had kinds is rebuilt (the catalog's schema version says so too)."""
    store = SearchStore(tmp_path / "store")
    store.create()
    for name in (tmp_path / "store").glob("_sakuin-apart_*.toc"):
        name.unlink()
    with pytest.raises(Exception):  # noqa: B017 - whoosh raises its own kinds
        SearchStore(tmp_path / "store").open()
