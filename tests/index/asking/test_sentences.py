"""Which sentence answers (`index.asking.sentences`), on a small wiki of a harbour: numbers in words
and counters, names asked as "called", differences told without naming both things, and a thing the
question names only as the setting of what it asks."""

from __future__ import annotations

import pytest

from index.analysis import fold
from index.asking.mentions import camel_parts
from index.wiki import Wiki
from tests.vaults import entity, write_vault

HARBOUR = {
    "wiki/entities/Portwell.md": entity(
        "Portwell",
        body=(
            "A fishing town on the north coast.\n\n## Quays\n\n"
            "The port runs four gantry cranes along the east quay.\n"
            "The harbour master kept two cats, named Biscuit and Anchor.\n\n## Works\n\n"
            "The Bell Tower was rebuilt in 1890 after the storm. The lighthouse was first lit in 1931.\n"
            "The east quay crane was refitted over 3 weeks in 2019. The refit cost £40,000.\n\n"
            "## People\n\nThe lighthouse keeper loved gulls, feeding them every morning. "
            'He walked the east quay at dawn. His father was a "quayward" (half clerk, half pilot) '
            "who kept the tide books.\n\n## Trade\n\nCrane operators: Hale & Sons, Brant Works\n"
        ),
    ),
    "wiki/entities/Harbour Cup.md": entity(
        "Harbour Cup",
        body=(
            "A yearly rowing race between the fishing crews.\n\n## Scoring\n\n"
            "Crews are ranked by a public ballot of the spectators.\n\n"
            "## How this differs from the Tide Race\n\n"
            "The [[Tide Race]] clocks each crew from the lighthouse. Harbour Cup crews are never clocked.\n\n"
            "## Related\n\n- [[Portwell]]\n"
        ),
    ),
    "wiki/entities/Tide Race.md": entity("Tide Race", body="A rowing race round the lighthouse."),
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
    "wiki/entities/Tide Archive.md": entity(
        "Tide Archive",
        body=(
            "The port's record office.\n\n## Holdings\n\nIt keeps 14 repositories of tide tables.\n"
            "Readers of the galleries sit for 40 minutes at most. Its readers sit in 6 galleries.\n"
        ),
    ),
    "wiki/entities/岬一郎.md": entity(
        "岬一郎",
        body="港の歴史家。\n\n## 著作\n\n岬一郎は1958年、『港の百年』を出版した。\n\n## 灯台\n\n"
        "『灯台守の記録』では灯台守の暮らしを描いた。\n",
    ),
    "wiki/sources/Harbour Notes 3.md": entity(
        "Harbour Notes 3: The Gull Wars",
        kind="source",
        body="Source: *Harbour Notes*, Essay 3\nAuthor: Mary Quill\n\nHow the gulls took the east quay.\n",
    ),
    "wiki/concepts/Gull Radio.md": entity(
        "Gull Radio",
        kind="concept",
        body=(
            "The harbour's radio link.\n\n## Limits\n\n"
            "Gull Radio messages carry Tern Weather payloads and quay news.\n"
            "Set a message size limit in the relay: maxPayload: 16 * 1024\n"
            "Each mast may carry a relay (optional), a spare relay (see Relay Limits).\n\n## Traffic\n\n"
            "Priority: high\n\n## Storms\n\n"
            "In the storm season the Gull Radio timeout was raised to 90 seconds.\n"
            "Gull Radio masts stand at least 12 metres above the quay; a mast is rarely taller.\n"
        ),
    ),
    "wiki/concepts/Crane Log.md": entity(
        "Crane Log",
        kind="concept",
        body=(
            "How crane work is recorded.\n\n## Restarting\n\nAfter a stall, to restart it:\n\n"
            "```bash\ncranectl resume --log east\n```\n\nIt is rarely needed.\n\n## Shifts\n\n"
            "The log keeps three shift records:\n\n- Dawn: opens the quay\n- Noon: loads the boats\n"
            "- Night: locks the gates\n"
        ),
    ),
    "wiki/concepts/Relay Limits.md": entity(
        "Relay Limits",
        kind="concept",
        body="How the Tern Weather relay caps its traffic.\n\n## Settings\n\n"
        "The default timeout is 30 seconds.\n",
    ),
    "wiki/concepts/TAP.md": entity(
        "TAP",
        kind="concept",
        body="The harbour's warning scheme for spring tides.\n\n## Use\n\n"
        "TAP messages go out an hour before high water.\n\n## Name\n\n"
        "The letters are for Tide Alert Protocol, after the 1952 flood.\n",
    ),
    "wiki/concepts/漏れ検査.md": entity(
        "漏れ検査",
        kind="concept",
        body="## 方法\n\n一時ファイルの漏れは件数の差ではなくパスの集合差 (comm -13) で調べる。\n",
    ),
    "wiki/entities/Breakwater.md": entity("Breakwater", body="## Works\n\nRepaired in 2001.\n"),
    "wiki/entities/Seawall.md": entity("Seawall", body="## Works\n\nRepaired in 2003.\n"),
    "wiki/entities/Harbour Board.md": entity(
        "Harbour Board",
        body="The Harbour Board is a council of the town that oversees the Breakwater. "
        "The Seawall is a stone bank that shelters the west quay.\n",
    ),
    "wiki/entities/Gull Beacon.md": entity(
        "Gull Beacon",
        body="Harbour pilots can set a flag on the Gull Beacon.\n\n"
        "## Stage\n\nFeature gate `BeaconBoost`, off by default.\n",
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
        # …and a thing named only in a bracketed aside describes: the number is not of it too
        ("How many gantry cranes does Portwell (where the Harbour Cup is rowed) run?", "four gantry cranes"),
        # an English count in Japanese prose is said with a counter
        ("How many people attended 港湾フォーラム?", "120 名"),
        # "what … called", 何て名前: a name is asked
        ("What were the harbour master's cats called?", "Biscuit"),
        ("潮見館で嵐の航海を疑似体験できる展示って何て名前だっけ？", "荒天ブリッジ"),
        # the key of a Key: value line is a label, not the name asked (Source:, not Author: …)
        ("Who wrote the Harbour Notes essays?", "Mary Quill"),
        # a camelCase setting is said by its parts (max payload: maxPayload)
        ("What max payload does Gull Radio allow for messages?", "16 * 1024"),
        # a difference with nothing named: the sentence that contrasts (ではなく) answers it
        ("一時ファイルの漏れは件数の差ではなく何で比べる？", "comm -13"),
        # …or one of the things compared, under a heading that says how they differ
        ("How is the Harbour Cup different from the Tide Race? Are its crews clocked?", "never clocked"),
        # a name the question writes that only the page's summary says: the page is about it
        ("What is the default timeout of the Tern Weather relay?", "30 seconds"),
        # an acronym is answered by the words it is made of
        ("What does TAP stand for?", "Tide Alert Protocol"),
        ("TAP って何の略？", "Tide Alert Protocol"),
        # what's asks what a thing is; a word glossed in brackets after it is defined in passing
        ("What's a quayward?", "half clerk, half pilot"),
        # a year ends the sentence (1931.): it answers when
        ("When was Portwell's lighthouse first lit?", "first lit in 1931"),
        # a bound asked is said by its sign or words (at least 12 metres for the minimum)
        ("What's the minimum height of a Gull Radio mast?", "at least 12 metres"),
        # a Key: value line whose key and headings say what is asked gives its value as it is (no
        # number needed: the rule for number questions must not refuse it)
        ("Gull Radio の priority はいくつ？", "Priority: high"),
        # what a thing is, said on another page that names it before the defining words
        ("What's a seawall?", "The Seawall is a stone bank"),
    ],
)
def test_the_sentence_that_answers(wiki: Wiki, question: str, says: str) -> None:
    answer = wiki.answer(question)
    assert answer.confident, question
    assert says in answer.sentences[0].text, [sentence.text for sentence in answer.sentences]


