"""The pure Block Kit builders, fed with hand-made domain values (no index needed)."""

import json

import pytest

from bot.blocks.buttons import (
    MAX_BUTTONS_BEFORE_SELECT,
    OPEN_PAGE_SELECT,
    SHARE,
    hashed_page_value,
    page_value,
    share_text_value,
)
from bot.blocks.card import card_blocks, card_text, unfurl_blocks
from bot.blocks.elements import context, fit_blocks, join_within
from bot.blocks.help import help_blocks
from bot.blocks.home import home_view
from bot.blocks.lookup import candidates_blocks, no_match_blocks, unresolved_blocks
from bot.blocks.search import search_blocks
from index.model import (
    Candidate,
    Card,
    DigestItem,
    Hit,
    IndexState,
    PageRef,
    RelationGroup,
    SearchResult,
    Unresolved,
)
from tests.bot.block_kit import assert_valid_blocks, assert_valid_view, message_text

HOSTILE = '<!channel> <@U123> & "quoted" *bold* <https://evil.example|click>'


def ref(name: str, path: str | None = None, url: str | None = None) -> PageRef:
    return PageRef(name, path, "entity" if path else None, url)


def small_card(**changes) -> Card:
    values = dict(
        path="wiki/entities/ByteDance.md",
        title="ByteDance",
        type="entity",
        summary="LLM 訓練本番システム MegaScale の開発主体。",
        groups=(
            RelationGroup(
                "関連プロダクト",
                (
                    ref("MegaScale", "wiki/entities/MegaScale.md", "https://w.example/MegaScale"),
                    ref("Minder", "wiki/entities/Minder.md", "https://w.example/Minder"),
                ),
            ),
            RelationGroup("関連組織", (ref("Volcano Engine"),)),
        ),
        backlinks=(ref("Minder", "wiki/entities/Minder.md", "https://w.example/Minder"),),
        entity_type="organization",
        url="https://w.example/ByteDance",
    )
    values.update(changes)
    return Card(**values)


def huge_card() -> Card:
    groups = tuple(
        RelationGroup(
            f"関係 {g} " + "<&>" * 30,
            tuple(
                ref(
                    f"{HOSTILE} page {g}-{i} " + "長" * 80,
                    f"wiki/entities/p{g}-{i}.md",
                    f"https://w.example/{g}/{i}",
                )
                for i in range(150)
            ),
        )
        for g in range(60)
    )
    return small_card(
        title="T" * 400,
        summary=HOSTILE * 400,
        groups=groups,
        backlinks=tuple(ref(f"back {i}", f"wiki/sources/b{i}.md") for i in range(300)),
        aliases=tuple(f"alias {i}" for i in range(200)),
    )


def test_card_names_its_relations_as_links_and_offers_buttons():
    blocks = card_blocks(small_card(), share=share_text_value("/entity ByteDance"))
    assert_valid_blocks(blocks)
    text = message_text(blocks)
    assert "<https://w.example/MegaScale|MegaScale>" in text
    assert "<https://w.example/Minder|Minder>" in text
    assert "*関連プロダクト* (2)" in text and "Volcano Engine" in text
    assert "*Linked from* (1)" in text
    related = blocks[-2]
    assert [e["value"] for e in related["elements"]] == [
        "wiki/entities/MegaScale.md",
        "wiki/entities/Minder.md",
    ]
    assert blocks[-1]["elements"][0]["action_id"] == SHARE
    assert blocks[-1]["elements"][0]["value"] == "text:/entity ByteDance"


def test_card_without_base_url_shows_plain_names_and_no_share_when_public():
    card = small_card(
        groups=(RelationGroup("関連", (ref("MegaScale", "wiki/entities/MegaScale.md"),)),),
        backlinks=(),
        url=None,
    )
    blocks = card_blocks(card)
    assert_valid_blocks(blocks)
    assert "<http" not in message_text(blocks)
    assert all(e["action_id"] != SHARE for b in blocks if b["type"] == "actions" for e in b["elements"])


