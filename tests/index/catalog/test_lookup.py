"""Entity resolution as a table, on a small real vault and a real index."""

from __future__ import annotations

from pathlib import Path

import pytest

from index.catalog.names import normalize_name, typo_budget
from index.wiki import Wiki
from tests.vaults import SMALL_VAULT, entity, write_vault

E = "wiki/entities/"


@pytest.fixture(scope="module")
def wiki(tmp_path_factory: pytest.TempPathFactory) -> Wiki:
    root = tmp_path_factory.mktemp("vault")
    write_vault(root, SMALL_VAULT)
    built = Wiki.open(root, tmp_path_factory.mktemp("index"))
    built.update()
    return built


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("ByteDance", E + "ByteDance.md"),
        ("bytedance", E + "ByteDance.md"),
        ("BYTEDANCE", E + "ByteDance.md"),
        ("ＢｙｔｅＤａｎｃｅ", E + "ByteDance.md"),
        ("  Byte Dance ", E + "ByteDance.md"),
        ("バイトダンス", E + "ByteDance.md"),
        ("字節跳動", E + "ByteDance.md"),
        ("Bytedanse", E + "ByteDance.md"),
        ("Bytdeance", E + "ByteDance.md"),
        ("Megascal", E + "MegaScale.md"),
        ("ByteDance Seed", E + "ByteDance Seed.md"),
        ("bytedance-seed", E + "ByteDance Seed.md"),
        ("Sakura Compute", E + "Sakura Compute Inc..md"),
        ("Sakura Compute Corporation", E + "Sakura Compute Inc..md"),
        ("さくら計算", E + "Sakura Compute Inc..md"),
        ("UCAS", E + "University of Chinese Academy of Sciences.md"),
        ("ucas", E + "University of Chinese Academy of Sciences.md"),
        ("Anna", E + "Anna Full.md"),
        ("異常検知", "wiki/concepts/異常検知.md"),
        ("Anomaly Detection", "wiki/concepts/異常検知.md"),
        ("蚂蚁集团", E + "Ant Group.md"),
        ("Minder", E + "Minder.md"),
    ],
)
def test_names_resolve_to_their_page(wiki: Wiki, name: str, expected: str) -> None:
    result = wiki.lookup(name)
    assert result.match is not None, result
    assert result.match.path == expected
    assert result.candidates[0].path == expected


@pytest.fixture(scope="module")
def scripts(tmp_path_factory: pytest.TempPathFactory) -> Wiki:
    titles = ["ByteDance", "異常検知システム", "GPU障害検知", "MLOps基盤", "Lumen", "Qubit基"]
    files = {f"{E}{title}.md": entity(title) for title in titles}
    built = Wiki.open(write_vault(tmp_path_factory.mktemp("vault"), files), tmp_path_factory.mktemp("index"))
    built.update()
    return built


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("BytDance", "ByteDance"),  # Latin
        ("異常検地システム", "異常検知システム"),  # Japanese
        ("GPU障害検", "GPU障害検知"),  # mixed: three characters not ASCII, the page's name four
        ("MLOpsx", "MLOps基盤"),  # Latin typed, two characters of the name not ASCII
        ("Lumen基", "Lumen"),  # the other way
        ("Qubit", "Qubit基"),  # at the edge: one edit away from a name with one such character
        ("ByteDance基盤", "ByteDance"),  # at the edge: as many such characters as edits allowed
    ],
)
def test_typos_are_found_whatever_the_script_of_the_name(scripts: Wiki, name: str, expected: str) -> None:
    """A typo can change how many characters of a name are not ASCII: by one an edit."""
    result = scripts.lookup(name)
    assert result.match is not None and result.match.title == expected, result


def test_exact_name_never_answers_a_longer_one(tmp_path: Path) -> None:
    root = write_vault(tmp_path / "v", {"wiki/entities/ByteDance Seed.md": "# ByteDance Seed\n"})
    wiki = Wiki.open(root, tmp_path / "i")
    wiki.update()
    result = wiki.lookup("ByteDance")
    assert result.match is None and not result.ambiguous
    assert [c.path for c in result.candidates] == ["wiki/entities/ByteDance Seed.md"]


@pytest.mark.parametrize("name", ["index", "ByteDance lint", "entities", "ByteDance raw"])
def test_catalogs_meta_and_raw_files_are_never_answers(wiki: Wiki, name: str) -> None:
    result = wiki.lookup(name)
    paths = [c.path for c in result.candidates] + ([result.match.path] if result.match else [])
    assert all(path.startswith(("wiki/entities/", "wiki/concepts/", "wiki/sources/")) for path in paths)
    assert not any(path.endswith(("index.md", "_index.md", "lint-report.md")) for path in paths)