@pytest.mark.parametrize(
    "question",
    [
        # a name is asked: a capitalised function word (He, The) is none, nor the question's own words
        "What were the lighthouse keeper's gulls called?",
        "Who rebuilt the Bell Tower?",
        # a sum of money is asked: a number without a currency is none
        "港湾フォーラムの参加費用はいくら？",
        # a thing an English question names that nothing around the sentence says
        "How many gantry cranes does the Seacliff port run?",
        # a number asked of two named things: a sentence about one of them does not give it
        "How many gantry cranes does the Harbour Cup use in Portwell?",
        # a kanji unit no passage says: no number counts it
        "港湾フォーラムの第1回には船が何隻来た？",
        # a default is asked: a timeout the page says it was raised to is not the default
        "What is the default timeout of Gull Radio?",
        # a number is asked: a Key: value line saying only part of the question gives none
        "Portwell の crane operator の wage はいくつ？",
        # what a thing is: a bracket giving a value or a note after the word is no gloss of it
        "What's a relay?",
        # what a thing is: a sentence defining another thing, naming it after, does not say
        "What's a breakwater?",
    ],
)
def test_what_the_wiki_does_not_say_is_not_answered(wiki: Wiki, question: str) -> None:
    answer = wiki.answer(question)
    assert not answer.confident, [sentence.text for sentence in answer.sentences]


