"""The digest's Slack messages (bot/blocks/digest.py) as data: limits, splitting, grouping, escaping."""

from __future__ import annotations

import json

import pytest

from bot.blocks.digest import (
    SOURCES_PER_MESSAGE,
    digest_messages,
    source_facts,
    summary_lines,
)
from index.model import Digest, DigestItem, DigestSummary, NewPage, PageRef
from tests.bot.block_kit import assert_valid_blocks

HOSTILE = "<!channel> & <@U0BOSS> <https://evil.example|click>"


def item(n: int, source_type: str | None = "paper", **fields: object) -> DigestItem:
    values: dict[str, object] = {
        "path": f"wiki/sources/@2025__NSDI__Paper {n:02d}.md",
        "title": f"Paper {n:02d}",
        "venue": "NSDI",
        "year": 2025,
        "summary": f"Paper {n:02d} の要約。",
        "cited_by": (),
        "source_type": source_type,
    }
    values.update(fields)
    return DigestItem(**values)


def texts(messages) -> str:
    return json.dumps([[reply.text, list(reply.blocks)] for reply in messages], ensure_ascii=False)


@pytest.mark.parametrize(
    ("count", "parts"), [(1, 1), (SOURCES_PER_MESSAGE, 1), (SOURCES_PER_MESSAGE + 1, 2), (37, 4)]
)
def test_sources_are_split_over_messages_within_limits(count: int, parts: int) -> None:
    kinds = ["paper", "article", "video", None]
    digest = Digest("2026-10-14", tuple(item(n, kinds[n % len(kinds)]) for n in range(count)))
    messages = digest_messages(digest)
    assert len(messages) == parts
    for reply in messages:
        assert_valid_blocks(list(reply.blocks))
        assert 0 < len(reply.text) <= 3000
    assert messages[0].blocks[0] == {
        "type": "header",
        "text": {"type": "plain_text", "text": f"New sources · 2026-10-14 ({count})", "emoji": True},
    }
    shown = [title for n in range(count) if (title := f"Paper {n:02d}") in texts(messages)]
    assert len(shown) == count
    if parts > 1:
        assert f"continued, {parts}/{parts}" in texts(messages[-1:])


def test_several_types_are_grouped_in_a_fixed_order() -> None:
    digest = Digest("2026-10-14", (item(0, "video"), item(1, None), item(2, "paper"), item(3, "video")))
    (reply,) = digest_messages(digest)
    sections = [b["text"]["text"] for b in reply.blocks if b["type"] == "section"]
    labels = [text for text in sections if text.startswith("*") and "\n" not in text]
    assert labels == ["*Papers* (1)", "*Videos* (2)", "*Other sources* (1)"]
    order = [text.split("\n", 1)[0] for text in sections if "\n" in text]
    assert order == ["*Paper 02*", "*Paper 00*", "*Paper 03*", "*Paper 01*"]
    assert reply.blocks[1]["elements"][0]["text"] == "Papers 1 · Videos 2 · Other sources 1"


def test_one_type_needs_no_group_labels() -> None:
    (reply,) = digest_messages(Digest("2026-10-14", (item(0), item(1))))
    assert [block["type"] for block in reply.blocks] == ["header", "section", "section"]


def test_source_shows_link_facts_summary_and_citers() -> None:
    cited = (
        PageRef(
            "Jane Doe", "wiki/entities/Jane Doe.md", "entity", "https://wiki.example/wiki/entities/Jane%20Doe"
        ),
        PageRef("異常検知", "wiki/concepts/異常検知.md", "concept", None),
    )
    source = item(
        0,
        url="https://wiki.example/wiki/sources/@2025__NSDI__Paper%2000",
        cited_by=cited,
        summary="- 一行目\n- 二行目\n- 三行目",
    )
    (reply,) = digest_messages(Digest("2026-10-14", (source,)))
    section, context = reply.blocks[1], reply.blocks[2]
    assert section["text"]["text"] == (
        "*<https://wiki.example/wiki/sources/@2025__NSDI__Paper%2000|Paper 00>*\n"
        "_NSDI 2025 · paper_\n• 一行目\n• 二行目"
    )
    assert [element["text"] for element in context["elements"]] == [
        "Entities: <https://wiki.example/wiki/entities/Jane%20Doe|Jane Doe>",
        "Concepts: 異常検知",
    ]


def test_wiki_text_is_escaped_everywhere() -> None:
    source = item(
        0,
        title=HOSTILE,
        summary=HOSTILE,
        venue="<!here>",
        cited_by=(PageRef(HOSTILE, "wiki/entities/x.md", "entity", None),),
    )
    messages = digest_messages(Digest("2026-10-14", (source,)))
    dumped = texts(messages)
    for raw in ("<!channel>", "<@U0BOSS>", "<!here>", "<https://evil"):
        assert raw not in dumped
    assert "&lt;!channel&gt; &amp; &lt;@U0BOSS&gt;" in dumped


def test_huge_texts_stay_within_limits() -> None:
    many = tuple(PageRef(f"Entity {n}" * 5, f"wiki/entities/e{n}.md", "entity", None) for n in range(300))
    sources = tuple(item(n, title="長い題名" * 500, summary="要約" * 5000, cited_by=many) for n in range(25))
    for reply in digest_messages(Digest("2026-10-14", sources)):
        assert_valid_blocks(list(reply.blocks))
        assert all(
            len(e["text"]) <= 2000 for b in reply.blocks if b["type"] == "context" for e in b["elements"]
        )


