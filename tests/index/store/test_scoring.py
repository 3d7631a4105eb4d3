"""The store scores passages as whoosh's own search of the same query would, reading postings a
block at a time: across segments, past deleted passages, over postings of many blocks and over a
term of one passage (whose posting whoosh keeps in the term's entry). The terms asked are in the
passages' text only: of a term in several fields, whoosh scores a passage by another passage's
best field (`tests/index/asking/test_search.py`), the store by its own."""

from __future__ import annotations

from pathlib import Path

import pytest

from index.store.engine import SearchStore
from index.store.scoring import Lengths, finding_query, scored
from index.store.values import Chunk, QueryPlan

COMMON = "ゼータ"
"""In every passage: its postings run over several blocks (whoosh writes 128 a block)."""
RARE = "孤立語"
"""In one passage only."""


def chunk(number: int, *, rare: bool = False, links: tuple[str, ...] = ()) -> Chunk:
    words = " ".join([COMMON] * (1 + number % 4))
    return Chunk(
        path=f"p{number:03d}.md",
        ordinal=0,
        heading="",
        text=f"{words} の記録 {number}。{RARE if rare else ''}",
        title=f"ページ {number}",
        links=links,
    )


@pytest.fixture
def store(tmp_path: Path) -> SearchStore:
    store = SearchStore(tmp_path / "store")
    store.create()
    with store.writing() as batch:
        for number in range(300):
            batch.add(chunk(number, rare=number == 150, links=("target.md",) if number % 5 == 0 else ()))
    with store.writing() as batch:
        for number in range(0, 300, 9):  # deleted passages in the first block and later ones
            batch.delete_page(f"p{number:03d}.md")
        for number in range(300, 330):
            batch.add(chunk(number))
    return store


@pytest.mark.parametrize(
    "plan",
    [
        QueryPlan(terms=("ゼー", "ータ")),
        QueryPlan(terms=("ゼー", "孤立"), term_weights={"孤立": 2.5}),
        QueryPlan(terms=("ータ", "記録"), linked_paths=("target.md", "p150.md")),
    ],
    ids=["common", "rare and weighted", "named pages"],
)
def test_the_store_scores_as_whoosh_searches(store: SearchStore, plan: QueryPlan) -> None:
    searcher = store._searcher()
    segments = [reader for reader, _ in searcher.reader().leaf_readers()]
    assert len(segments) >= 2 and any(reader.has_deletions() for reader in segments)
    query = finding_query(plan)
    assert query is not None
    expected = [(hit.score, hit.docnum) for hit in searcher.search(query, limit=400)]
    found = scored(searcher, plan, Lengths(), 400)
    assert [docnum for _, docnum in found] == [docnum for _, docnum in expected]
    assert [score for score, _ in found] == pytest.approx([score for score, _ in expected], rel=1e-6)