def test_a_sum_of_money_is_answered_by_a_number_with_a_currency(wiki: Wiki) -> None:
    answer = wiki.answer("How much did the east quay crane refit cost?")
    assert answer.confident and "£40,000" in answer.sentences[0].text, answer.sentences


def test_a_page_linking_to_what_the_question_names_answers_about_it(wiki: Wiki) -> None:
    """Portwell only sets the scene: the race's page, which links to it, says how crews are ranked
    without repeating its name."""
    answer = wiki.answer("In the Portwell rowing race, how are crews ranked?")
    assert answer.confident and answer.sentences[0].path == "wiki/entities/Harbour Cup.md"


@pytest.mark.parametrize(
    ("question", "answered"),
    [
        ("岬一郎の『港の百年』って何年に出版された？", True),
        # the year said is of another work, and of no birth
        ("岬一郎の『灯台守の記録』って何年に出版された？", False),
        ("岬一郎って何年生まれ？", False),
    ],
)
def test_a_year_answers_for_the_work_or_the_life_event_asked(
    wiki: Wiki, question: str, answered: bool
) -> None:
    answer = wiki.answer(question)
    assert answer.confident is answered
    assert not answered or "1958" in answer.sentences[0].text


@pytest.mark.parametrize(
    ("question", "answered"),
    [
        ("When was the Harbour Cup note created?", True),
        ("潮見館のページはいつ作成された？", True),
        # the note's own date (created: 2026-09-01) is not when anything it tells of happens
        ("When is the Harbour Cup rowed?", False),
        ("潮見館の展示はいつ入れ替えられる？", False),
    ],
)
def test_a_note_date_answers_only_what_its_key_names(wiki: Wiki, question: str, answered: bool) -> None:
    answer = wiki.answer(question)
    assert answer.confident is answered
    assert not answered or "2026-09-01" in answer.sentences[0].text


@pytest.mark.parametrize(
    ("question", "answered"),
    [
        ("What was rebuilt in 1890 at Portwell?", True),
        ("岬一郎が1958年に出版した本は？", True),
        # the year the question asks in is said nowhere near the sentence: it tells of another time
        ("What was rebuilt in 1920 at Portwell?", False),
        ("岬一郎が1960年に出版した本は？", False),
    ],
)
def test_a_year_asked_in_is_said_by_the_answer(wiki: Wiki, question: str, answered: bool) -> None:
    assert wiki.answer(question).confident is answered


def test_a_clipped_word_is_said_by_its_whole_spelling(wiki: Wiki) -> None:
    answer = wiki.answer("How many repos of tide tables are kept?")
    assert answer.confident and "14 repositories" in answer.sentences[0].text