@pytest.mark.parametrize(("post_empty", "count"), [(False, 0), (True, 1)])
def test_empty_day(post_empty: bool, count: int) -> None:
    messages = digest_messages(Digest("2026-10-14", ()), post_empty=post_empty)
    assert len(messages) == count
    for reply in messages:
        assert_valid_blocks(list(reply.blocks))
        assert reply.text == "No new sources on 2026-10-14"


@pytest.mark.parametrize(
    ("summary", "lines"),
    [
        ("", []),
        ("一文だけ。", ["一文だけ。"]),
        ("- 一\n- 二\n- 三", ["• 一", "• 二"]),
        ("* one\n\n  2. two", ["• one", "• two"]),
        ("本文の一行目。\n\n二行目。\n三行目。", ["本文の一行目。", "二行目。"]),
        ("・ 中黒\n1) 番号", ["• 中黒", "• 番号"]),
        ("  空白   が   多い  ", ["空白 が 多い"]),
    ],
)
def test_summary_lines(summary: str, lines: list[str]) -> None:
    assert summary_lines(summary) == lines


@pytest.mark.parametrize(
    ("venue", "year", "source_type", "facts"),
    [
        ("NSDI", 2025, "paper", "NSDI 2025 · paper"),
        (None, 2025, "video", "2025 · video"),
        ("arXiv", None, None, "arXiv"),
        (None, None, None, ""),
    ],
)
def test_source_facts(venue, year, source_type, facts) -> None:
    assert source_facts(item(0, source_type, venue=venue, year=year)) == facts


def test_a_long_abstract_is_cut_at_a_sentence_end() -> None:
    abstract = "あ" * 100 + "。" + "い" * 100 + "。"
    (reply,) = digest_messages(Digest("2026-10-14", (item(0, summary=abstract),)))
    assert reply.blocks[1]["text"]["text"].endswith("\n" + "あ" * 100 + "。")


# -- a wiki without source pages, and big days ------------------------------------------------


def new_page(title: str, kind: str, url: str | None = None) -> NewPage:
    return NewPage(f"wiki/{kind}s/{title}.md", title, kind, "log", f"wiki/{kind}s", url)


def test_new_pages_are_listed_by_type_then_the_updates() -> None:
    pages = (
        new_page("Harold", "entity", "https://wiki.example/Harold"),
        new_page("Hastings", "event"),
        new_page("Edith", "entity"),
    )
    updated = tuple(PageRef(f"Page {n}", f"wiki/entities/p{n}.md", "entity") for n in range(5))
    digest = Digest("2026-03-02", (), pages, "page", updated, 7)
    (reply,) = digest_messages(digest)
    assert_valid_blocks(list(reply.blocks))
    assert reply.blocks[0]["text"]["text"] == "New pages · 2026-03-02 (3)"
    sections = [block["text"]["text"] for block in reply.blocks if block["type"] == "section"]
    assert sections == [
        "*entity* (2)\n• Edith\n• <https://wiki.example/Harold|Harold>",
        "*event* (1)\n• Hastings",
    ]
    assert reply.blocks[-1]["elements"][0]["text"] == (
        "Updated: Page 0 · Page 1 · Page 2 · Page 3 · Page 4 and 2 more"
    )
    assert reply.text == "New pages on 2026-03-02: Edith, Harold, Hastings"


def test_many_new_pages_are_split_within_limits() -> None:
    pages = tuple(new_page(f"Entity {n:03d} <&>", "entity") for n in range(95))
    messages = digest_messages(Digest("2026-03-02", (), pages, "page"))
    assert len(messages) == 3
    for reply in messages:
        assert_valid_blocks(list(reply.blocks))
    assert all(f"Entity {n:03d} &lt;&amp;&gt;" in texts(messages) for n in range(95))


@pytest.mark.parametrize(("post_empty", "count"), [(False, 0), (True, 1)])
def test_a_day_without_new_pages(post_empty: bool, count: int) -> None:
    updated = (PageRef("Only updated", "wiki/entities/u.md", "entity"),)
    messages = digest_messages(Digest("2026-03-02", (), (), "page", updated, 1), post_empty=post_empty)
    assert len(messages) == count
    assert all(reply.text == "No new pages on 2026-03-02" for reply in messages)


@pytest.mark.parametrize("announces", ["source", "page"])
def test_a_big_day_is_one_message_of_counts_and_the_most_linked(announces: str) -> None:
    most_linked = tuple(PageRef(f"Hub {n} <!here>", f"wiki/sources/h{n}.md", "source") for n in range(10))
    by_type = (("paper", 200), ("source", 8)) if announces == "source" else (("entity", 150), ("event", 58))
    summary = DigestSummary(208, by_type, (("wiki/sources", 200), ("wiki/entities", 8)), most_linked)
    digest = Digest("2026-06-14", tuple(item(n) for n in range(208)), (), announces, summary=summary)
    (reply,) = digest_messages(digest)
    assert_valid_blocks(list(reply.blocks))
    what = "sources" if announces == "source" else "pages"
    assert reply.blocks[0]["text"]["text"] == f"New {what} · 2026-06-14 (208)"
    assert reply.text == f"208 new {what} on 2026-06-14"
    dumped = texts([reply])
    assert "By folder: wiki/sources 200 · wiki/entities 8" in dumped
    assert (
        "By type: Papers 200 · Other sources 8" if announces == "source" else "By type: entity 150"
    ) in dumped
    assert "Most linked: Hub 0 &lt;!here&gt; · Hub 1" in dumped and "<!here>" not in dumped
