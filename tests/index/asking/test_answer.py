"""The answer step (`Wiki.answer`) on the example vault's real index: relations, sentences, or no answer."""

from __future__ import annotations

import pytest

from index.wiki import Wiki
from tests.conftest import EXAMPLE_VAULT


@pytest.fixture(scope="module")
def wiki(tmp_path_factory: pytest.TempPathFactory) -> Wiki:
    built = Wiki.open(EXAMPLE_VAULT, tmp_path_factory.mktemp("index"))
    built.update()
    return built


@pytest.mark.parametrize(
    ("question", "label", "targets", "inverse"),
    [
        ("Minder を開発したのはどこ?", "開発元", ["ByteDance"], False),
        (
            "who developed XPUTimer?",
            "開発元",
            ["Ant Group", "Shanghai Jiao Tong University", "National University of Singapore"],
            False,
        ),
        (
            "ByteDance の共同研究先は?",
            "共同研究先",
            ["Nankai University", "The Chinese University of Hong Kong"],
            False,
        ),
        (
            "Haibin Lin が関わったプロジェクトは?",
            "関連プロダクト",
            ["MegaScale", "Minder", "ByteRobust"],
            False,
        ),
        ("XPUTimer の別名は?", "別名", ["Flare", "XPUTIMER"], False),
        ("ByteDance の関連組織は?", "関連組織", ["ByteDance Seed", "Volcano Engine"], False),
        (
            "ByteDance の関連プロダクトは?",
            "関連プロダクト",
            ["MegaScale", "Minder", "ByteRobust", "Mycroft", "LogPilot"],
            False,
        ),
        # Dingwen Tao's page has no line of projects; CCL-D lists him (Ant Group does too, but is no product)
        ("Dingwen Tao が関わったプロジェクトは?", "関連人物", ["CCL-D"], True),
    ],
)
def test_relations_answer_from_the_graph(
    wiki: Wiki, question: str, label: str, targets: list[str], inverse: bool
) -> None:
    answer = wiki.answer(question)
    assert answer.confident and answer.fact is not None
    assert (answer.fact.label, [t.name for t in answer.fact.targets], answer.fact.inverse) == (
        label,
        targets,
        inverse,
    )


def test_a_relation_comes_with_the_sentence_that_supports_it(wiki: Wiki) -> None:
    answer = wiki.answer("Minder を開発したのはどこ?")
    (sentence,) = answer.sentences
    assert sentence.path == "wiki/entities/Minder.md" and "ByteDance が開発した" in sentence.text


def test_words_beyond_the_relation_keep_only_the_pages_a_sentence_supports(wiki: Wiki) -> None:
    answer = wiki.answer("Shenglin Zhang が責任著者の論文は?")
    assert answer.fact is not None
    assert [t.name for t in answer.fact.targets] == [
        "From Chaos to Clarity: Log-based Kernel Panic Root Cause Analysis for Large-Scale Cloud Services"
    ]
    assert "責任著者" in answer.sentences[0].text


def test_a_relation_nobody_supports_is_no_relation_answer(wiki: Wiki) -> None:
    """Haibin Lin is first author of none of his papers: listing them all would be a wrong answer."""
    assert wiki.answer("Haibin Lin が筆頭著者の論文は?").fact is None


@pytest.mark.parametrize(
    ("question", "page", "says", "bold"),
    [
        ("XPUTimer は何 GPU の本番クラスタで動いた?", None, "6,000 GPU", "6,000 GPU"),
        ("CCL-D で手動診断の時間はどれだけ短くなった?", "wiki/entities/CCL-D.md", "6 分以内", "47〜74"),
        (
            "Which team runs Minder in production?",
            "wiki/entities/Minder.md",
            "High-speed Network チーム",
            "High-speed Network チーム",
        ),
        ("How many GPUs does ByteRobust run on?", "wiki/entities/ByteRobust.md", "20 万 GPU", "20 万 GPU"),
        ("異常検知とは?", "wiki/concepts/異常検知.md", "正常時の振る舞いと異なるパターン", None),
        ("What is root cause analysis?", "wiki/concepts/根本原因分析.md", "根本的な原因", None),
    ],
)
def test_the_sentence_that_answers(
    wiki: Wiki, question: str, page: str | None, says: str, bold: str | None
) -> None:
    answer = wiki.answer(question)
    assert answer.confident and answer.sentences
    first = answer.sentences[0]
    assert says in first.text and (page is None or first.path == page)
    if bold is not None:
        assert bold in [first.text[start:end] for start, end in first.marks]


def test_a_difference_shows_the_sentence_that_compares(wiki: Wiki) -> None:
    answer = wiki.answer("Minder と ByteRobust の違いは?")
    assert (
        answer.confident and "Minder" in answer.sentences[0].text and "ByteRobust" in answer.sentences[0].text
    )
    assert [hit.path for hit in answer.pages[:2]] == [
        "wiki/entities/Minder.md",
        "wiki/entities/ByteRobust.md",
    ]


@pytest.mark.parametrize(
    "question",
    [
        "What is the price of a banana?",
        "Minder の消費電力はどれだけ?",  # Minder's page has numbers, none of them a power draw
        "Who developed FooBar?",
        "XPUTimer は何 TB のメモリを使う?",
    ],
)
def test_a_weak_hit_is_never_dressed_up_as_an_answer(wiki: Wiki, question: str) -> None:
    answer = wiki.answer(question)
    assert not answer.confident and answer.sentences == () and answer.fact is None


def test_a_follow_up_is_about_the_subject_it_is_given(wiki: Wiki) -> None:
    answer = wiki.answer("それは何 GPU で動いた?", subject="wiki/entities/XPUTimer.md")
    assert answer.subject == "wiki/entities/XPUTimer.md"
    assert answer.confident and "6,000 GPU" in answer.sentences[0].text


def test_a_question_naming_a_page_is_about_it_whatever_the_subject_given(wiki: Wiki) -> None:
    answer = wiki.answer("Minder を開発したのはどこ?", subject="wiki/entities/XPUTimer.md")
    assert answer.subject == "wiki/entities/Minder.md"


def test_the_best_passage_of_a_page_not_its_first(wiki: Wiki) -> None:
    """CCL-D's abstract matches the question too; the figure is in its results."""
    answer = wiki.answer("CCL-D で手動診断の時間はどれだけ短くなった?")
    ccld = next(passage for passage in answer.passages if passage.path == "wiki/entities/CCL-D.md")
    assert ccld.section == "実績" and "47〜74 時間" in ccld.text


@pytest.mark.parametrize(
    "question",
    [
        "XPUTimer は何 GPU の本番クラスタで動いた？あとバナナの値段は？",
        "What is the price of a banana, and how many GPUs does ByteRobust run on?",
    ],
)
def test_a_question_of_two_parts_is_answered_for_the_part_the_wiki_states(wiki: Wiki, question: str) -> None:
    """Nothing answers the whole of it; one part is stated, the other nowhere: that part is answered
    (not "the wiki does not answer"), and the other is given back as one the wiki does not state."""
    answer = wiki.answer(question)
    assert answer.confident and len(answer.sentences) == 1
    assert any(figure in answer.sentences[0].text for figure in ("6,000 GPU", "20 万 GPU"))
    assert [("banana" in part or "バナナ" in part) for part in answer.unanswered] == [True]