def test_a_count_asked_in_the_singular_is_said_in_the_plural(wiki: Wiki) -> None:
    """how many galleries counts gallery, which *6 galleries* spells with -ies: the count of that unit
    answers, not a number of another (40 minutes) in a sentence that says as much of the question."""
    answer = wiki.answer("How many galleries do the Tide Archive readers sit in?")
    assert answer.confident and "6 galleries" in answer.sentences[0].text


def test_a_fact_of_a_page_is_read_with_its_summary(wiki: Wiki) -> None:
    """The summary says the question's topic (pilots, flag), not the gate asked: its words
    count half for every sentence of the page, so the page's fact answers before its summary."""
    answer = wiki.answer("Which feature gate lets harbour pilots raise the Gull Beacon's priority by flag?")
    assert answer.confident and "BeaconBoost" in answer.sentences[0].text, answer.sentences


def test_the_frame_of_a_question_is_no_word_it_asks(wiki: Wiki) -> None:
    """*in Portwell terms* frames what TAP is: the definition answers alone, not beside Portwell's."""
    answer = wiki.answer("What's TAP in Portwell terms?")
    shown = [sentence.text for sentence in answer.sentences]
    assert shown == ["The harbour's warning scheme for spring tides."]


def test_a_line_of_code_answers_under_the_sentence_that_introduces_it(wiki: Wiki) -> None:
    """The line says what was asked (cranectl); its lead says the rest (restart, stall): it answers
    first, before the lead itself."""
    answer = wiki.answer("Which cranectl command restarts it after a stall?")
    assert answer.confident and answer.sentences[0].text == "cranectl resume --log east"


def test_a_sentence_that_introduces_a_list_is_shown_with_its_items(wiki: Wiki) -> None:
    answer = wiki.answer("What shift records does the crane log keep?")
    assert answer.confident
    assert answer.sentences[0].text == (
        "The log keeps three shift records: / Dawn: opens the quay / Noon: loads the boats"
        " / Night: locks the gates"
    )


def test_a_number_in_words_without_the_unit_asked_is_no_count(wiki: Wiki) -> None:
    """*two* cats do not answer how many cranes: a word number counts only with its unit."""
    answer = wiki.answer("How many gantry cranes does Portwell run?")
    assert all("cats" not in sentence.text for sentence in answer.sentences)


@pytest.mark.parametrize(
    ("text", "parts"),
    [
        ("maxPayload: 16 * 1024", ["max", "payload"]),
        ("set bootstrapMaxChars (12000)", ["bootstrap", "max", "char"]),
        ("chatCompletions.enabled", ["chat", "completion"]),
        ("per-channel-peer and HTTPS and plain words", []),
        # UpperCamelCase: a setting of three parts or more is read by its parts, a name of two is not
        ("the SingleClusterPreemptionTimeout (5 min)", ["single", "cluster", "preemption", "timeout"]),
        ("ByteDance built MegaScale", []),
        ("PyTorchJob and OpenAIClient under BestEffortFIFO", []),  # a part of two letters or capitals: a name
        ("WaitForPodsReady", ["wait", "for", "pod", "ready"]),
    ],
)
def test_the_parts_of_a_camel_case_identifier(text: str, parts: list[str]) -> None:
    found = camel_parts(text)
    assert [part for _, _, part in found] == parts
    assert all(fold(text[start:end]).startswith(part) for start, end, part in found)


@pytest.mark.parametrize(
    ("question", "says"),
    [
        (
            "When was Portwell's lighthouse first lit? And how many gantry cranes does the port run?",
            ["first lit in 1931", "four gantry cranes"],
        ),
        (
            "How many gantry cranes does Portwell run, and when was its lighthouse first lit?",
            ["four gantry cranes", "first lit in 1931"],
        ),
    ],
)
def test_a_question_of_two_parts_is_answered_for_each(wiki: Wiki, question: str, says: list[str]) -> None:
    answer = wiki.answer(question)
    texts = [sentence.text for sentence in answer.sentences]
    assert answer.confident and len(texts) >= len(says)
    assert all(said in text for said, text in zip(says, texts, strict=False)), texts
