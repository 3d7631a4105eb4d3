"""Full-text search in both languages, on a small real vault and a real index."""

from __future__ import annotations

import pytest

from index.analysis import tokenize
from index.search import best_passage, plan_question
from index.wiki import Wiki
from tests.vaults import SMALL_VAULT, write_vault


@pytest.fixture(scope="module")
def wiki(tmp_path_factory: pytest.TempPathFactory) -> Wiki:
    root = write_vault(tmp_path_factory.mktemp("vault"), SMALL_VAULT)
    built = Wiki.open(root, tmp_path_factory.mktemp("index"))
    built.update()
    return built


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("Minder を開発したのはどこ?", {"wiki/entities/Minder.md", "wiki/entities/ByteDance.md"}),
        ("Who developed Minder?", {"wiki/entities/Minder.md", "wiki/entities/ByteDance.md"}),
        ("which system diagnoses CCL hangs?", {"wiki/concepts/集合通信.md"}),
        (
            "障害マシンを検出する仕組み",
            {"wiki/entities/Minder.md", "wiki/sources/@2025__NSDI__Minder - Faulty Machine Detection.md"},
        ),
        ("異常検知とは", {"wiki/concepts/異常検知.md"}),
        ("ＭＥＧＡＳＣＡＬＥ", {"wiki/entities/MegaScale.md"}),
        ("1 万 GPU で訓練する本番システム", {"wiki/entities/MegaScale.md"}),
    ],
)
def test_questions_find_a_page_holding_the_answer_in_the_top_three(
    wiki: Wiki, question: str, expected: set[str]
) -> None:
    top = [hit.path for hit in wiki.search(question, limit=3).hits]
    assert expected & set(top), top


def test_hits_carry_the_best_passage(wiki: Wiki) -> None:
    hit = wiki.search("障害マシン 検出", limit=1).hits[0]
    assert "障害マシン" in hit.snippet and len(hit.snippet) <= 220


def test_names_in_the_question_are_reported(wiki: Wiki) -> None:
    result = wiki.search("Minder を開発したのは?")
    assert [entity.path for entity in result.entities] == ["wiki/entities/Minder.md"]


@pytest.mark.parametrize(
    ("query", "found"),
    [
        ('"unbalanced', None),
        ("*", None),
        ("AND OR NOT", None),
        ("title:(x", None),
        ("<!channel>", None),
        ("a" * 5000, None),
        ("の" * 5000, None),
        ("", None),
        ("   ", None),
        ("?!", None),
        ("title:(Minder", "wiki/entities/Minder.md"),
        ('"Minder', "wiki/entities/Minder.md"),
        ("Minder*", "wiki/entities/Minder.md"),
        ("NOT Minder", "wiki/entities/Minder.md"),
        ("MegaScale OR", "wiki/entities/MegaScale.md"),
    ],
)
def test_anything_typed_is_text_never_syntax(wiki: Wiki, query: str, found: str | None) -> None:
    """Query syntax is read as text: alone it matches nothing, beside a name it is ignored (as
    syntax, ``NOT Minder`` would exclude the Minder page and ``title:(`` would be an error)."""
    result = wiki.search(query)
    assert result.query == query
    paths = [hit.path for hit in result.hits]
    assert (paths == []) if found is None else (found in paths)


@pytest.mark.parametrize(
    ("text", "tokens"),
    [
        ("ByteDanceの訓練", ["bytedance", "の訓", "訓練"]),
        ("異常検知", ["異常", "常検", "検知"]),
        ("ＧＰＵクラスタ", ["gpu", "クラ", "ラス", "スタ"]),
        ("v2 で Flare", ["v2", "で", "flare"]),
        ("ｶﾀｶﾅ", ["カタ", "タカ", "カナ"]),
    ],
)
def test_tokenizer_words_and_bigrams(text: str, tokens: list[str]) -> None:
    assert [token.text for token in tokenize(text)] == tokens


def test_question_plan_drops_function_words(wiki: Wiki) -> None:
    from index.names import NameTable

    plan = plan_question("Minder を開発したのはどこ?", NameTable()).plan
    assert "開発" in plan.terms and "した" not in plan.terms and "のは" not in plan.terms
    english = plan_question("which system diagnoses CCL hangs?", NameTable()).plan
    assert english.terms == ("system", "diagnoses", "ccl", "hangs")


def test_best_passage_prefers_the_sentence_with_most_terms() -> None:
    text = "最初の文。障害マシンを検出する文。最後の文。"
    assert best_passage(text, ("障害", "検出")).startswith("障害マシンを検出する文。")
