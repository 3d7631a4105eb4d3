"""The answer-first reply as Block Kit, from hand-made `Answer` values (no index needed)."""

from __future__ import annotations

import json

import pytest
from rich.console import Console

from bot.blocks.answer import ANSWER_CHARS, answer_blocks, answer_text
from bot.blocks.reply import Reply
from bot.blocks.visible import first_screen, visible_text
from bot.cli.terminal import render_reply
from bot.i18n import use_language
from index.model import Answer, AnswerSentence, Card, Fact, Hit, PageRef
from tests.bot.block_kit import assert_valid_blocks

HOSTILE = "<!channel> <@U123> & *bold* <https://evil.example|click>"
SENTENCE = "Ant Group の 6,000 GPU 超の訓練クラスタで 8 ヶ月以上運用された。"


def sentence(text: str = SENTENCE, marks=((12, 21),), **changes) -> AnswerSentence:
    values = dict(
        text=text,
        path="wiki/entities/XPUTimer.md",
        title="XPUTimer",
        section="概要",
        url=None,
        terms=("gpu",),
        marks=tuple(marks),
        confidence=0.9,
    )
    values.update(changes)
    return AnswerSentence(**values)


def hit(i: int, **changes) -> Hit:
    values = dict(
        path=f"wiki/sources/s{i}.md",
        title=f"Source {i}",
        type="source",
        score=10.0 - i,
        snippet=f"passage {i}",
        section="概要",
        url=None,
    )
    values.update(changes)
    return Hit(**values)


def answer(**changes) -> Answer:
    values = dict(
        question="XPUTimer は何 GPU の本番クラスタで動いた?",
        sentences=(sentence(),),
        confident=True,
        subject="wiki/entities/XPUTimer.md",
        passages=(),
        pages=(hit(0, path="wiki/entities/XPUTimer.md", title="XPUTimer"), *(hit(i) for i in range(1, 6))),
        language="ja",
    )
    values.update(changes)
    return Answer(**values)


def card(**changes) -> Card:
    values = dict(
        path="wiki/entities/XPUTimer.md",
        title="XPUTimer",
        type="entity",
        summary="分散 LLM 訓練のためのリアルタイム異常診断フレームワーク。\n二行目",
        groups=(),
        backlinks=(),
        entity_type="product",
    )
    values.update(changes)
    return Card(**values)


def runs(block: dict) -> list[dict]:
    return [run for section in block["elements"] for run in section["elements"]]


def test_the_answer_comes_first_with_its_key_words_in_bold_as_rich_text():
    blocks = answer_blocks(answer())
    assert_valid_blocks(blocks)
    assert blocks[0]["type"] == "rich_text"
    bold = [run["text"] for run in runs(blocks[0]) if run.get("style", {}).get("bold")]
    assert bold == ["6,000 GPU"]
    text = "".join(run["text"] for run in runs(blocks[0]))
    assert text.startswith(SENTENCE) and "*" not in text
    assert first_screen(blocks).startswith(first_screen([blocks[0]]))


def test_the_citation_links_the_page_or_offers_its_card():
    linked = answer_blocks(answer(sentences=(sentence(url="https://w.example/XPUTimer"),)))
    links = [run for run in runs(linked[0]) if run["type"] == "link"]
    assert links == [
        {"type": "link", "url": "https://w.example/XPUTimer", "text": "XPUTimer", "style": {"italic": True}}
    ]
    assert "— XPUTimer § 概要" in visible_text(linked[:1])
    unlinked = answer_blocks(answer())
    assert unlinked[1]["type"] == "actions"
    assert unlinked[1]["elements"][0]["value"] == "wiki/entities/XPUTimer.md"


def test_supporting_passages_are_other_pages_and_at_most_three():
    blocks = answer_blocks(answer())
    shown = [b["accessory"]["value"] for b in blocks if b["type"] == "section" and "accessory" in b]
    assert shown[:3] == ["wiki/sources/s1.md", "wiki/sources/s2.md", "wiki/sources/s3.md"]
    assert "wiki/entities/XPUTimer.md" not in shown[:3]


def test_the_subject_is_one_line_with_a_card_button_not_the_card():
    blocks = answer_blocks(answer(), card())
    assert not any(block["type"] == "header" for block in blocks)
    last = blocks[-1]
    assert last["type"] == "section" and last["accessory"]["value"] == "wiki/entities/XPUTimer.md"
    assert (
        last["text"]["text"]
        == "*XPUTimer* · product · 分散 LLM 訓練のためのリアルタイム異常診断フレームワーク。"
    )


