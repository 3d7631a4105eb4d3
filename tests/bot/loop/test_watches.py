"""Which ``/wiki`` texts are watch subcommands (bot/loop/watches.py)."""

from __future__ import annotations

import pytest

from bot.loop.watches import watch_subcommand


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ("watch ByteDance", ("watch", "ByteDance")),
        ("WATCH  Byte   Dance ", ("watch", "Byte Dance")),
        ("ウォッチ バイトダンス", ("watch", "バイトダンス")),
        ("監視解除 Minder", ("unwatch", "Minder")),
        ("unwatch", ("unwatch", "")),
        ("watching", ("watching", "")),
        ("監視一覧", ("watching", "")),
        ("watchdog timers", None),
        ("ByteDance watch", None),
        ("", None),
    ],
)
def test_watch_subcommand(text: str, found: tuple[str, str] | None) -> None:
    assert watch_subcommand(text) == found
