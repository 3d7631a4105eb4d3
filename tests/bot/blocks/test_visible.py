"""The first-screen measure: what a person reads of a message, in order."""

from __future__ import annotations

import pytest

from bot.blocks.visible import first_screen, visible_text

CASES = [
    ("header", [{"type": "header", "text": {"type": "plain_text", "text": "A &amp; B"}}], "A & B"),
    (
        "section link shows its label",
        [{"type": "section", "text": {"type": "mrkdwn", "text": "*<https://x.example/p|Minder>* は"}}],
        "Minder は",
    ),
    (
        "fields after text",
        [
            {
                "type": "section",
                "text": {"type": "mrkdwn", "text": "a"},
                "fields": [{"type": "mrkdwn", "text": "b"}, {"type": "plain_text", "text": "c"}],
            }
        ],
        "a\nb\nc",
    ),
    (
        "context text, not images",
        [
            {
                "type": "context",
                "elements": [
                    {"type": "image", "image_url": "https://x.example/i.png", "alt_text": "alt"},
                    {"type": "mrkdwn", "text": "_ctx_"},
                ],
            }
        ],
        "ctx",
    ),
    (
        "rich text bold and links",
        [
            {
                "type": "rich_text",
                "elements": [
                    {
                        "type": "rich_text_section",
                        "elements": [
                            {"type": "text", "text": "XPUTimer は "},
                            {"type": "text", "text": "6,000 GPU", "style": {"bold": True}},
                            {"type": "text", "text": " で動いた — "},
                            {"type": "link", "url": "https://x.example/p", "text": "XPUTimer"},
                        ],
                    }
                ],
            }
        ],
        "XPUTimer は 6,000 GPU で動いた — XPUTimer\n",
    ),
    ("markdown block", [{"type": "markdown", "text": "**Minder** [page](https://x)"}], "Minder page"),
    (
        "controls are not text",
        [
            {"type": "divider"},
            {
                "type": "actions",
                "elements": [{"type": "button", "text": {"type": "plain_text", "text": "Card"}}],
            },
        ],
        "",
    ),
]


@pytest.mark.parametrize(("blocks", "expected"), [(b, e) for _, b, e in CASES], ids=[c[0] for c in CASES])
def test_visible_text(blocks: list[dict], expected: str) -> None:
    assert visible_text(blocks) == expected


def test_first_screen_folds_and_cuts() -> None:
    blocks = [{"type": "section", "text": {"type": "mrkdwn", "text": "ＧＰＵ " + "x" * 500}}]
    screen = first_screen(blocks)
    assert screen.startswith("gpu ")
    assert len(screen) == 400