def test_huge_card_respects_every_limit_and_says_how_much_is_left_out():
    card = huge_card()
    blocks = card_blocks(card, share=share_text_value("/entity X"))
    assert_valid_blocks(blocks)
    text = message_text(blocks)
    assert "more not shown" in text  # 60 groups do not fit in 50 blocks
    assert "more" in blocks[3]["text"]["text"]  # 150 long links do not fit in 3,000 characters
    select = blocks[-2]["elements"][0]
    assert select["action_id"] == OPEN_PAGE_SELECT and len(select["options"]) == 100
    assert "+" in select["placeholder"]["text"] and "more" in select["placeholder"]["text"]
    assert blocks[-1]["block_id"] == "share"
    assert "<!channel>" not in text and "<@U123>" not in text


def test_card_text_is_escaped():
    assert "<" not in card_text(small_card(title=HOSTILE))


@pytest.mark.parametrize("count", [1, MAX_BUTTONS_BEFORE_SELECT, MAX_BUTTONS_BEFORE_SELECT + 1, 30])
def test_related_pages_are_buttons_for_a_few_and_a_select_for_many(count):
    refs = tuple(ref(f"P{i}", f"wiki/entities/P{i}.md") for i in range(count))
    blocks = card_blocks(small_card(groups=(RelationGroup("関連", refs),), backlinks=()))
    assert_valid_blocks(blocks)
    row = blocks[-1]["elements"]
    if count <= MAX_BUTTONS_BEFORE_SELECT:
        assert [e["type"] for e in row] == ["button"] * count
    else:
        assert row[0]["type"] == "static_select" and len(row[0]["options"]) == count


def test_long_paths_get_a_short_value():
    path = "wiki/sources/@2025__NSDI__" + "Very long title " * 20 + ".md"
    assert page_value("wiki/entities/X.md") == "wiki/entities/X.md"
    assert page_value(path) == hashed_page_value(path) and len(page_value(path)) <= 150


def test_unfurl_is_short():
    blocks = unfurl_blocks(huge_card())
    assert_valid_blocks(blocks)
    assert len(blocks) == 2


def hit(i: int, snippet: str = "MegaScale は 10,000 GPU 超で訓練する", **changes) -> Hit:
    values = dict(
        path=f"wiki/sources/s{i}.md",
        title=f"Source {i}",
        type="source",
        score=10.0 - i,
        snippet=snippet,
        section="概要",
        url=None,
    )
    values.update(changes)
    return Hit(**values)


def test_search_blocks_quote_snippets_and_offer_a_card_button_per_hit():
    result = SearchResult("MegaScale GPU", tuple(hit(i) for i in range(5)))
    blocks = search_blocks(result, share=share_text_value("/wiki MegaScale GPU"))
    assert_valid_blocks(blocks)
    sections = [b for b in blocks if b["type"] == "section"]
    assert len(sections) == 5
    assert sections[0]["text"]["text"].startswith("*Source 0* · _source_ · § 概要\n> MegaScale")
    assert sections[0]["accessory"]["value"] == "wiki/sources/s0.md"


def test_search_blocks_escape_hostile_queries_and_snippets():
    result = SearchResult(HOSTILE * 100, (hit(0, snippet=HOSTILE * 100, title=HOSTILE, section=HOSTILE),))
    blocks = search_blocks(result)
    assert_valid_blocks(blocks)
    text = message_text(blocks)
    assert "<!channel>" not in text and "<@U123>" not in text and "<https://evil" not in text


def test_search_without_hits_says_so():
    blocks = search_blocks(SearchResult("zzz", ()))
    assert_valid_blocks(blocks)
    assert "Nothing in the wiki matches *zzz*" in message_text(blocks)


def candidate(i: int, score: float = 100.0) -> Candidate:
    return Candidate(f"wiki/entities/C{i}.md", f"C{i}", "entity" if i % 2 else "concept", score)


