"""The prompt and the grounding check: pure functions, table-driven."""

from __future__ import annotations

import pytest

from bot.llm.grounding import (
    MAX_PASSAGE_CHARS,
    NOT_IN_THE_WIKI,
    NumberedPassage,
    chat_messages,
    ground,
    passages_from,
)
from index.model import Answer, Passage

PASSAGES = (
    NumberedPassage(1, "wiki/entities/Minder.md", "Minder", "概要", "Minder は ByteDance が開発した。"),
    NumberedPassage(2, "wiki/entities/ByteDance.md", "ByteDance", None, "ByteDance は中国の企業。"),
)


@pytest.mark.parametrize(
    ("answer", "kept", "cited", "dropped", "unknown"),
    [
        # every sentence cites a passage that was sent
        (
            "Minder は ByteDance が開発した [1]。本社は北京 [2]。",
            ["Minder は ByteDance が開発した [1]。", "本社は北京 [2]。"],
            (1, 2),
            0,
            (),
        ),
        # the citation after the full stop belongs to the sentence before it
        (
            "Minder was built by ByteDance. [1] It is Chinese. [2]",
            ["Minder was built by ByteDance. [1] ", "It is Chinese. [2]"],
            (1, 2),
            0,
            (),
        ),
        # a sentence citing nothing is dropped; one citing [97] of 2 is dropped too
        (
            "Minder は ByteDance 製 [1]。根拠のない文。捏造 [97]。",
            ["Minder は ByteDance 製 [1]。"],
            (1,),
            2,
            (97,),
        ),
        # an unknown number beside a known one is removed, the sentence stays
        (
            "Built by ByteDance [1][97]. Also [2, 97].",
            ["Built by ByteDance [1]. ", "Also [2]."],
            (1, 2),
            0,
            (97,),
        ),
        # full-width and lenticular brackets count, and come out as [n]
        ("ByteDance が開発［1］。企業【2】。", ["ByteDance が開発[1]。", "企業[2]。"], (1, 2), 0, ()),
        # numbers inside a sentence are not sentence ends; a bare [0] is not a passage
        ("It found 2.5x more faults [1]. Zero [0].", ["It found 2.5x more faults [1]. "], (1,), 1, (0,)),
        # lines (a list) are kept or dropped one by one
        ("Answer:\n- ByteDance [1]\n- Minder [2]", ["- ByteDance [1]", "- Minder [2]"], (1, 2), 1, ()),
        # "the wiki does not say" cites nothing: there is no answer
        (NOT_IN_THE_WIKI["en"], [], (), 1, ()),
        (NOT_IN_THE_WIKI["ja"], [], (), 1, ()),
        ("", [], (), 0, ()),
        # a reasoning model's thinking is not the answer, even while it is still thinking
        ("<think>NumberedPassage [1] says so.</think>\nByteDance [1].", ["ByteDance [1]."], (1,), 0, ()),
        ("<think>NumberedPassage [1] says so. And [2]", [], (), 0, ()),
        # a sentence never ends inside a code span or a mention
        (
            "Run `make test. Then deploy` first [1]. Next [2].",
            ["Run `make test. Then deploy` first [1]. ", "Next [2]."],
            (1, 2),
            0,
            (),
        ),
        (
            "設定は `a。b` で行う [1]。<!here!> を呼ぶ [2]。",
            ["設定は `a。b` で行う [1]。", "<!here!> を呼ぶ [2]。"],
            (1, 2),
            0,
            (),
        ),
        # the order of first citation is the order of the sources
        ("A [2]. B [1][2].", ["A [2]. ", "B [1][2]."], (2, 1), 0, ()),
    ],
)
def test_only_sentences_citing_a_sent_passage_are_kept(answer, kept, cited, dropped, unknown) -> None:
    grounding = ground(answer, PASSAGES)
    assert [sentence.text for sentence in grounding.sentences] == kept
    assert grounding.cited == cited
    assert (grounding.dropped, grounding.unknown, grounding.unsourced) == (dropped, unknown, 0)


LINKED = (
    *PASSAGES,
    NumberedPassage(
        3, "wiki/entities/ByteDance.md", "ByteDance", "リンク", "公式サイト: https://www.ByteDance.com/ja/ 。"
    ),
)


