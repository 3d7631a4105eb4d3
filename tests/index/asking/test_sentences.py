"""Which sentence answers (`index.asking.sentences`), on a small wiki of a harbour: numbers in words
and counters, names asked as "called", differences told without naming both things, and a thing the
question names only as the setting of what it asks."""

from __future__ import annotations

import pytest

from index.wiki import Wiki
from tests.vaults import entity, write_vault

HARBOUR = {
    "wiki/entities/Portwell.md": entity(
        "Portwell",
        body=(
            "A fishing town on the north coast.\n\n## Quays\n\n"
            "The port runs four gantry cranes along the east quay.\n"
            "The harbour master kept two cats, named Biscuit and Anchor.\n"
        ),
    ),
    "wiki/entities/Harbour Cup.md": entity(
        "Harbour Cup",
        body=(
            "A yearly rowing race between the fishing crews.\n\n## Scoring\n\n"
            "Crews are ranked by a public ballot of the spectators.\n\n## Related\n\n- [[Portwell]]\n"
        ),
    ),
    "wiki/entities/港湾フォーラム.md": entity(
        "港湾フォーラム",
        body="港の将来を話し合う公開の会合。\n\n## 第1回\n\n会場は市民ホールで、参加者は 120 名だった。\n",
    ),
    "wiki/entities/潮見館.md": entity(
        "潮見館",
        body="港の歴史を伝える資料館。\n\n## 展示\n\n"
        "嵐の夜の航海を疑似体験できる展示として「[[荒天ブリッジ]]」がある。\n",
    ),
    "wiki/entities/荒天ブリッジ.md": entity("荒天ブリッジ", body="潮見館の体験型の展示。"),
    "wiki/concepts/漏れ検査.md": entity(
        "漏れ検査",
        kind="concept",
        body="## 方法\n\n一時ファイルの漏れは件数の差ではなくパスの集合差 (comm -13) で調べる。\n",
    ),
}


@pytest.fixture(scope="module")
def wiki(tmp_path_factory: pytest.TempPathFactory) -> Wiki:
    root = write_vault(tmp_path_factory.mktemp("vault"), HARBOUR)
    built = Wiki.open(root, tmp_path_factory.mktemp("index"))
    built.update()
    return built


@pytest.mark.parametrize(
    ("question", "says"),
    [
        # a number in words counts with the unit asked after it
        ("How many gantry cranes does Portwell run?", "four gantry cranes"),
        # an English count in Japanese prose is said with a counter
        ("How many people attended 港湾フォーラム?", "120 名"),
        # "what … called", 何て名前: a name is asked
        ("What were the harbour master's cats called?", "Biscuit"),
        ("潮見館で嵐の航海を疑似体験できる展示って何て名前だっけ？", "荒天ブリッジ"),
        # a difference with nothing named: the sentence that contrasts (ではなく) answers it
        ("一時ファイルの漏れは件数の差ではなく何で比べる？", "comm -13"),
    ],
)
def test_the_sentence_that_answers(wiki: Wiki, question: str, says: str) -> None:
    answer = wiki.answer(question)
    assert answer.confident, question
    assert says in answer.sentences[0].text, [sentence.text for sentence in answer.sentences]


def test_a_page_linking_to_what_the_question_names_answers_about_it(wiki: Wiki) -> None:
    """Portwell only sets the scene: the race's page, which links to it, says how crews are ranked
    without repeating its name."""
    answer = wiki.answer("In the Portwell rowing race, how are crews ranked?")
    assert answer.confident and answer.sentences[0].path == "wiki/entities/Harbour Cup.md"


def test_a_number_in_words_without_the_unit_asked_is_no_count(wiki: Wiki) -> None:
    """*two* cats do not answer how many cranes: a word number counts only with its unit."""
    answer = wiki.answer("How many gantry cranes does Portwell run?")
    assert all("cats" not in sentence.text for sentence in answer.sentences)