def test_candidates_are_buttons():
    blocks = candidates_blocks("C", tuple(candidate(i) for i in range(8)), share="text:/entity C")
    assert_valid_blocks(blocks)
    buttons = blocks[1]["elements"]
    assert [b["value"] for b in buttons] == [f"wiki/entities/C{i}.md" for i in range(8)]
    assert buttons[1]["text"]["text"] == "C1 (entity)"


def test_unresolved_lists_the_pages_that_mention_it():
    mentions = tuple(ref(f"Page {i}", f"wiki/sources/p{i}.md") for i in range(3))
    blocks = unresolved_blocks(Unresolved("Volcano Engine", mentions), (candidate(1, 60.0),))
    assert_valid_blocks(blocks)
    text = message_text(blocks)
    assert "*Volcano Engine* has no page yet. Mentioned in 3 pages:" in text
    assert "Page 2" in text


def test_no_match_gives_nearest_names_and_hits():
    blocks = no_match_blocks(
        "Bytedanse", (candidate(1, 70.0),), SearchResult("Bytedanse", tuple(hit(i) for i in range(5)))
    )
    assert_valid_blocks(blocks)
    text = message_text(blocks)
    assert "No page is called *Bytedanse*" in text and "Nearest names" in text
    assert sum(1 for b in blocks if b.get("accessory")) == 3


def test_no_match_with_nothing_at_all():
    blocks = no_match_blocks("qqq", (), SearchResult("qqq", ()))
    assert_valid_blocks(blocks)
    assert "Nothing in the wiki mentions it either" in message_text(blocks)


def test_help_uses_the_configured_command_names():
    blocks = help_blocks("/ent", "/wk", IndexState("ready", pages=12, updated_at="2026-01-01T00:00:00"))
    assert_valid_blocks(blocks)
    text = message_text(blocks)
    assert "`/ent NAME`" in text and "`/wk QUERY`" in text and "12 pages" in text


def test_home_view_with_many_sources_is_a_valid_view():
    items = tuple(
        DigestItem(
            f"wiki/sources/s{i}.md",
            f"{HOSTILE} {i}",
            "NSDI",
            2025,
            HOSTILE * 20,
            tuple(ref(f"E{j}", f"wiki/entities/E{j}.md") for j in range(40)),
        )
        for i in range(80)
    )
    view = home_view(items, IndexState("ready", pages=80), "/entity", "/wiki")
    assert_valid_view(view)
    assert "<!channel>" not in json.dumps(view)


@pytest.mark.parametrize(
    ("items", "limit", "expected"),
    [
        (["a", "b", "c"], 100, "a · b · c"),
        (["aaaa", "bbbb", "cccc"], 14, "aaaa · +2 more"),
        (["aaaa", "bbbb", "cccc"], 17, "aaaa · +2 more"),
        (["aaaa", "bbbb", "cccc"], 18, "aaaa · bbbb · cccc"),
        (["aaaa", "bbbb", "cccc", "dddd"], 21, "aaaa · bbbb · +2 more"),
        (["x" * 50], 10, "+1 more"),
        ([], 10, ""),
    ],
)
def test_join_within(items, limit, expected):
    joined = join_within(items, limit)
    assert joined == expected
    assert len(joined) <= max(limit, len("+1 more"))


@pytest.mark.parametrize(
    ("count", "limit", "keep_last"), [(10, 50, 1), (60, 50, 1), (60, 50, 0), (120, 100, 2)]
)
def test_fit_blocks(count, limit, keep_last):
    blocks = [context(str(i)) for i in range(count)]
    fitted = fit_blocks(blocks, limit, keep_last=keep_last)
    assert len(fitted) == min(count, limit)
    if keep_last:
        assert fitted[-keep_last:] == blocks[-keep_last:]
    if count > limit:
        assert f"+{count - limit + 1} more not shown" in json.dumps(fitted)
