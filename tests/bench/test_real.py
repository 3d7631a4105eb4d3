"""The real-wiki benchmark (`bench.real`): question files, figures, the digest measure, and one run
end to end on a tiny vault (a benchmark, not a gate: this only checks it runs and counts right)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from bench.real.__main__ import main
from bench.real.metrics import (
    DEPTH,
    Measured,
    digest_scores,
    misses,
    sakuin_figures,
    wiki_figures,
    wrong_answers,
)
from bench.real.questions import (
    Question,
    QuestionFileError,
    answer_groups,
    load_question_file,
    page_problems,
    parse_question,
    parse_question_file,
)
from bench.real.run import date_field, pages_of_digest, reply_status, resolve_vault
from index.asking.answer import ANSWER_PAGES
from index.model import Answer, Digest, DigestItem
from tests.vaults import write_vault


def question(**fields: object) -> dict:
    base: dict[str, object] = {
        "id": "q-1",
        "lang": "en",
        "kind": "setting",
        "question": "Which port?",
        "pages": ["concepts/Gateway.md"],
        "answer": ["18789"],
    }
    return {**base, **fields}


@pytest.mark.parametrize(
    ("item", "kept", "problem"),
    [
        (question(), True, None),
        (question(kind="unanswerable", pages=[], answer=[]), True, None),
        (question(question="  "), False, "no question text"),
        (question(id=None), False, "no id"),
        (question(answer=[]), False, "no answer words"),
        (question(kind="unanswerable"), False, "unanswerable question has pages or answer words"),
        (question(pages="concepts/Gateway.md"), False, "pages must be a list"),
        (question(answer="18789"), False, "answer must be a list"),
        (question(answer=[18789]), True, "not a string"),
        (question(kind="trivia"), True, "kind 'trivia' is not a known kind"),
        (question(lang="fr"), True, "lang 'fr'"),
        (question(pages=[]), True, "its rank is not measured"),
        (question(answer=["8 hours||8時間"]), True, "empty spelling"),
        ("just text", False, "is not a mapping"),
    ],
)
def test_parse_question(item: object, kept: bool, problem: str | None) -> None:
    parsed, problems = parse_question(item, 1)
    assert (parsed is not None) is kept
    if problem is None:
        assert problems == []
    else:
        assert any(problem in line for line in problems), problems
        assert all(line.startswith("warning" if kept else ("warning", "error")) for line in problems)


def test_a_parsed_question_keeps_its_alternatives_and_clean_paths() -> None:
    parsed, _ = parse_question(
        question(pages=["./concepts\\Gateway.md", "concepts/Gateway.md"], answer=["8 hours|8時間", 42]), 1
    )
    assert parsed == Question(
        id="q-1",
        lang="en",
        kind="setting",
        question="Which port?",
        pages=("concepts/Gateway.md",),
        keys=(("8 hours", "8時間"), ("42",)),
    )
    assert parsed.answerable


@pytest.mark.parametrize(
    ("answer", "groups", "empty"),
    [
        (["8 hours|8時間", "Max runtime"], (("8 hours", "8時間"), ("Max runtime",)), False),
        ([" a | b "], (("a", "b"),), False),
        (["a||b", "|"], (("a", "b"),), True),
        (["same|same"], (("same",),), False),
        ([], (), False),
    ],
)
def test_answer_groups(answer: list[str], groups: tuple, empty: bool) -> None:
    assert answer_groups(answer) == (groups, empty)


def test_a_question_file_reports_duplicates_and_a_wrong_slug(tmp_path: Path) -> None:
    data = {
        "wiki": "other",
        "repo": "owner/name",
        "commit": "abc",
        "vault": "wiki/",
        "questions": [question(), question(), question(id="q-2", kind="unanswerable", pages=[], answer=[])],
    }
    file = parse_question_file(data, tmp_path / "tiny.yaml")
    assert [q.id for q in file.questions] == ["q-1", "q-2"]
    assert file.vault == "wiki" and file.wiki == "other"
    assert any("used twice" in line for line in file.problems)
    assert any("not the file's name" in line for line in file.problems)


@pytest.mark.parametrize("text", ["questions: [\n", "wiki: x\n", "- a\n- b\n"])
def test_an_unreadable_question_file_is_one_clear_error(tmp_path: Path, text: str) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(QuestionFileError, match=r"bad\.yaml"):
        load_question_file(path)


def test_pages_missing_from_the_vault_or_the_index_are_warned_about() -> None:
    questions = [
        Question("q-1", "en", "setting", "?", ("a.md", "b.md", "c.md"), (("x",),)),
        Question("q-2", "en", "setting", "?", ("b.md", "c.md"), (("x",),)),
    ]
    problems = page_problems(questions, on_disk={"a.md", "b.md"}, indexed={"a.md"})
    assert problems == [
        "warning: page c.md is not in the vault (q-1, q-2)",
        "warning: page b.md is not a page sakuin indexes (q-1, q-2)",
    ]


def test_the_vault_folder_of_a_question_file_is_taken_when_it_exists(tmp_path: Path) -> None:
    (tmp_path / "wiki").mkdir()
    assert resolve_vault(tmp_path, "wiki") == tmp_path / "wiki"
    assert resolve_vault(tmp_path / "wiki", "wiki") == tmp_path / "wiki"  # given the vault itself
    assert resolve_vault(tmp_path, "") == tmp_path


def row(
    qid: str,
    *,
    lang: str = "en",
    pages: tuple[str, ...] = ("a",),
    answerable: bool = True,
    screen: bool = False,
    anywhere: bool = False,
    abstained: bool = False,
    ranking: tuple[str, ...] = (),
    fts5: tuple[str, ...] = (),
) -> Measured:
    keys = (("x",),) if answerable else ()
    return Measured(
        question=Question(qid, lang, "other" if answerable else "unanswerable", qid, pages, keys),
        first_screen=screen,
        anywhere=anywhere,
        abstained=abstained,
        status="not_found" if abstained else "answered",
        ranking=ranking,
        fts5_ranking=fts5,
    )


ROWS = [
    row("a1", screen=True, anywhere=True, ranking=("a", "b"), fts5=("b", "a")),
    row("a2", lang="ja", anywhere=True, ranking=("b", "c", "a"), fts5=("a",)),
    row("a3", lang="ja", abstained=True, ranking=("z", "y", "x", "a"), fts5=("1", "2", "3", "4", "5", "a")),
    row("a4", pages=(), screen=True, anywhere=True),  # no pages: not ranked
    row("u1", pages=(), answerable=False, abstained=True),
    row("u2", lang="ja", pages=(), answerable=False),
]


def test_sakuin_figures_on_fabricated_rows() -> None:
    figures = sakuin_figures(ROWS)
    assert (figures["answerable"], figures["unanswerable"]) == (4, 2)
    assert figures["first_screen"] == {"count": 2, "of": 4, "rate": 0.5}
    assert figures["anywhere"] == {"count": 3, "of": 4, "rate": 0.75}
    assert figures["hit1"] == {"count": 1, "of": 3, "rate": pytest.approx(1 / 3)}
    assert figures["hit3"] == {"count": 2, "of": 3, "rate": pytest.approx(2 / 3)}
    assert figures["mrr"] == pytest.approx((1 + 1 / 3 + 1 / 4) / 3)
    assert figures["abstention_precision"] == {"count": 1, "of": 2, "rate": 0.5}
    assert figures["abstention_recall"] == {"count": 1, "of": 2, "rate": 0.5}
    assert figures["false_abstention"] == {"count": 1, "of": 4, "rate": 0.25}


def test_wiki_figures_split_by_language_and_fts5_has_its_own_ranking() -> None:
    figures = wiki_figures(ROWS)
    assert list(figures["by_lang"]) == ["ja", "en"]
    fts5 = figures["all"]["fts5"]
    assert fts5["hit1"]["count"] == 1 and fts5["hit3"]["count"] == 2
    assert fts5["mrr"] == pytest.approx((1 / 2 + 1) / 3)
    ja = figures["by_lang"]["ja"]["sakuin"]
    assert ja["answerable"] == 2 and ja["abstention_recall"] == {"count": 0, "of": 1, "rate": 0.0}
    assert ja["abstention_precision"] == {"count": 0, "of": 1, "rate": 0.0}
    assert figures["by_lang"]["en"]["sakuin"]["abstention_recall"]["rate"] == 1.0


def test_both_rankings_count_as_deep_as_sakuin_retrieves() -> None:
    assert DEPTH == ANSWER_PAGES  # a page FTS5 ranks 6th is not found, as sakuin shows five


def test_nothing_to_count_is_none_not_a_division_by_zero() -> None:
    figures = sakuin_figures([row("u1", pages=(), answerable=False)])
    assert figures["first_screen"]["rate"] is None and figures["mrr"] is None
    assert figures["abstention_precision"]["rate"] is None


def test_misses_and_wrong_answers() -> None:
    assert [r.question.id for r in misses(ROWS)] == ["a2", "a3"]
    assert [r.question.id for r in wrong_answers(ROWS)] == ["u2"]


def test_digest_scores_per_day_and_over_all_days() -> None:
    expected = {"2026-06-14": {"s1", "s2", "e1"}, "2026-06-16": {"s3"}}
    digested = {"2026-06-14": ["s1", "x"], "2026-06-15": ["s4"]}
    scores = digest_scores(expected, digested, sources={"s1", "s2", "s3", "s4"})
    days = {day["day"]: day for day in scores["days"]}
    assert list(days) == ["2026-06-14", "2026-06-15", "2026-06-16"]
    assert days["2026-06-14"]["precision"] == 0.5
    assert days["2026-06-14"]["recall"] == pytest.approx(1 / 3)
    assert days["2026-06-14"]["recall_sources"] == 0.5
    assert days["2026-06-15"]["precision"] == 0.0 and days["2026-06-15"]["recall"] is None
    assert days["2026-06-16"]["precision"] is None and days["2026-06-16"]["recall"] == 0.0
    total = scores["all_days"]
    assert (total["right"], total["digested"], total["expected"]) == (1, 3, 4)
    assert total["precision"] == pytest.approx(1 / 3) and total["recall"] == 0.25


@pytest.mark.parametrize(
    ("meta", "found"),
    [
        ({"created": "2026-06-14", "date": "2020-01-01"}, ("created", "2026-06-14")),
        ({"ingested": "2026-06-14 09:30"}, ("ingested", "2026-06-14")),
        ({"created": "", "added": "2026-06-02T10:00:00+09:00"}, ("added", "2026-06-02")),
        ({"created": "unknown", "date": "2026-02-30", "added": "2026-03-01"}, ("added", "2026-03-01")),
        ({"title": "no date"}, None),
        # a timestamp with an offset falls on its day in the digest's zone (JST here), as the digest reads it
        ({"created": "2026-04-16T18:27:04Z"}, ("created", "2026-04-17")),
        ({"created": "2026-04-16T14:59:59+00:00"}, ("created", "2026-04-16")),
        ({"created": "2026-04-16T23:30:00"}, ("created", "2026-04-16")),
    ],
)
def test_date_field(meta: dict, found: tuple[str, str] | None) -> None:
    assert date_field(meta, ZoneInfo("Asia/Tokyo")) == found


def item(path: str) -> DigestItem:
    return DigestItem(path=path, title=path, venue=None, year=None, summary="", cited_by=())


@dataclass(frozen=True)
class PageEntry:
    path: str


@dataclass(frozen=True)
class DigestWithPages:
    """The digest as issue 27 extends it: a ``pages`` list beside the source items."""

    date: str
    items: tuple[DigestItem, ...]
    pages: tuple[object, ...]


def test_the_digest_pages_are_its_items_or_its_pages_list() -> None:
    assert pages_of_digest(Digest("2026-06-14", (item("s1"), item("s2")))) == ["s1", "s2"]
    extended = DigestWithPages("2026-06-14", (item("s1"),), ({"path": "e1"}, PageEntry("s1"), "c1"))
    assert pages_of_digest(extended) == ["e1", "s1", "c1"]  # type: ignore[arg-type]


def answer(*, confident: bool) -> Answer:
    return Answer(question="q", sentences=(), confident=confident, subject=None, passages=(), pages=())


@pytest.mark.parametrize(
    ("payload", "confident", "status"),
    [
        (None, True, ("answered", "answer")),
        (None, False, ("not_found", "answer")),
        ({"status": "not_found", "confidence": 0.1}, True, ("not_found", "metadata")),
        ({"status": "relation"}, False, ("relation", "metadata")),
        ({"status": "maybe"}, False, ("not_found", "answer")),  # an unknown status is not trusted
    ],
)
def test_the_status_prefers_the_reply_metadata(payload: dict | None, confident: bool, status: tuple) -> None:
    assert reply_status(payload, answer(confident=confident)) == status


TINY_VAULT = {
    "wiki/concepts/Gateway.md": "---\ntype: concept\ncreated: 2026-06-14\n---\n# Gateway\n\n"
    "The gateway listens on port 18789 by default. It forwards requests to the agents.\n",
    "wiki/entities/Acme.md": "---\ntype: entity\ningested: 2026-06-16\n---\n# Acme\n\n"
    "Acme is a robotics company founded by Jane Roe in 2019.\n",
    "wiki/sources/gateway-docs.md": "---\ntype: source\ncreated: 2026-06-14\n---\n# Gateway docs\n\n"
    "The documentation of the gateway: ports, timeouts and logging.\n",
    "wiki/log.md": "# Log\n\n## [2026-06-14] ingest | Gateway docs\n- Summary: [[gateway-docs]]\n\n"
    "## [2026-06-15] lint | nothing\n",
    "README.md": "A repository whose vault is its wiki/ folder.\n",
}
TINY_QUESTIONS = """\
wiki: tiny
repo: example/tiny
commit: 0123456789abcdef0123456789abcdef01234567
vault: wiki
language: en
questions:
  - id: en-01
    lang: en
    kind: setting
    question: "Which port does the gateway listen on?"
    pages: [concepts/Gateway.md]
    answer: ["18789"]
  - id: en-02
    lang: en
    kind: person
    question: "Who founded Acme?"
    pages: [entities/Acme.md, entities/Nobody.md]
    answer: ["Jane Roe|ジェーン・ロー"]
  - id: un-01
    lang: ja
    kind: unanswerable
    question: "渋谷でおいしいラーメン屋さん知ってる？"
    pages: []
    answer: []
