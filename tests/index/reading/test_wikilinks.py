from __future__ import annotations

import time

import pytest

from index.model import Link
from index.reading.wikilinks import LAYERS, LinkResolver, find_links, strip_code, strip_comments


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("see [[ByteDance]]", [Link("ByteDance")]),
        (
            "[[University of Chinese Academy of Sciences|UCAS]]",
            [Link("University of Chinese Academy of Sciences", "UCAS")],
        ),
        ("| [[Minder\\|マインダー]] |", [Link("Minder", "マインダー")]),
        ("[[ByteDance#概要]] and [[MegaScale#^abc123]]", [Link("ByteDance"), Link("MegaScale")]),
        ("[[wiki/entities/ByteDance|ByteDance]]", [Link("wiki/entities/ByteDance", "ByteDance")]),
        ("[[@2024__NSDI__MegaScale - Scaling]]", [Link("@2024__NSDI__MegaScale - Scaling")]),
        ("![[_attachments/x/fig01.png|300]] ![[f.png]]", []),
        ("[[.raw/papers/x.pdf]] [[index]] [[log]]", []),
        ("`[[InlineCode]]` and [[Real]]", [Link("Real")]),
        ("```\n[[Fenced]]\n```\n[[After]]", [Link("After")]),
        ("[[データベース.md]]", [Link("データベース")]),
        ("[[ テ\u3099ータ ]]", [Link("データ")]),
        ("`a\n\n[[AfterBlankLine]]\n\nb`", [Link("AfterBlankLine")]),
        ("``[[Double]]`` ` [[Single]] ``", [Link("Single")]),
    ],
)
def test_link_grammar(text: str, expected: list[Link]) -> None:
    assert list(find_links(text)) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        pytest.param("公開 %%secret token%% の話", "公開  の話", id="obsidian-inline"),
        pytest.param("前\n%%\nreviewer: 未確認\nxoxb-1\n%%\n後", "前\n\n後", id="obsidian-block"),
        pytest.param("a <!-- hidden --> b", "a  b", id="html-inline"),
        pytest.param("a\n<!--\nline 1\nline 2\n-->\nb", "a\n\nb", id="html-block"),
        pytest.param("a %%one%% b %%two%% c", "a  b  c", id="two-comments"),
        pytest.param("a %% `x %%` b", "a ` b", id="a-comment-ends-at-its-first-closing-mark"),
        pytest.param("use `%%x%%` or `<!-- -->`", "use `%%x%%` or `<!-- -->`", id="inside-inline-code"),
        pytest.param(
            "```\n%%kept%%\n<!-- kept -->\n```\n%%gone%%", "```\n%%kept%%\n<!-- kept -->\n```\n", id="fence"
        ),
        pytest.param("kept %% never closed\nsecret", "kept ", id="unclosed-runs-to-the-end"),
        pytest.param("kept <!-- never closed", "kept ", id="unclosed-html"),
        pytest.param(
            "100% sure, <!channel> <b>bold</b> -->", "100% sure, <!channel> <b>bold</b> -->", id="no-comment"
        ),
        pytest.param("it`s %%secret%%\n\nit`s", "it`s \n\nit`s", id="backticks-in-two-paragraphs"),
    ],
)
def test_comments_are_dropped_outside_code(text: str, expected: str) -> None:
    assert strip_comments(text) == expected


def test_code_and_comments_are_found_in_linear_time() -> None:
    """Backtick runs of 2,000 lengths, none closed: a regex trying each run against the rest of the
    text took 12 s for 32 KB of them and 280 s for 126 KB."""
    text = "".join("`" * length + " x %% " for length in range(1, 2000))
    started = time.process_time()  # this process's CPU: other work on the machine does not count
    assert strip_code(text) == text and "%%" not in strip_comments(text)
    assert time.process_time() - started < 2.0