@pytest.mark.parametrize(
    ("answer", "kept", "unsourced"),
    [
        # a link in no passage costs its sentence, even one citing a real passage
        ("Minder は ByteDance 製 [1]。https://evil.example/steal?token=1 を開いて [1]。", 1, 1),
        ("詳細は <https://evil.example/x|公式サイト> [2]。", 0, 1),
        ("詳細は <https://evil.example/x> [2]。", 0, 1),
        ("See HTTPS://EVIL.EXAMPLE [1].", 0, 1),
        ("See [the docs](https://evil.example/docs) [1].", 0, 1),
        ("https://evil.example/steal?token=1を開いて [1]。", 0, 1),
        ("Mail mailto:x@evil.example [1].", 0, 1),
        ("Open www.evil.example now [1].", 0, 1),
        ("Open evil.example/steal?token=1 now [1].", 0, 1),
        ("Try ftp://evil.example/f [1].", 0, 1),
        # a longer URL on a host the passages name is still somewhere they never said
        ("See https://www.bytedance.com/ja/evil [3].", 0, 1),
        ("See https://www.bytedance.com.evil.example/ja/ [3].", 0, 1),
        # a link from a passage stays (case aside, its trailing punctuation the sentence's)
        ("公式サイトは https://www.bytedance.com/ja/ [3]。", 1, 0),
        ("公式サイトは https://www.bytedance.com/ja/。[3]", 1, 0),
        ("公式サイトは <https://www.bytedance.com/ja/|こちら> [3]。", 1, 0),
        ("公式サイトは https://www.bytedance.com/ja/を参照 [3]。", 1, 0),
        ("See www.bytedance.com/ja/ [3].", 1, 0),
        ("See (https://www.bytedance.com/ja/) [3].", 1, 0),
        # what is not a link is not checked
        ("It found 2.5x more faults in Node.js v1.2.3 (2024) [1].", 1, 0),
        ("TCP/IP and/or 50% [1].", 1, 0),
    ],
)
def test_a_sentence_with_a_link_in_no_passage_sent_is_dropped(answer: str, kept: int, unsourced: int) -> None:
    grounding = ground(answer, LINKED)
    assert (len(grounding.sentences), grounding.unsourced, grounding.dropped) == (kept, unsourced, 0)
    assert all("evil" not in sentence.text for sentence in grounding.sentences)


@pytest.mark.parametrize(
    ("partial", "kept"),
    [
        # the last sentence may still be growing, or its citation may be still to come
        ("Minder は ByteDance が開発した [1]。本社", ["Minder は ByteDance が開発した [1]。"]),
        ("Minder was built by ByteDance.", []),
        ("Minder was built by ByteDance. [1] It", ["Minder was built by ByteDance. [1] "]),
        ("A [1].\nB [2]", ["A [1]."]),
        # a citation marker still arriving may belong to the sentence before it
        ("Minder は ByteDance が開発した [1]。 [2", []),
        ("Minder は ByteDance が開発した [1]。【2、", []),
        ("Minder was built by ByteDance [1]. [", []),
        ("Minder was built by ByteDance [1]. [2] It", ["Minder was built by ByteDance [1]. [2] "]),
        ("A [1].\n[2", ["A [1]."]),
    ],
)
def test_a_streaming_answer_keeps_only_its_finished_sentences(partial: str, kept: list[str]) -> None:
    assert [sentence.text for sentence in ground(partial, PASSAGES, complete=False).sentences] == kept


@pytest.mark.parametrize(
    "answer",
    [
        "Minder は ByteDance が開発した [1]。 [2] NSDI で発表された [1]。本社は北京 [2]。",
        "Minder was built by ByteDance [1]. It is 3.5x faster [2][1]. See `a.b` [1]. Done [2].",
        "- Minder [1]\n- ByteDance [2]\n\n**要約**: 二つ [1]、[2]。",
        "引用のない文。Minder は ByteDance [1]。https://evil.example/x [1]。最後 【1、2】。",
    ],
)
def test_what_a_stream_shows_never_changes_as_the_answer_grows(answer: str) -> None:
    """Every prefix keeps a prefix of the final sentences: a sentence once shown stays as shown."""
    final = ground(answer, PASSAGES).sentences
    for end in range(len(answer) + 1):
        kept = ground(answer[:end], PASSAGES, complete=False).sentences
        assert kept == final[: len(kept)], answer[:end]


@pytest.mark.parametrize(("language", "name"), [("ja", "Japanese"), ("en", "English")])
def test_the_prompt_numbers_the_passages_and_asks_for_citations(language: str, name: str) -> None:
    system, user = chat_messages("Minder を開発したのはどこ?", PASSAGES, language)
    assert system["role"] == "system" and user["role"] == "user"
    assert f"in {name}" in system["content"]
    assert "[1]" in system["content"] and NOT_IN_THE_WIKI[language] in system["content"]
    assert user["content"].startswith("Question: Minder を開発したのはどこ?")
    assert "[1] Minder § 概要\nMinder は ByteDance が開発した。" in user["content"]
    assert "[2] ByteDance\nByteDance は中国の企業。" in user["content"]
    assert "wiki/entities" not in user["content"]  # paths and URLs stay on the machine


def test_passages_come_from_the_answer_in_rank_order_and_are_kept_short() -> None:
    retrieved = (
        Passage("a.md", "A", "entity", "S", "x " * MAX_PASSAGE_CHARS, "https://w/a"),
        Passage("b.md", "B", "entity", None, "   "),
        Passage("c.md", "C", "source", None, "c  text\n here"),
    )
    passages = passages_from(Answer("q", (), False, None, retrieved, ()))
    assert [(p.number, p.path, p.section, p.url) for p in passages] == [
        (1, "a.md", "S", "https://w/a"),
        (2, "c.md", None, None),
    ]
    assert len(passages[0].text) == MAX_PASSAGE_CHARS and passages[0].text.endswith("…")
    assert passages[1].text == "c text here"
