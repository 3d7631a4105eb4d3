"""The bundled example vault, read as a user's vault, and the edge cases laid over it (tests/fixtures/)."""

from __future__ import annotations

import pytest

from index.wiki import Wiki
from tests.conftest import EXAMPLE_VAULT
from tests.vaults import EDGE_CASES, edge_vault


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> Wiki:
    built = Wiki.open(EXAMPLE_VAULT, tmp_path_factory.mktemp("demo-index"))
    built.update()
    return built


@pytest.fixture(scope="module")
def wiki(tmp_path_factory: pytest.TempPathFactory) -> Wiki:
    """The example vault with every edge case: what the edge-case tests read."""
    vault = edge_vault(tmp_path_factory.mktemp("edge") / "vault")
    built = Wiki.open(vault, tmp_path_factory.mktemp("index"))
    report = built.update()
    assert [(s.path, s.reason) for s in report.skipped] == [("wiki/entities/Empty Page.md", "empty file")]
    assert {w.path for w in report.warnings} >= {
        "wiki/entities/Broken Encoding.md",
        "wiki/entities/Unclosed Frontmatter.md",
    }
    return built


def test_the_demo_vault_indexes_without_a_problem_file(tmp_path) -> None:
    """`make demo` shows no problem-files table, and every file it adds is a page."""
    report = Wiki.open(EXAMPLE_VAULT, tmp_path / "index").update()
    assert (report.skipped, report.warnings) == ((), ())
    assert report.added == report.pages > 0


def test_the_demo_cards_link_back_only_from_the_demo_pages(demo: Wiki) -> None:
    fixtures = {str(path.relative_to(EDGE_CASES)) for path in EDGE_CASES.rglob("*.md")}
    backlinks = demo.card(demo.lookup("ByteDance").match.path).backlinks
    assert backlinks and not {ref.path for ref in backlinks} & fixtures
    assert all(demo.live().catalog.pages[ref.path].summary for ref in backlinks)


def test_every_indexed_page_is_knowledge_or_companion(wiki: Wiki) -> None:
    for page in wiki.live().catalog.pages.values():
        assert page.path.startswith(
            tuple(
                f"wiki/{folder}/"
                for folder in ("sources", "entities", "concepts", "questions", "surveys", "asks", "briefs")
            )
        ), page.path
        assert not page.path.rsplit("/", 1)[-1].startswith("_")


@pytest.mark.parametrize(
    ("name", "path"),
    [
        ("Unclosed Frontmatter", "wiki/entities/Unclosed Frontmatter.md"),
        ("文字化けページ", "wiki/entities/Broken Encoding.md"),
        ("crlf-fixture", "wiki/entities/CRLF Entity.md"),
        ("インラインタグ", "wiki/concepts/インラインリスト.md"),
        ("ストラグラー", "wiki/concepts/ストラグラー.md"),
        ("straggler", "wiki/concepts/ストラグラー.md"),
        ("PFN", "wiki/entities/Preferred Networks.md"),
        ("さくらコンピュート", "wiki/entities/Sakura Compute Inc.md"),
        ("Flare", "wiki/entities/XPUTimer.md"),
        ("Lyu", "wiki/entities/Michael R. Lyu.md"),
    ],
)
def test_edge_case_pages_resolve(wiki: Wiki, name: str, path: str) -> None:
    match = wiki.lookup(name).match
    assert match is not None and match.path == path


@pytest.mark.parametrize("name", ["Should Not Be Used", "Unclosed Alias"])
def test_names_from_an_unclosed_frontmatter_are_not_registered(wiki: Wiki, name: str) -> None:
    assert wiki.lookup(name).match is None


@pytest.mark.parametrize("name", ["Inline Code Link", "Fenced Code Link", "Tilde Fence Link"])
def test_links_in_code_are_not_links(wiki: Wiki, name: str) -> None:
    assert wiki.lookup(name).unresolved is None


def test_nfd_file_name_resolves_from_nfc_links(wiki: Wiki) -> None:
    assert len(wiki.card("wiki/concepts/ストラグラー.md").backlinks) >= 5


def test_human_layer_is_not_a_backlink(wiki: Wiki) -> None:
    assert not any(
        ref.path.startswith("papers/") for ref in wiki.card("wiki/entities/MegaScale.md").backlinks
    )


def test_large_page_is_searchable_to_its_last_sections(wiki: Wiki) -> None:
    hit = wiki.search("瑠璃色のチェックポイント", limit=1).hits[0]
    assert hit.path == "wiki/concepts/巨大ページ.md" and hit.section == "節 137"


def test_unresolved_name_lists_every_page_that_mentions_it(wiki: Wiki) -> None:
    result = wiki.lookup("Zhuo Jiang")
    assert result.match is None and result.unresolved is not None
    assert len(result.unresolved.mentioned_in) == 8


def test_bytedance_card_groups_relations_as_the_page_does(wiki: Wiki) -> None:
    card = wiki.card(wiki.lookup("ByteDance").match.path)
    labels = [group.label for group in card.groups]
    assert labels[:6] == ["ソース", "関連プロダクト", "関連組織", "関連人物", "共同研究先", "概念"]
    products = [ref.name for ref in card.groups[1].refs]
    assert products == ["MegaScale", "Minder", "ByteRobust", "Mycroft", "LogPilot"]
    years = [ref.year for ref in card.groups[0].refs]
    assert years == sorted(years, reverse=True)


def test_most_linked_entities_first(wiki: Wiki) -> None:
    """The assistant pane's prompts: the entities most pages link to, most linked first."""
    linked = wiki.most_linked(3)
    assert [ref.type for ref in linked] == ["entity"] * 3 and linked[0].name == "ByteDance"
    counts = [len(wiki.card(ref.path).backlinks) for ref in linked]
    assert counts == sorted(counts, reverse=True)
    assert {ref.type for ref in wiki.most_linked(5, frozenset({"concept"}))} == {"concept"}
