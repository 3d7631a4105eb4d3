"""The facade (index/wiki.py): one state per call, and the lookups the edges need instead of
scanning every page themselves (a pasted link, a button's path token, the vault survey)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import date
from pathlib import Path
from urllib.parse import quote

import pytest

import index.wiki
from index.generation import current_generation
from index.web import path_token
from index.wiki import Wiki
from tests.vaults import SMALL_VAULT, entity, write_vault

E = "wiki/entities/"
SOURCE = "wiki/sources/@2026__NSDI__Kite - Fast Checkpoints.md"
CITING_VAULT: dict[str, str | bytes] = {
    SOURCE: '---\ntype: source\ntitle: "Kite"\ncreated: 2026-10-14\n---\n# Kite\n\n速い。\n',
    "wiki/concepts/チェックポイント.md": entity(
        "チェックポイント", kind="concept", body="[[@2026__NSDI__Kite - Fast Checkpoints]] が速い。"
    ),
    E + "Kite Labs.md": entity("Kite Labs", body="[[@2026__NSDI__Kite - Fast Checkpoints]] を出した。"),
}


def write_during_the_second_read(
    monkeypatch: pytest.MonkeyPatch, vault: Path, index_dir: Path, change: Callable[[], None]
) -> None:
    """Another process commits an update right after the facade first looked at the index: a
    method that reads the state twice sees both generations."""
    monkeypatch.setattr(index.wiki, "RECHECK_SECONDS", -1.0)
    reads = 0

    def generation(directory: Path) -> Path | None:
        nonlocal reads
        reads += 1
        if reads == 2:
            change()
            Wiki.open(vault, index_dir).update()
        return current_generation(directory)

    monkeypatch.setattr(index.wiki, "current_generation", generation)


def test_a_lookup_reads_one_state(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    vault = write_vault(tmp_path / "vault", SMALL_VAULT)
    wiki = Wiki.open(vault, tmp_path / "index")
    wiki.update()
    write_during_the_second_read(monkeypatch, vault, tmp_path / "index", (vault / E / "Ant Group.md").unlink)
    result = wiki.lookup("Zhuo Jiang")
    assert result.unresolved is not None
    assert [(ref.path, ref.type) for ref in result.unresolved.mentioned_in] == [
        (E + "Ant Group.md", "entity"),
        (E + "ByteDance.md", "entity"),
    ]


def test_a_digest_reads_one_state(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    vault = write_vault(tmp_path / "vault", CITING_VAULT)
    wiki = Wiki.open(vault, tmp_path / "index")
    wiki.update()
    write_during_the_second_read(
        monkeypatch, vault, tmp_path / "index", (vault / "wiki/concepts/チェックポイント.md").unlink
    )
    (item,) = wiki.digest(date(2026, 10, 14)).items
    assert {ref.path for ref in item.cited_by} == {"wiki/concepts/チェックポイント.md", E + "Kite Labs.md"}


@pytest.fixture(scope="module")
def published(tmp_path_factory: pytest.TempPathFactory) -> Wiki:
    vault = write_vault(tmp_path_factory.mktemp("vault"), SMALL_VAULT)
    wiki = Wiki.open(vault, tmp_path_factory.mktemp("index"), "https://wiki.example/team/")
    wiki.update()
    return wiki


BASE = "https://wiki.example/team/"


@pytest.mark.parametrize(
    ("url", "path"),
    [
        (BASE + "wiki/entities/ByteDance", E + "ByteDance.md"),
        ("http://WIKI.example/team/wiki/entities/ByteDance/?utm=x#概要", E + "ByteDance.md"),
        (BASE + quote("wiki/entities/Sakura Compute Inc."), E + "Sakura Compute Inc..md"),
        (BASE + quote("wiki/concepts/異常検知"), "wiki/concepts/異常検知.md"),
        (BASE + "wiki/entities/Nobody", None),
        ("https://wiki.example/other/wiki/entities/ByteDance", None),
        ("https://elsewhere.example/team/wiki/entities/ByteDance", None),
        (BASE, None),
        ("not a url", None),
    ],
)
def test_a_pasted_link_names_its_page(published: Wiki, url: str, path: str | None) -> None:
    assert published.page_for_url(url) == path


def test_links_need_a_base_url(tmp_path: Path) -> None:
    wiki = Wiki.open(write_vault(tmp_path / "vault", SMALL_VAULT), tmp_path / "index")
    wiki.update()
    assert wiki.page_for_url(BASE + "wiki/entities/ByteDance") is None


def test_a_path_token_names_its_page(published: Wiki) -> None:
    assert published.page_for_token(path_token(E + "Minder.md")) == E + "Minder.md"
    assert published.page_for_token(path_token(E + "Nobody.md")) is None


def test_a_path_token_finds_its_page_in_every_state(tmp_path: Path) -> None:
    """Tokens are kept with the pages (no page is hashed when a button is clicked): a page added by
    an update is found by its token, a removed one no longer."""
    vault = write_vault(tmp_path / "vault", SMALL_VAULT)
    wiki = Wiki.open(vault, tmp_path / "index")
    wiki.update()
    assert wiki.page_for_token(path_token(E + "Minder.md")) == E + "Minder.md"
    assert wiki.page_for_token(path_token(E + "Kite Labs.md")) is None

    write_vault(vault, {E + "Kite Labs.md": entity("Kite Labs")})
    (vault / E / "Minder.md").unlink()
    wiki.update()
    assert wiki.page_for_token(path_token(E + "Kite Labs.md")) == E + "Kite Labs.md"
    assert wiki.page_for_token(path_token(E + "Minder.md")) is None


def test_the_survey_counts_pages_the_index_could_not_read(tmp_path: Path) -> None:
    vault = write_vault(tmp_path / "vault", {E + "A.md": "# A\n", E + "Empty.md": "", "wiki/log.md": ""})
    wiki = Wiki.open(vault, tmp_path / "index")
    assert wiki.survey().folders[1].indexed == 2  # no index yet: the tree alone
    wiki.update()
    folders = {folder.folder: folder for folder in wiki.survey().folders}
    assert folders["wiki/entities"].indexed == 1
    assert folders["wiki/entities"].left_out == (("empty file", 1),)


def test_a_page_text_is_what_the_index_holds(tmp_path: Path) -> None:
    """Sections in page order, a long one joined again from its passages; a file that is no page
    of the index (a catalog, a path outside the vault) has none."""
    long_section = "\n".join(f"- 観測 {n}: GPU の温度が上がると訓練が遅くなる。" for n in range(60))
    vault = write_vault(
        tmp_path / "vault",
        {
            E + "Kite Labs.md": entity("Kite Labs", body=f"## 概要\n\n速い。\n\n## 観測\n\n{long_section}\n"),
            "wiki/log.md": "# log\n\n- 2026-10-14 Kite Labs を追加\n",
        },
    )
    wiki = Wiki.open(vault, tmp_path / "index")
    wiki.update()
    sections = wiki.page_text(E + "Kite Labs.md")
    assert sections is not None
    assert [section.heading for section in sections] == ["概要", "観測", "Properties"]  # frontmatter last
    assert sections[0].text == "速い。"
    assert sections[1].text.split("\n") == long_section.split("\n")
    for path in ("wiki/log.md", E + "Nobody.md", "../vault/" + E + "Kite Labs.md", "/etc/passwd"):
        assert wiki.page_text(path) is None, path


def test_the_state_says_when_an_update_is_under_way(tmp_path: Path) -> None:
    """While the index catches up with an edit, it is not simply "ready" (`/healthz` says so)."""
    vault = write_vault(tmp_path / "vault", {E + "Kite Labs.md": entity("Kite Labs")})
    wiki = Wiki.open(vault, tmp_path / "index")
    wiki.update()
    assert not wiki.state().updating
    (vault / E / "Kite Labs.md").write_text(entity("Kite Labs", body="## 概要\n\n速い。\n"), encoding="utf-8")
    seen: list[bool] = []
    wiki.update(progress=lambda done, total: seen.append(wiki.state().updating))
    assert seen and all(seen)
    assert wiki.state().status == "ready" and not wiki.state().updating


LOGGED_VAULT: dict[str, str | bytes] = {
    E + "Kite Labs.md": entity("Kite Labs", body="Kite Labs was founded in Osaka in 2019."),
    E + "Heron.md": entity("Heron", body="Heron is a scheduler. It restarts failed jobs."),
    "wiki/log.md": (
        "# Wiki Log\n\nFormat: `## [YYYY-MM-DD] type | description`\n\n"
        "## [2026-05-28] init | Wiki initialised\n\nIndex and log bootstrapped.\n\n"
        "## [2026-05-30] ingest | Kite Labs blog\n\n"
        "- Created: [[Kite Labs]] (founded in Kyoto, per the blog)\n"
        "- Enriched: 12 pages\n"
    ),
}


@pytest.mark.parametrize(
    ("question", "from_log", "said"),
    [
        ("When did the wiki get initialised according to the log?", True, "2026-05-28"),
        ("How many pages got enriched in the Kite Labs ingest?", True, "12 pages"),
        ("Where was Kite Labs founded?", False, "Osaka"),  # the page states it: the log is not asked
        ("What does Heron restart?", False, "failed jobs"),
    ],
)
def test_the_log_answers_questions_about_the_wiki_that_no_page_answers(
    tmp_path: Path, question: str, from_log: bool, said: str
) -> None:
    wiki = Wiki.open(write_vault(tmp_path / "vault", LOGGED_VAULT), tmp_path / "index")
    wiki.update()
    answer = wiki.answer(question)
    assert answer.confident
    assert (answer.sentences[0].path == "wiki/log.md") is from_log
    assert said in answer.sentences[0].text


def test_the_log_is_no_page_and_no_answer_to_a_question_about_the_subject(tmp_path: Path) -> None:
    wiki = Wiki.open(write_vault(tmp_path / "vault", LOGGED_VAULT), tmp_path / "index")
    wiki.update()
    assert "wiki/log.md" not in wiki.live().catalog.pages
    assert wiki.search("initialised bootstrapped").hits == ()
    answer = wiki.answer("Which blog said where Heron was written?")  # the log's words, no upkeep asked
    assert all(sentence.path != "wiki/log.md" for sentence in answer.sentences)


def test_an_update_reads_the_changed_log_again(tmp_path: Path) -> None:
    vault = write_vault(tmp_path / "vault", LOGGED_VAULT)
    wiki = Wiki.open(vault, tmp_path / "index")
    wiki.update()
    (vault / "wiki/log.md").write_text(
        "# Log\n\n## [2026-06-01] lint | 3 stale pages found\n", encoding="utf-8"
    )
    wiki.update()
    assert "3 stale pages" in wiki.answer("How many stale pages did the lint find?").sentences[0].text
    assert not wiki.answer("When did the wiki get initialised according to the log?").confident
    (vault / "wiki/log.md").unlink()
    wiki.update()
    assert not wiki.answer("How many stale pages did the lint find?").confident


def test_a_huge_log_is_searched_in_its_first_megabytes_and_a_linked_log_not_at_all(tmp_path: Path) -> None:
    padding = "".join(f"## [2026-01-01] note | padding {n}\n\n{'x ' * 500}\n\n" for n in range(3000))
    late = "## [2026-06-01] lint | 7 stale pages found\n"
    huge = LOGGED_VAULT["wiki/log.md"] + padding + late  # about 3 MB: the lint entry lies past 2 MB
    wiki = Wiki.open(write_vault(tmp_path / "vault", {**LOGGED_VAULT, "wiki/log.md": huge}), tmp_path / "i1")
    wiki.update()
    first = wiki.answer("When did the wiki get initialised according to the log?")
    assert "2026-05-28" in first.sentences[0].text
    assert not wiki.answer("How many stale pages did the lint find?").confident

    outside = tmp_path / "secret.md"
    outside.write_text("# Log\n\n## [2026-06-01] lint | 9 stale pages found, token xoxb-secret\n")
    vault = write_vault(tmp_path / "vault2", {k: v for k, v in LOGGED_VAULT.items() if k != "wiki/log.md"})
    (vault / "wiki/log.md").symlink_to(outside)
    linked = Wiki.open(vault, tmp_path / "i2")
    linked.update()
    answer = linked.answer("How many stale pages did the lint find?")
    assert all("xoxb-secret" not in sentence.text for sentence in answer.sentences)
    assert "xoxb-secret" not in str(answer)
