"""Suggested prompts and thread titles of the assistant pane (pure builders)."""

from __future__ import annotations

import pytest

from bot.conversation.assistant import HELP_MESSAGE, build_prompts, thread_title
from index.model import DigestItem, PageRef


def source(title: str) -> DigestItem:
    return DigestItem(f"wiki/sources/{title}.md", title, venue=None, year=None, summary="", cited_by=())


def entity(name: str) -> PageRef:
    return PageRef(name, f"wiki/entities/{name}.md", "entity")


@pytest.mark.parametrize(
    ("recent", "linked", "messages"),
    [
        (
            [source("MegaScale"), source("Minder")],
            [entity("ByteDance"), entity("Mycroft")],
            [
                "What is MegaScale about?",
                "What does the wiki say about ByteDance?",
                "/entity Mycroft",
                "What is Minder about?",
            ],
        ),
        ([], [entity("ByteDance")], ["What does the wiki say about ByteDance?", "/entity ByteDance"]),
        ([source("MegaScale")], [], ["What is MegaScale about?"]),
        ([], [], [HELP_MESSAGE]),
        ([source("<!channel> & co")], [], ["What is &lt;!channel&gt; &amp; co about?"]),
    ],
    ids=["full", "entities only", "sources only", "empty wiki", "escaped"],
)
def test_prompts_come_from_the_wiki(recent, linked, messages):
    prompts = build_prompts(recent, linked, "/entity")
    assert [prompt["message"] for prompt in prompts] == messages
    assert all(0 < len(prompt["title"]) <= 75 for prompt in prompts) and len(prompts) <= 4


def test_a_long_title_is_cut():
    (prompt,) = build_prompts([source("x" * 300)], [], "/entity")
    assert len(prompt["title"]) == 75 and prompt["title"].endswith("…")


@pytest.mark.parametrize(
    ("question", "title"),
    [("Minder を\n開発したのは?", "Minder を 開発したのは?"), ("q" * 100, "q" * 79 + "…")],
)
def test_thread_title(question, title):
    assert thread_title(question) == title