def test_unresolved_name_lists_the_pages_that_mention_it(wiki: Wiki) -> None:
    result = wiki.lookup("zhuo jiang")
    assert result.match is None
    assert result.unresolved is not None and result.unresolved.name == "Zhuo Jiang"
    assert [ref.path for ref in result.unresolved.mentioned_in] == [E + "Ant Group.md", E + "ByteDance.md"]


@pytest.mark.parametrize("name", ["ByteDance", "バイトダンス", "Sakura Compute Corporation", "ucas"])
def test_a_lookup_reads_each_row_from_one_tree(wiki: Wiki, name: str) -> None:
    """After a build the catalog is read from disk: a name's rows are found by the names' own key
    (in key order) and each page through its primary key, never an index and then the table."""
    db = wiki.live().catalog.rows.db()
    statements: list[str] = []
    db.set_trace_callback(statements.append)
    try:
        wiki.lookup(name)
    finally:
        db.set_trace_callback(None)
    selects = [sql for sql in statements if sql.lstrip().upper().startswith("SELECT")]
    assert selects
    for sql in selects:
        plan = [row[-1] for row in db.execute("EXPLAIN QUERY PLAN " + sql)]
        searches = [step for step in plan if step.startswith("SEARCH")]
        assert searches == plan and all("USING INDEX" not in step for step in searches), (sql, plan)


@pytest.mark.parametrize("name", ["", "   ", "!!!", '"*<>', "x" * 5000, "<!channel>"])
def test_junk_is_an_empty_answer_not_an_error(wiki: Wiki, name: str) -> None:
    assert wiki.lookup(name).match is None


def test_ambiguous_names_return_ranked_candidates(tmp_path: Path) -> None:
    root = write_vault(
        tmp_path / "v",
        {
            "wiki/entities/Xuan Zhang (Ant Group).md": "---\ntitle: Xuan Zhang\n---\n# Xuan Zhang\n",
            "wiki/entities/Xuan Zhang (NUS).md": "---\ntitle: Xuan Zhang\n---\n# Xuan Zhang\n",
        },
    )
    wiki = Wiki.open(root, tmp_path / "i")
    wiki.update()
    result = wiki.lookup("Xuan Zhang")
    assert result.match is None and result.ambiguous
    assert {c.path for c in result.candidates} == {
        "wiki/entities/Xuan Zhang (Ant Group).md",
        "wiki/entities/Xuan Zhang (NUS).md",
    }


@pytest.mark.parametrize(
    ("name", "key"),
    [
        ("ByteDance", "bytedance"),
        ("Ｂｙｔｅ　Ｄａｎｃｅ", "bytedance"),
        ("Sakura Compute Inc.", "sakuracompute"),
        ("Example Co., Ltd.", "example"),
        ("株式会社Preferred Networks", "preferrednetworks"),
        ("ｶﾀｶﾅ", "カタカナ"),
        ("Inc.", "inc"),
    ],
)
def test_normalize_name(name: str, key: str) -> None:
    assert normalize_name(name) == key


@pytest.mark.parametrize(("key", "budget"), [("abc", 0), ("minder", 2), ("異常検知", 1), ("x" * 20, 3)])
def test_typo_budget_grows_with_length(key: str, budget: int) -> None:
    assert typo_budget(key) == budget


PLAIN_VAULT: dict[str, str | bytes] = {
    "Projects/Alpha.md": (
        "---\naliases: Alpha Project, AP\ntags: project, ml\n---\n# Alpha\n\nWorks with [[Jane Doe]].\n"
    ),
    "People/Jane Doe.md": "---\naliases:\n  - Jane\n  - J. Doe\n---\nResearcher on [[Alpha]].\n",
    "People/坪内佑樹.md": "---\nalias: [坪内, Yuuki Tsubouchi]\n---\n# 坪内佑樹\n",
    "Daily/2026-10-14.md": "Met [[Jane Doe|Jane]] about [[Beta]].\n",
    "Inbox.md": "# Scratch\n\nideas\n",
    ".obsidian/workspace.json": "{}",
    ".trash/Old.md": "# Old\n",
    "_templates/Template.md": "# Template\n",
}


