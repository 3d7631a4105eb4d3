"""A question that asks two things at once, cut into its parts (`index.asking.parts`)."""

from __future__ import annotations

import pytest

from index.asking.parts import elliptical, question_parts


@pytest.mark.parametrize(
    ("question", "parts"),
    [
        (
            "『山月記』って何年に発表された？あと元ネタになった古典って何？",
            ["『山月記』って何年に発表された？", "元ネタになった古典って何？"],
        ),
        ("めいみてって何人組？デビュー曲のタイトルは", ["めいみてって何人組？", "デビュー曲のタイトルは"]),
        (
            "What does the winner get as an advance, and which publisher gives the book deal?",
            ["What does the winner get as an advance", "which publisher gives the book deal?"],
        ),
        (
            "Below what width does the sidebar collapse, and below what width is the TOC hidden?",
            ["Below what width does the sidebar collapse", "below what width is the TOC hidden?"],
        ),
        (
            "What hull design is the Sea Lark and what water depth is it rated for?",
            ["What hull design is the Sea Lark", "what water depth is it rated for?"],
        ),
        (
            "What wall must Premium pipe keep? and for Class 2?",
            ["What wall must Premium pipe keep?", "for Class 2?"],
        ),
        # one question, however long; a comma and *and* that do not start a question
        ("What did `if ! cmd; then rc=$?` capture in the hook?", []),  # a ? in a code span ends nothing
        ("Which jobs and pods which are suspended get requeued?", []),
        ("What is a cohort?", []),
        ("Which teams use Docker, and do they pin the base image?", []),
        ("Who wrote the Harbour Notes essays, and when?", []),  # *when* alone says nothing of its own
        # a part must say something of its own
        ("What is a cohort? ok?", []),
    ],
)
def test_the_parts_of_a_question(question: str, parts: list[str]) -> None:
    assert question_parts(question) == parts


@pytest.mark.parametrize(
    "question",
    ["?" * 5000, "what is it? " * 400, "x, and which y, and which z " * 300, "x and what y " * 300],
)
def test_a_hostile_question_is_one_question(question: str) -> None:
    assert question_parts(question) == []  # more parts than a colleague asks at once: read whole


@pytest.mark.parametrize(
    ("part", "names_only"),
    [
        ("for Class 2?", True),
        ("N1 は？", True),
        ("MIT？", True),
        ("what about Class 2?", False),  # it asks
        ("ユーザーが自分で作るもの？", False),  # a question of its own, with no asking word
        ("Is there a label for a time limit?", False),
    ],
)
def test_a_part_that_only_names_another_thing(part: str, names_only: bool) -> None:
    assert elliptical(part) is names_only
