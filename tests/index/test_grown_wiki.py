"""Real vaults as they are: the grown wiki/ tree and the plain handbook, indexed from their roots and
asked by name, by link, for the digest and by search."""

from __future__ import annotations

from datetime import date

import pytest

from index.wiki import Wiki
from tests.vaults import GROWN_WIKI, HANDBOOK

E, C, S = "wiki/entities/", "wiki/concepts/", "wiki/sources/"
TIDAL = S + "serving/@2026__OSDI__Tidal - Elastic KV Cache Tiering.md"
LOOM = S + "training/@2025__SOSP__Loom - Streaming Checkpoints Without Stalls.md"
HELIX = S + "serving/@2025__NSDI__Helix - Serving Mixed Workloads at Scale.md"


@pytest.fixture(scope="module")
def wiki(tmp_path_factory: pytest.TempPathFactory) -> Wiki:
    built = Wiki.open(GROWN_WIKI, tmp_path_factory.mktemp("index"))
    report = built.update()
    assert report.pages == 18 and not report.skipped
    return built


@pytest.fixture(scope="module")
def handbook(tmp_path_factory: pytest.TempPathFactory) -> Wiki:
    built = Wiki.open(HANDBOOK, tmp_path_factory.mktemp("index"))
    built.update()
    return built


@pytest.mark.parametrize(
    ("name", "path"),
    [
        ("slack", "wiki/channels/slack.md"),
        ("Kestrel", E + "orgs/Kestrel Labs.md"),
        ("ケストレル研究所", E + "orgs/Kestrel Labs.md"),
        ("KV cache tiering", C + "KVキャッシュ階層化.md"),
        ("Loom", LOOM),
        ("Helix", HELIX),
        ("2026-10-02 standup", "wiki/transcripts/2026-10-02 standup.md"),
        # exact (NFKC + casefold) beats loose (hyphens, spaces folded), whatever the folder
        ("LLMOps", E + "LLMOps.md"),
        ("llm-ops", C + "ops/LLM-Ops.md"),
        ("ＬＬＭ－Ｏｐｓ", C + "ops/LLM-Ops.md"),
        ("VECTORDB", "wiki/components/Vector Store.md"),
        ("vector-db", C + "storage/Vector-DB.md"),
        ("Atlas (2024 rewrite)", "wiki/projects/Atlas (2024 rewrite).md"),
    ],
)
def test_nested_and_team_folders_are_found_by_name(wiki: Wiki, name: str, path: str) -> None:
    result = wiki.lookup(name)
    assert result.match is not None and result.match.path == path, result
    assert not result.ambiguous


@pytest.mark.parametrize(
    ("name", "tied"),
    [
        ("Atlas", {E + "Atlas.md", "wiki/projects/Atlas (2024 rewrite).md"}),
        ("Tidal", {E + "products/Tidal.md", "wiki/components/Tidal.md"}),
        ("LLM Ops", {E + "LLMOps.md", C + "ops/LLM-Ops.md"}),
    ],
)
def test_names_tied_at_one_level_are_ambiguous(wiki: Wiki, name: str, tied: set[str]) -> None:
    result = wiki.lookup(name)
    assert result.match is None and result.ambiguous
    assert {candidate.path for candidate in result.candidates[: len(tied)]} == tied


@pytest.mark.parametrize("name", ["Eviction policies", "Lint report", "Reading group", "Helix (hand notes)"])
def test_drafts_meta_and_the_human_layer_are_not_pages(wiki: Wiki, name: str) -> None:
    result = wiki.lookup(name)
    assert result.match is None and not result.ambiguous


def test_a_bare_link_prefers_the_entities_folder_however_deep(wiki: Wiki) -> None:
    citing = {ref.path for ref in wiki.card(E + "products/Tidal.md").backlinks}
    assert {E + "orgs/Kestrel Labs.md", C + "KVキャッシュ階層化.md"} <= citing
    assert "wiki/comparisons/Tidal vs Helix.md" in citing
    assert wiki.card("wiki/components/Tidal.md").backlinks == ()


def test_nested_sources_are_in_the_digest_with_their_nested_brief(wiki: Wiki) -> None:
    digest = wiki.digest(date(2026, 10, 14))
    assert [item.path for item in digest.items] == [TIDAL, LOOM]
    tidal = digest.items[0]
    assert tidal.summary == "- KV キャッシュを三層に置き分けて TTFT を縮める\n- Kestrel Labs の本番で検証"
    assert {ref.path for ref in tidal.cited_by} == {E + "products/Tidal.md", C + "KVキャッシュ階層化.md"}
    assert [item.path for item in wiki.digest(date(2026, 9, 30)).items] == [HELIX]


@pytest.mark.parametrize("query", ["channel export pasted", "preprint as downloaded", "Definition"])
def test_raw_material_and_txt_tables_are_never_answers(wiki: Wiki, query: str) -> None:
    assert wiki.search(query).hits == ()


@pytest.mark.parametrize(
    ("name", "path"),
    [
        ("デプロイ", "運用/デプロイ手順.md"),
        ("Getting started", "はじめに.md"),
        ("サービスレベル目標", "用語集/SLO.md"),
    ],
)
def test_a_plain_vault_is_found_by_its_notes_names(handbook: Wiki, name: str, path: str) -> None:
    match = handbook.lookup(name).match
    assert match is not None and match.path == path


@pytest.mark.parametrize("query", ["Deploy procedure", "Incident response", "incident.md"])
def test_txt_tables_beside_notes_are_not_answers(handbook: Wiki, query: str) -> None:
    assert all(not hit.path.endswith(".txt") for hit in handbook.search(query).hits)
    assert handbook.lookup(query).match is None