@pytest.mark.parametrize(
    ("name", "path"),
    [
        ("Alpha", "Projects/Alpha.md"),
        ("Alpha Project", "Projects/Alpha.md"),
        ("AP", "Projects/Alpha.md"),
        ("Jane Doe", "People/Jane Doe.md"),
        ("Jane", "People/Jane Doe.md"),
        ("J. Doe", "People/Jane Doe.md"),
        ("坪内", "People/坪内佑樹.md"),
        ("Yuuki Tsubouchi", "People/坪内佑樹.md"),
        ("坪内佑樹", "People/坪内佑樹.md"),
        ("2026-10-14", "Daily/2026-10-14.md"),
        ("Inbox", "Inbox.md"),
        ("Scratch", "Inbox.md"),
    ],
)
def test_plain_obsidian_vault_titles_and_aliases_resolve(tmp_path: Path, name: str, path: str) -> None:
    wiki = Wiki.open(write_vault(tmp_path / "v", PLAIN_VAULT), tmp_path / "i")
    wiki.update()
    match = wiki.lookup(name).match
    assert match is not None and match.path == path


def test_plain_vault_skips_dot_and_underscore_folders(tmp_path: Path) -> None:
    wiki = Wiki.open(write_vault(tmp_path / "v", PLAIN_VAULT), tmp_path / "i")
    wiki.update()
    assert sorted(page.path for page in wiki.live().catalog.pages.values()) == [
        "Daily/2026-10-14.md",
        "Inbox.md",
        "People/Jane Doe.md",
        "People/坪内佑樹.md",
        "Projects/Alpha.md",
    ]
    assert wiki.lookup("Beta").unresolved is not None


RANKING_VAULT: dict[str, str | bytes] = {
    "wiki/entities/LLMOps.md": entity("LLMOps"),
    "wiki/concepts/LLM-Ops.md": entity("LLM-Ops", kind="concept"),
    "wiki/concepts/Vector-DB.md": entity("Vector-DB", kind="concept"),
    "wiki/entities/Vector Store.md": entity("Vector Store", aliases=("VECTORDB",)),
    "wiki/entities/ByteDance Seed.md": entity("ByteDance Seed", aliases=("Seed Team",)),
    "wiki/concepts/SeedTeam.md": entity("SeedTeam", kind="concept"),
    "wiki/entities/Atlas.md": entity("Atlas"),
    "wiki/concepts/Atlas.md": entity("Atlas", kind="concept"),
    "wiki/entities/ErLynx.md": entity("ErLynx", tier="stub"),
    "wiki/sources/@2025__arXiv__ErLynx - Straggler Detection.md": "# ErLynx: Straggler Detection\n",
}


@pytest.fixture(scope="module")
def ranked(tmp_path_factory: pytest.TempPathFactory) -> Wiki:
    root = write_vault(tmp_path_factory.mktemp("vault"), RANKING_VAULT)
    built = Wiki.open(root, tmp_path_factory.mktemp("index"))
    built.update()
    return built


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        pytest.param("llm-ops", "wiki/concepts/LLM-Ops.md", id="hyphen-as-written-beats-another-type"),
        pytest.param("LLMOps", E + "LLMOps.md", id="one-word"),
        pytest.param("VECTORDB", E + "Vector Store.md", id="exact-alias-beats-loose-file-name"),
        pytest.param("vector-db", "wiki/concepts/Vector-DB.md", id="exact-file-name"),
        pytest.param("Seed Team", E + "ByteDance Seed.md", id="exact-alias-beats-loose-title"),
        pytest.param("seedteam", "wiki/concepts/SeedTeam.md", id="exact-title-beats-loose-alias"),
        pytest.param("ErLynx", E + "ErLynx.md", id="a-stub-title-beats-a-source-short-title"),
        pytest.param("ErLyox", E + "ErLynx.md", id="and-so-does-its-typo"),
    ],
)
def test_an_exact_name_outranks_every_loose_match(ranked: Wiki, name: str, expected: str) -> None:
    result = ranked.lookup(name)
    assert result.match is not None and result.match.path == expected and not result.ambiguous
    assert result.candidates[0].path == expected


@pytest.mark.parametrize(
    ("name", "tied"),
    [
        pytest.param("Atlas", {E + "Atlas.md", "wiki/concepts/Atlas.md"}, id="one-title-two-folders"),
        pytest.param("LLM Ops", {E + "LLMOps.md", "wiki/concepts/LLM-Ops.md"}, id="loose-only"),
    ],
)
def test_pages_tied_at_one_level_are_ambiguous_whatever_their_types(
    ranked: Wiki, name: str, tied: set[str]
) -> None:
    result = ranked.lookup(name)
    assert result.match is None and result.ambiguous
    assert {candidate.path for candidate in result.candidates[:2]} == tied
