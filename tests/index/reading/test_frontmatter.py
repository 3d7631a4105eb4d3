from __future__ import annotations

import time
import tracemalloc

import pytest

from index.reading.frontmatter import list_value, split_frontmatter, text_value
from tests.vaults import billion_laughs


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


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        pytest.param(billion_laughs(), "expands far beyond its own size (YAML aliases)", id="billion-laughs"),
        pytest.param(
            "---\na: &a [*a]\ntitle: Bomb\naliases:\n  - Laughs\n---\n", "refers to itself", id="self"
        ),
        pytest.param(
            "---\na: &a {b: *a}\ntitle: Bomb\naliases:\n  - Laughs\n---\n",
            "refers to itself",
            id="self-mapping",
        ),
        pytest.param(
            "---\na: " + "[" * 40 + "]" * 40 + "\ntitle: Bomb\naliases:\n  - Laughs\n---\n",
            "nests deeper than 16 levels",
            id="deep",
        ),
    ],
)
def test_frontmatter_that_would_expand_is_read_line_by_line(text: str, problem: str) -> None:
    tracemalloc.start()
    started = time.process_time()  # this process's CPU: other work on the machine does not count
    try:
        split = split_frontmatter(text)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert time.process_time() - started < 1.0 and peak < 5 << 20
    assert split.problem is not None and problem in split.problem and "read line by line" in split.problem
    assert split.meta["title"] == "Bomb" and list_value(split.meta, "aliases") == ("Laughs",)


def test_anchors_that_do_not_expand_the_block_still_load() -> None:
    split = split_frontmatter(
        "---\nbase: &base {team: infra}\nother: *base\nalias: &n Tidal\naliases: [*n]\n---\n"
    )
    assert split.problem is None
    assert split.meta == {
        "base": {"team": "infra"},
        "other": {"team": "infra"},
        "alias": "Tidal",
        "aliases": ["Tidal"],
    }


@pytest.mark.parametrize(
    ("block", "kept", "problems"),
    [
        pytest.param(
            "created: 2026-02-30\ntitle: T",
            {"title": "T"},
            ["frontmatter field 'created' dropped: '2026-02-30' is not a valid date"],
            id="no-such-day",
        ),
        pytest.param(
            "date: 2026-02-03 25:61:00\nupdated: 2026-13-01\ntitle: T",
            {"title": "T"},
            [
                "frontmatter field 'date' dropped: '2026-02-03 25:61:00' is not a valid date",
                "frontmatter field 'updated' dropped: '2026-13-01' is not a valid date",
            ],
            id="no-such-time-or-month",
        ),
        pytest.param(
            "year: !!int twenty\nscore: !!float high\npublish: !!bool maybe\ntitle: T",
            {"title": "T"},
            [
                "frontmatter field 'year' dropped: 'twenty' is not a valid integer",
                "frontmatter field 'score' dropped: 'high' is not a valid number",
                "frontmatter field 'publish' dropped: 'maybe' is not a valid boolean",
            ],
            id="tags-that-lie",
        ),
        pytest.param(
            "seen: [2026-01-01, 2026-02-31]\ncreated: 2026-02-28",
            {"created": "2026-02-28"},
            ["frontmatter field 'seen' dropped: '2026-02-31' is not a valid date"],
            id="inside-a-list",
        ),
        pytest.param(
            "2026-02-30: x\ntitle: T",
            {"2026-02-30": "x", "title": "T"},
            [],
            id="an-invalid-date-as-a-key-is-text",
        ),
    ],
)
def test_a_bad_value_drops_its_field_not_the_page(block: str, kept: dict, problems: list[str]) -> None:
    split = split_frontmatter(f"---\n{block}\n---\n# T\n")
    assert split.meta == kept
    assert (split.problem.split("; ") if split.problem else []) == problems
    assert split.body == "# T\n"