@pytest.mark.parametrize(
    ("language", "inverse", "line"),
    [
        ("ja", False, "ByteDance — Minder の開発元"),
        ("en", False, "ByteDance — developer of Minder"),
        ("ja", True, "ByteDance — 開発元: Minder"),
    ],
)
def test_a_relation_reads_target_then_relation(language, inverse, line):
    fact = Fact(
        PageRef("Minder", "wiki/entities/Minder.md", "entity"),
        "開発元",
        (PageRef("ByteDance", "wiki/entities/ByteDance.md", "entity"),),
        inverse,
    )
    blocks = answer_blocks(answer(fact=fact, sentences=(), language=language))
    assert visible_text(blocks[:1]).strip() == line
    assert [run["text"] for run in runs(blocks[0]) if run.get("style", {}).get("bold")] == ["ByteDance"]
    assert answer_text(answer(fact=fact, language=language)) == line


def test_more_sentences_only_while_they_fit():
    long = sentence("長" * (ANSWER_CHARS - 10), marks=())
    blocks = answer_blocks(answer(sentences=(long, sentence(), sentence("三つ目。", marks=()))))
    assert len(blocks[0]["elements"]) == 1
    short = answer_blocks(answer(sentences=(sentence(), sentence("二つ目の文。", marks=()))))
    assert len(short[0]["elements"]) == 2


@pytest.mark.parametrize(
    ("language", "said"),
    [
        ("en", "The wiki does not say “What does a banana cost?”."),
        ("ja", "「What does a banana cost?」は Wiki に書かれていません。"),
    ],
)
def test_a_part_of_the_question_the_wiki_does_not_state_is_said_under_the_answer(language, said):
    with use_language(language):
        blocks = answer_blocks(answer(unanswered=("What does a banana cost?",)))
    assert_valid_blocks(blocks)
    text = visible_text(blocks)
    assert said in text and text.index(SENTENCE) < text.index("Source 1") < text.index(said)
    assert said not in visible_text(answer_blocks(answer()))


def test_a_weak_answer_says_so_and_shows_the_closest_pages():
    blocks = answer_blocks(answer(confident=False, sentences=()))
    assert_valid_blocks(blocks)
    assert not any(block["type"] == "rich_text" for block in blocks)
    assert first_screen(blocks).startswith("the wiki does not answer “xputimer")
    assert "Source 1" in visible_text(blocks)
    assert answer_text(answer(confident=False, sentences=())).startswith("No direct answer")


def test_nothing_found():
    blocks = answer_blocks(answer(confident=False, sentences=(), pages=(), subject=None))
    assert "could not find anything" in visible_text(blocks)


def test_hostile_wiki_text_is_literal_in_rich_text_and_escaped_in_mrkdwn():
    evil = sentence(HOSTILE * 3, marks=((0, 10),), title=HOSTILE, section=HOSTILE)
    pages = tuple(hit(i, title=HOSTILE, snippet=HOSTILE * 40) for i in range(5))
    blocks = answer_blocks(
        answer(sentences=(evil,), pages=pages, question=HOSTILE), card(title=HOSTILE, summary=HOSTILE)
    )
    assert_valid_blocks(blocks)
    mrkdwn = json.dumps([b for b in blocks if b["type"] != "rich_text"], ensure_ascii=False)
    assert "<!channel>" not in mrkdwn and "<https://evil" not in mrkdwn
    assert all(run["type"] == "text" for run in runs(blocks[0]) if "evil" in run.get("text", ""))


def test_the_terminal_shows_the_answer_with_its_bold_and_links():
    blocks = answer_blocks(answer(sentences=(sentence(url="https://w.example/XPUTimer"),)))
    console = Console(record=True, width=200, color_system="standard")
    render_reply(Reply("t", tuple(blocks)), console)
    plain = console.export_text(clear=False)
    assert plain.splitlines()[0] == f"{SENTENCE} — XPUTimer (https://w.example/XPUTimer) § 概要"
    assert "'type'" not in plain
    styled = console.export_text(styles=True)
    assert "\x1b[1m6,000 GPU" in styled