"""


def test_the_runner_on_a_tiny_vault(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    write_vault(tmp_path / "wikis" / "tiny", TINY_VAULT)
    questions, out = tmp_path / "tiny.yaml", tmp_path / "out" / "real.json"
    questions.write_text(TINY_QUESTIONS, encoding="utf-8")
    code = main(["--wikis", str(tmp_path / "wikis"), "--questions", str(questions), "--json", str(out)])
    assert code == 0
    printed = capsys.readouterr().out
    assert "warning: page entities/Nobody.md is not in the vault (en-02)" in printed
    assert "sakuin · all" in printed and "FTS5 · all" in printed
    [run] = json.loads(out.read_text(encoding="utf-8"))["wikis"]
    assert run["pages"] == 3 and run["vault"] == str(tmp_path / "wikis" / "tiny" / "wiki")
    rows = {row["id"]: row for row in run["questions"]}
    assert rows["en-01"]["first_screen"] and rows["en-01"]["ranking"][0] == "concepts/Gateway.md"
    assert rows["en-02"]["anywhere"] and rows["en-02"]["fts5_ranking"][0] == "entities/Acme.md"
    assert rows["un-01"]["abstained"] and rows["un-01"]["status"] == "not_found"
    sakuin = run["figures"]["all"]["sakuin"]
    assert sakuin["first_screen"]["of"] == 2
    assert sakuin["first_screen"]["count"] == sum(row["first_screen"] for row in rows.values())
    top = [row for row in rows.values() if row["ranking"] and row["ranking"][0] in row["pages"]]
    assert sakuin["hit1"] == {"count": len(top), "of": 2, "rate": len(top) / 2}
    assert sakuin["abstention_recall"] == {"count": 1, "of": 1, "rate": 1.0}
    digest = {day["day"]: day for day in run["digest"]["days"]}
    assert list(digest) == ["2026-06-14", "2026-06-15", "2026-06-16"]  # dated pages and the log's days
    assert (digest["2026-06-14"]["expected"], digest["2026-06-14"]["expected_sources"]) == (2, 1)
    assert digest["2026-06-14"]["right_sources"] == 1  # today's digest lists the day's source
    assert digest["2026-06-16"]["expected"] == 1
    assert run["digest"]["fields"] == {"created": 2, "ingested": 1}
    assert run["digest"]["all_days"]["ms_max"] > 0


def test_a_missing_vault_is_reported_not_raised(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    questions = tmp_path / "tiny.yaml"
    questions.write_text(TINY_QUESTIONS, encoding="utf-8")
    assert main(["--wikis", str(tmp_path / "nowhere"), "--questions", str(questions)]) == 1
    assert "skipped tiny: no vault" in capsys.readouterr().out
