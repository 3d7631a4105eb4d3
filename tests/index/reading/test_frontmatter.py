from __future__ import annotations

import pytest

from index.reading.frontmatter import list_value, split_frontmatter, text_value


@pytest.mark.parametrize(
    ("text", "key", "expected"),
    [
        ('---\naliases:\n  - "A"\n  - B\n---\nbody', "aliases", ("A", "B")),
        ("---\naliases: [inline list, インラインタグ]\n---\n", "aliases", ("inline list", "インラインタグ")),
        ("---\naliases: []\n---\n", "aliases", ()),
        ("---\nalias: one, two\n---\n", "alias", ("one", "two")),
        ('---\nrelated:\n  - "[[X]]"\n---\n', "related", ("[[X]]",)),
        ("---\ntitle: x\n---\n", "aliases", ()),
    ],
)
def test_lists_in_every_style(text: str, key: str, expected: tuple[str, ...]) -> None:
    assert list_value(split_frontmatter(text).meta, key) == expected


@pytest.mark.parametrize(
    ("text", "key", "expected"),
    [
        ("---\ncreated: 2026-06-02\n---\n", "created", "2026-06-02"),
        ("---\ndate: 2026-06-02 18:46\n---\n", "date", "2026-06-02 18:46"),
        ('---\ntitle: "Quoted: yes"\n---\n', "title", "Quoted: yes"),
        ("---\ncommunity: 3\n---\n", "community", "3"),
        ("---\ntitle:\n---\n", "title", None),
    ],
)
def test_scalars_are_text_and_dates_are_strings(text: str, key: str, expected: str | None) -> None:
    assert text_value(split_frontmatter(text).meta, key) == expected


def test_no_closing_fence_means_no_frontmatter() -> None:
    split = split_frontmatter("---\ntitle: x\n# Heading\nbody")
    assert split.meta == {}
    assert split.body.startswith("---")
    assert split.problem and "closing" in split.problem


def test_invalid_yaml_falls_back_to_reading_lines() -> None:
    split = split_frontmatter("---\ntitle: A: B: C\naliases:\n  - X\n---\nbody")
    assert split.problem and "YAML" in split.problem
    assert split.meta["aliases"] == ["X"]
    assert split.body == "body"
