"""The README's picture (docs/answer.svg, drawn by docs/picture.py): current with the payload the
composer makes today, and drawn as Slack draws a message."""

from __future__ import annotations

import pytest

from docs.picture import PICTURE, QUESTION, Span, current_picture, mrkdwn_spans, render, wrap


def test_the_committed_picture_is_what_the_current_payload_draws() -> None:
    stale = "docs/answer.svg is stale: run make picture"
    assert PICTURE.read_text(encoding="utf-8") == current_picture(), stale


@pytest.mark.parametrize(
    ("text", "spans"),
    [
        ("plain", [Span("plain")]),
        ("*ByteDance* · _人物_", [Span("ByteDance", bold=True), Span(" · "), Span("人物", italic=True)]),
        ("<https://w.example/Minder|Minder> runs", [Span("Minder", link=True), Span(" runs")]),
        ("`sakuin digest` &lt;ok&gt;", [Span("sakuin digest", code=True), Span(" <ok>")]),
        ("*_both_*", [Span("both", bold=True, italic=True)]),
        ("~gone~", [Span("gone", strike=True)]),
    ],
)
def test_mrkdwn_is_read_as_styled_spans(text: str, spans: list[Span]) -> None:
    assert mrkdwn_spans(text) == spans


def test_a_long_line_wraps_between_wide_characters_and_at_spaces() -> None:
    lines = wrap([Span("北京発のテクノロジー企業 " * 6)], 200, 15)
    assert len(lines) > 1 and all(sum(len(s.text) for s in line) <= 14 for line in lines)
    assert wrap([Span("one two three")], 40, 15)[1][0].text == "two "


def message(*blocks: dict) -> dict:
    return {"text": "x", "blocks": list(blocks)}


def test_a_message_draws_bold_links_grey_context_and_outlined_buttons() -> None:
    svg = render(
        QUESTION,
        message(
            {"type": "section", "text": {"type": "mrkdwn", "text": "*Bold* <https://x.example|link>"}},
            {"type": "context", "elements": [{"type": "mrkdwn", "text": "from the wiki"}]},
            {
                "type": "actions",
                "elements": [{"type": "button", "text": {"type": "plain_text", "text": "OK"}}],
            },
        ),
    )
    assert '<tspan font-weight="700">Bold</tspan>' in svg and '<tspan fill="#1264a3">link</tspan>' in svg
    assert 'font-size="13" fill="#616061" xml:space="preserve"><tspan>from the wiki' in svg
    assert 'stroke="#bbbbbb"' in svg and ">OK</tspan>" in svg and ">APP</tspan>" in svg


def test_a_block_it_cannot_draw_is_an_error_not_a_gap() -> None:
    with pytest.raises(ValueError, match="video"):
        render(QUESTION, message({"type": "video"}))
