"""Reading a question file of the real-wiki benchmark (`bench/real/FORMAT.md`), and checking it.

A question file is written by hand, so it is read forgivingly and every mistake is reported with the
question's id: a question that cannot be measured (no text, no answer for an answerable question, a
duplicate id…) is left out with an error; one that can still be measured is kept with a warning
(an unknown ``kind``, a number written without quotes, a page the vault does not have).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import yaml

LANGUAGES = ("ja", "en", "mixed")
KINDS = frozenset(
    {
        "number",
        "setting",
        "command",
        "person",
        "org",
        "definition",
        "difference",
        "author",
        "date",
        "synonym",
        "list",
        "other",
        "unanswerable",
    }
)
UNANSWERABLE = "unanswerable"
ALTERNATIVES = "|"


class QuestionFileError(Exception):
    """The file cannot be read as a question file at all (not YAML, or no ``questions`` list)."""


@dataclass(frozen=True)
class Question:
    id: str
    lang: str
    kind: str
    question: str
    pages: tuple[str, ...]
    """The pages that state the answer (vault-relative POSIX paths); empty when unanswerable."""
    keys: tuple[tuple[str, ...], ...]
    """The answer words: every group must have one of its spellings in the reply."""

    @property
    def answerable(self) -> bool:
        return bool(self.keys)


@dataclass(frozen=True)
class QuestionFile:
    path: Path
    wiki: str
    repo: str | None
    commit: str | None
    vault: str
    """The vault's folder inside the repository (``""`` for its root)."""
    language: str | None
    questions: tuple[Question, ...]
    problems: tuple[str, ...] = field(default=())
    """Errors (questions left out) and warnings, one line each, naming the question."""


def load_question_file(path: Path) -> QuestionFile:
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, yaml.YAMLError) as error:
        raise QuestionFileError(f"{path}: cannot read it as YAML: {error}") from None
    return parse_question_file(data, path)


def parse_question_file(data: object, path: Path) -> QuestionFile:
    if not isinstance(data, dict) or not isinstance(data.get("questions"), list):
        raise QuestionFileError(f"{path}: expected a mapping with a `questions` list")
    problems: list[str] = []
    wiki = _text(data.get("wiki")) or path.stem
    if wiki != path.stem:
        problems.append(f"warning: wiki {wiki!r} is not the file's name {path.stem!r}")
    questions: list[Question] = []
    seen: set[str] = set()
    for number, item in enumerate(data["questions"], start=1):
        question, found = parse_question(item, number)
        if question is not None and question.id in seen:
            found.append(f"error: {question.id}: the id is used twice; left out")
            question = None
        problems.extend(found)
        if question is not None:
            seen.add(question.id)
            questions.append(question)
    return QuestionFile(
        path=path,
        wiki=wiki,
        repo=_text(data.get("repo")),
        commit=_text(data.get("commit")),
        vault=clean_path(_text(data.get("vault")) or "").strip("/"),
        language=_text(data.get("language")),
        questions=tuple(questions),
        problems=tuple(problems),
    )


def parse_question(item: object, number: int) -> tuple[Question | None, list[str]]:
    """One entry of ``questions``: the question (None when it cannot be measured) and its problems."""
    if not isinstance(item, dict):
        return None, [f"error: question #{number} is not a mapping; left out"]
    name = _text(item.get("id")) or f"#{number}"
    problems: list[str] = []

    def error(message: str) -> tuple[None, list[str]]:
        return None, [*problems, f"error: {name}: {message}; left out"]

    if not _text(item.get("id")):
        return error("no id")
    text = " ".join((_text(item.get("question")) or "").split())
    if not text:
        return error("no question text")
    lang = _text(item.get("lang")) or ""
    if lang not in LANGUAGES:
        problems.append(f"warning: {name}: lang {lang!r} is not one of {', '.join(LANGUAGES)}")
    kind = _text(item.get("kind")) or ""
    if kind not in KINDS:
        problems.append(f"warning: {name}: kind {kind!r} is not a known kind")
    pages = item.get("pages") or []
    answer = item.get("answer") or []
    if not isinstance(pages, list) or not all(isinstance(page, str) for page in pages):
        return error("pages must be a list of paths")
    if not isinstance(answer, list):
        return error("answer must be a list")
    if any(not isinstance(word, str) for word in answer):
        problems.append(f"warning: {name}: an answer item is not a string (write it in quotes)")
    keys, empty = answer_groups(str(word) for word in answer)
    if empty:
        problems.append(f"warning: {name}: an answer item has an empty spelling")
    if kind == UNANSWERABLE and (keys or pages):
        return error("an unanswerable question has pages or answer words")
    if kind != UNANSWERABLE and not keys:
        return error("no answer words (an unanswerable question has kind: unanswerable)")
    if keys and not pages:
        problems.append(f"warning: {name}: no pages state the answer; its rank is not measured")
    question = Question(
        id=name,
        lang=lang,
        kind=kind,
        question=text,
        pages=tuple(dict.fromkeys(clean_path(page) for page in pages)),
        keys=keys,
    )
    return question, problems


def answer_groups(answer: Iterable[str]) -> tuple[tuple[tuple[str, ...], ...], bool]:
    """Each answer item as its accepted spellings (``"8 hours|8時間"``), and whether a spelling was
    empty (``"a||b"``, ``""``); an item with no spelling at all is dropped."""
    groups = []
    empty = False
    for item in answer:
        spellings = [part.strip() for part in item.split(ALTERNATIVES)]
        kept = tuple(dict.fromkeys(part for part in spellings if part))
        empty = empty or not all(spellings)
        if kept:
            groups.append(kept)
    return tuple(groups), empty


def clean_path(path: str) -> str:
    """A vault-relative POSIX path as written by hand: backslashes and a leading ``./`` undone."""
    path = path.strip().replace("\\", "/")
    while path.startswith("./"):
        path = path[2:]
    return path


def page_problems(questions: Sequence[Question], on_disk: set[str], indexed: set[str]) -> list[str]:
    """A warning per expected page the vault does not have, or that sakuin does not search (``indexed``:
    its pages and its logs), naming the questions that expect it."""
    expecting: dict[str, list[str]] = {}
    for question in questions:
        for page in question.pages:
            if page not in indexed:
                expecting.setdefault(page, []).append(question.id)
    missing = [page for page in expecting if page not in on_disk]
    unindexed = [page for page in expecting if page in on_disk]
    return [
        *(f"warning: page {page} is not in the vault ({', '.join(expecting[page])})" for page in missing),
        *(
            f"warning: page {page} is not a page sakuin indexes ({', '.join(expecting[page])})"
            for page in unindexed
        ),
    ]


def _text(value: object) -> str | None:
    if value is None:
        return None
    return str(value).strip()
