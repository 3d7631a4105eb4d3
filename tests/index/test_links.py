from __future__ import annotations

import pytest

from index.links import LinkResolver, find_links
from index.model import Link


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
    ],
)
def test_link_grammar(text: str, expected: list[Link]) -> None:
    assert list(find_links(text)) == expected


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