PAGES = [
    ("wiki/entities/ByteDance.md", "ByteDance", ("バイトダンス",)),
    ("wiki/concepts/ByteDance.md", "ByteDance (concept)", ()),
    ("wiki/sources/@2024__NSDI__MegaScale.md", "MegaScale", ()),
    ("wiki/briefs/@2024__NSDI__MegaScale.md", "紹介: MegaScale", ()),
    ("papers/Minder.md", "Minder paper", ()),
    ("wiki/entities/Minder.md", "Minder", ()),
    ("wiki/components/Tidal.md", "Tidal", ()),
    ("wiki/entities/products/Tidal.md", "Tidal", ()),
    ("wiki/concepts/Loom.md", "Loom", ()),
    ("wiki/sources/training/deep/Loom.md", "Loom", ()),
]


@pytest.mark.parametrize(
    ("target", "expected"),
    [
        ("ByteDance", "wiki/entities/ByteDance.md"),
        ("bytedance", "wiki/entities/ByteDance.md"),
        ("ＢｙｔｅＤａｎｃｅ", "wiki/entities/ByteDance.md"),
        ("バイトダンス", "wiki/entities/ByteDance.md"),
        ("wiki/concepts/ByteDance", "wiki/concepts/ByteDance.md"),
        ("concepts/ByteDance", "wiki/concepts/ByteDance.md"),
        ("@2024__NSDI__MegaScale", "wiki/sources/@2024__NSDI__MegaScale.md"),
        ("wiki/briefs/@2024__NSDI__MegaScale", "wiki/briefs/@2024__NSDI__MegaScale.md"),
        ("Minder", "wiki/entities/Minder.md"),
        ("papers/Minder", "papers/Minder.md"),
        ("Tidal", "wiki/entities/products/Tidal.md"),
        ("components/Tidal", "wiki/components/Tidal.md"),
        ("Loom", "wiki/sources/training/deep/Loom.md"),
        ("Nobody", None),
    ],
)
def test_resolution_order(target: str, expected: str | None) -> None:
    assert LinkResolver(PAGES).resolve(target) == expected


def test_a_copy_and_its_original_change_apart_however_many_copies_came_before() -> None:
    """Each edit copies the resolver: over more copies than it layers, the writer's copy and the
    readers' original never see each other's changes, and both resolve as a fresh resolver would."""
    pages = {f"wiki/entities/Page {n}.md": (f"Page {n}", (f"Alias {n}",)) for n in range(5)}
    current = LinkResolver((path, title, aliases) for path, (title, aliases) in pages.items())
    for step in range(3 * LAYERS):
        original, current = current, current.copy()
        gone = f"wiki/entities/Page {step % 5}.md"
        current.remove(gone)
        current.add(f"wiki/entities/New {step}.md", f"New {step}", (f"Alias {step % 5}",))
        original.add("wiki/entities/Reader side.md", "Reader side", ())  # never seen by the copy
        assert "wiki/entities/Reader side.md" not in current
        assert original.resolve(f"New {step}") is None and current.resolve(f"New {step}") is not None
        pages.pop(gone, None)
        pages[f"wiki/entities/New {step}.md"] = (f"New {step}", (f"Alias {step % 5}",))
        fresh = LinkResolver((path, title, aliases) for path, (title, aliases) in pages.items())
        for target in [*(f"Page {n}" for n in range(5)), *(f"Alias {n}" for n in range(5)), f"New {step}"]:
            assert current.resolve(target) == fresh.resolve(target), (step, target)
        assert current.resolve("entities/Page 4") == fresh.resolve("entities/Page 4")


def test_aliases_given_as_an_iterator_are_read_once_for_every_table() -> None:
    resolver = LinkResolver([("wiki/entities/Acme.md", "Acme", iter(["Acme Corp"]))])
    resolver.add("wiki/entities/Beta.md", "Beta", iter(["Beta Labs"]))
    assert resolver.resolve("Acme Corp") == "wiki/entities/Acme.md"
    assert resolver.resolve("beta labs") == "wiki/entities/Beta.md"
