"""What changed on a page, in the wiki's terms (index/page_changes.py)."""

from __future__ import annotations

import pytest

from index.model import Card, PageRef, RelationGroup
from index.page_changes import PageSnapshot, page_change, sentences, snapshot_of

OLD = PageSnapshot(
    "wiki/entities/A.md",
    "A",
    (("関連プロダクト", ("X", "Y")), ("関連人物", ("P",))),
    ("@2025 Paper",),
    ("北京の企業。", "X を開発した。"),
)


def test_a_snapshot_is_the_card_in_the_wikis_terms_and_survives_json() -> None:
    card = Card(
        "wiki/entities/A.md",
        "A",
        "entity",
        "北京の企業。\n  X を開発した。",
        (
            RelationGroup("関連プロダクト", (PageRef("X", "wiki/entities/X.md", "entity"), PageRef("Y"))),
            RelationGroup("ソース", (PageRef("@2025 Paper", "wiki/sources/p.md", "source"),)),
            RelationGroup("関連人物", (PageRef("P"),)),
        ),
        (),
    )
    snapshot = snapshot_of(card)
    assert snapshot == OLD
    assert PageSnapshot.from_json(snapshot.to_json()) == snapshot
    assert PageSnapshot.from_json("not json") is None and PageSnapshot.from_json("{}") is None


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ("北京の企業。X を開発した。", ("北京の企業。", "X を開発した。")),
        ("It is fast.  It  is big.\nAnd\tnew!", ("It is fast.", "It is big.", "And new!")),
        ("  ", ()),
    ],
)
def test_sentences(text: str, found: tuple[str, ...]) -> None:
    assert sentences(text) == found


@pytest.mark.parametrize(
    ("new", "expected"),
    [
        (OLD, {}),
        (
            PageSnapshot(
                OLD.path,
                "A",
                (("関連プロダクト", ("X", "Y", "Z")), ("関連人物", ("P",))),
                OLD.sources,
                OLD.summary,
            ),
            {"added": (("関連プロダクト", "Z"),)},
        ),
        (
            PageSnapshot(OLD.path, "A", (("関連プロダクト", ("X",)),), OLD.sources, OLD.summary),
            {"removed": (("関連プロダクト", "Y"), ("関連人物", "P"))},
        ),
        (
            PageSnapshot(
                OLD.path, "A", OLD.relations, ("@2025 Paper", "@2026 New"), (*OLD.summary, "新しい文。")
            ),
            {"new_sources": ("@2026 New",), "new_sentences": ("新しい文。",)},
        ),
        (
            PageSnapshot(OLD.path, "A", OLD.relations, OLD.sources, ("北京の 企業。", "X を 開発した。")),
            {},
        ),
        (
            PageSnapshot("wiki/entities/B.md", "B", OLD.relations, OLD.sources, OLD.summary),
            {"renamed_to": "B"},
        ),
        (None, {"deleted": True}),
    ],
    ids=["nothing", "added", "removed", "sources-and-summary", "spaces-only", "renamed", "deleted"],
)
def test_page_change(new: PageSnapshot | None, expected: dict) -> None:
    change = page_change(OLD, new)
    fields = ("renamed_to", "deleted", "added", "removed", "new_sources", "new_sentences")
    defaults = {
        "renamed_to": None,
        "deleted": False,
        "added": (),
        "removed": (),
        "new_sources": (),
        "new_sentences": (),
    }
    assert {field: getattr(change, field) for field in fields} == {**defaults, **expected}
    assert change.empty is (expected == {})
    assert change.title == "A"
