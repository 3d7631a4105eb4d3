"""A watched page's change message, in both languages, and App Home's list (bot/blocks/watches.py)."""

from __future__ import annotations

import pytest

from bot.blocks.watches import change_reply, home_watch_blocks
from bot.i18n import use_language
from index import PageChange

PATH = "wiki/entities/ByteDance.md"


@pytest.mark.parametrize(
    ("language", "change", "lines"),
    [
        (
            "en",
            PageChange("ByteDance", added=(("関連プロダクト", "Doubao"),), paths=(PATH, PATH)),
            [
                "*<https://wiki.example/ByteDance|ByteDance>* changed in the wiki",
                "related product: added *Doubao*",
            ],
        ),
        (
            "ja",
            PageChange(
                "ByteDance",
                removed=(("関連プロダクト", "Minder"), ("関連プロダクト", "MegaScale")),
                new_sources=("@2026 Paper",),
                paths=(PATH, PATH),
            ),
            ["関連プロダクト: *Minder*, *MegaScale* を削除", "新たにリンクされたソース: *@2026 Paper*"],
        ),
        (
            "en",
            PageChange(
                "ByteDance", renamed_to="ByteDance Ltd", paths=(PATH, "wiki/entities/ByteDance Ltd.md")
            ),
            ["ByteDance Ltd", "Renamed from ByteDance"],
        ),
        (
            "en",
            PageChange("A <b>", deleted=True, paths=("wiki/a.md", None)),
            ["*A &lt;b&gt;* was removed from the wiki"],
        ),
    ],
    ids=["added", "removed-and-sources", "renamed", "removed-page"],
)
def test_the_change_message_says_what_changed(language: str, change: PageChange, lines: list[str]) -> None:
    with use_language(language):  # type: ignore[arg-type]
        reply = change_reply(
            change, None if change.deleted else "https://wiki.example/ByteDance", "C0GENERAL"
        )
    shown = str(reply.blocks)
    assert all(line in shown for line in lines), shown
    assert reply.metadata == {
        "event_type": "sakuin_page_change",
        "event_payload": {"path": change.paths[0], "path_now": change.paths[1], "channel": "C0GENERAL"},
    }


def test_app_home_lists_nothing_without_watches() -> None:
    assert home_watch_blocks({}) == []
    with use_language("en"):
        blocks = home_watch_blocks({"C1": ["A", "B <c>"]})
    assert blocks[1]["text"]["text"] == "<#C1>: A, B &lt;c&gt;"
