"""The build writers' posting pool: whatever it spills to disk, postings come back in order."""

from __future__ import annotations

import random
from itertools import groupby
from pathlib import Path

import pytest

from index.store.postings import TermPool

Posting = tuple[str, bytes, int, float, bytes]


def postings(seed: int, documents: int) -> list[Posting]:
    """Postings as a build writer adds them: passage by passage, in passage order."""
    rng = random.Random(seed)
    added: list[Posting] = []
    for docnum in range(documents):
        for field in ("body", "title"):
            for word in rng.sample(range(60), rng.randint(0, 12)):
                value = rng.randbytes(rng.randint(0, 6)) if field == "body" else b""
                added.append((field, f"w{word:02d}".encode(), docnum, float(rng.randint(1, 4)), value))
    return added


@pytest.mark.parametrize(
    ("limit_mb", "open_runs"),
    [
        (64, 100),  # all in memory
        (0.05, 100),  # a few runs, merged at once
        (0.002, 100),  # hundreds of runs: merged in groups first, in order
        (0.002, 3),  # groups of three, level after level
    ],
)
def test_the_pool_gives_every_posting_back_by_field_term_and_passage(
    tmp_path: Path, limit_mb: float, open_runs: int
) -> None:
    added = postings(seed=7, documents=300)
    pool = TermPool(tmp_path, limit_mb, open_runs=open_runs)
    for (docnum, field), words in groupby(added, key=lambda posting: (posting[2], posting[0])):
        given = [(text, 2, weight, value) for _, text, _, weight, value in words]
        assert pool.add_field(field, docnum, given) == 2 * len(given)
    terms = list(pool.iter_terms())
    assert len({(field, text) for field, text, _ in terms}) == len(terms)  # a term once, however many runs
    back = [(field, text, *posting) for field, text, postings in terms for posting in postings]
    assert back == sorted(added, key=lambda posting: posting[:3])
    assert pool.fieldnames == {"body", "title"}
    pool.cleanup()
    assert list(tmp_path.iterdir()) == []


def test_a_pool_merges_at_least_two_runs_at_a_time(tmp_path: Path) -> None:
    with pytest.raises(ValueError):
        TermPool(tmp_path, 1, open_runs=1)
