"""Acronyms asked and spelt out (`index.asking.acronyms`)."""

from __future__ import annotations

import time

import pytest

from index.asking.acronyms import acronym_in, expansion_spans
from index.asking.question import read_question
from index.asking.vocabulary import Shape
from index.catalog.names import NameTable


@pytest.mark.parametrize(
    ("question", "acronym"),
    [
        ("What does the W in OWASP stand for these days?", "owasp"),  # the letter asked is no acronym
        ("RBAC って何の略?", "rbac"),
        ("What do APIs stand for?", "api"),  # a plural's s is no letter
        ("What does gRPC stand for?", "grpc"),
        ("what does it stand for?", None),
    ],
)
def test_the_acronym_asked(question: str, acronym: str | None) -> None:
    assert acronym_in(question) == acronym


@pytest.mark.parametrize(
    ("acronym", "text", "spelt"),
    [
        (
            "owasp",
            "Open Worldwide Application Security Project — a nonprofit foundation",
            ["Open Worldwide Application Security Project"],
        ),
        (
            "rbac",
            "RBAC (Role-Based Access Control) restricts",
            ["Role-Based Access Control"],
        ),  # not RBAC itself
        (
            "rbac",
            "role-based access control (RBAC) restricts",
            ["role-based access control"],
        ),  # lower case, in brackets
        ("json", "JavaScript Object Notation is a format", ["JavaScript Object Notation"]),  # inner capitals
        ("dod", "the Department of Defense said", ["Department of Defense"]),  # a function word's letter
        (
            "picsy",
            "正式名称 Propagational Investment Currency System (伝播型)",
            ["Propagational Investment Currency System"],
        ),
        ("ai", "Artificial Intelligence (AI) is", ["Artificial Intelligence"]),
        # prose is no expansion: lower case without brackets, two capitalised words without them
        ("ai", "an interesting idea", []),
        ("ai", "Anthropic Inc", []),
        ("cve", "CVE entries", []),
    ],
)
def test_where_a_text_spells_an_acronym_out(acronym: str, text: str, spelt: list[str]) -> None:
    assert [text[start:end] for start, end in expansion_spans(acronym, text)] == spelt


@pytest.mark.parametrize(
    ("question", "expands", "shape", "keywords"),
    [
        ("What does the W in OWASP stand for these days?", "owasp", Shape.OPEN, {"owasp"}),
        ("RBAC って何の略？", "rbac", Shape.OPEN, {"rbac"}),
        # no acronym written: nothing to spell out (what a company stands for)
        ("What does Anthropic stand for?", None, Shape.OPEN, {"anthropic"}),
    ],
)
def test_a_question_asking_what_an_acronym_stands_for(
    question: str, expands: str | None, shape: Shape, keywords: set[str]
) -> None:
    read = read_question(question, NameTable(), {})
    assert (read.expands, read.shape) == (expands, shape)
    assert {keyword.text for keyword in read.keywords} == keywords


@pytest.mark.parametrize(
    "text",
    [
        "Aaa " * 20_000 + "end",  # every word could start the run, none finishes it
        "Open " + "of " * 20_000 + "Projects",  # a run of function words, each could be skipped
    ],
)
def test_a_long_hostile_sentence_is_read_in_linear_time(text: str) -> None:
    started = time.process_time()  # this process's CPU: other work on the machine does not count
    assert expansion_spans("aaaaaaaaab", text) == []
    assert expansion_spans("oop", text) == []
    assert time.process_time() - started < 2.0  # about 0.6 s here; the first version took 17 s
