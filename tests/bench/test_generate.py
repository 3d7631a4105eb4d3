"""The synthetic vault: same seed, same bytes; the harness format; ground truth that points at real pages."""

from __future__ import annotations

import hashlib
import json
import re
import unicodedata
from pathlib import Path

import pytest
import yaml

from bench.answer_keys import key_found, normalise
from bench.generate import generate, plan_vault
from bench.queries import full_width

PAGES = 120
SOURCE_NAME = re.compile(r"^@(\d{4})__(.+?)__(.+?)\.md$")
LOG_HEADING = re.compile(r"^##\s*\[(\d{4}-\d{2}-\d{2})\]\s*([^|]+?)\s*\|\s*(.+)$")
RELATION_LINE = re.compile(r"^- [^:\[\]]+: \[\[[^\]]+\]\]( / \[\[[^\]]+\]\])*$")
DATE_TAG = re.compile(r"^\d{4}/\d{2}/\d{2}$")


def digest(root: Path) -> dict[str, str]:
    return {
        path.relative_to(root).as_posix(): hashlib.sha256(path.read_bytes()).hexdigest()
        for path in sorted(root.rglob("*"))
        if path.is_file()
    }


@pytest.fixture(scope="module")
def vault(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict]:
    out = tmp_path_factory.mktemp("vault")
    return out, generate(PAGES, out, seed=7)


def split_frontmatter(text: str) -> tuple[dict, str]:
    assert text.startswith("---\n")
    head, body = text[4:].split("\n---\n", 1)
    return yaml.safe_load(head), body


def test_same_seed_same_bytes_other_seed_other_bytes(tmp_path: Path, vault: tuple[Path, dict]) -> None:
    out, _ = vault
    generate(PAGES, tmp_path / "again", seed=7)
    generate(PAGES, tmp_path / "other", seed=8)
    assert digest(tmp_path / "again") == digest(out)
    assert digest(tmp_path / "other") != digest(out)


def test_proportions_of_page_types() -> None:
    catalog, _ = plan_vault(1000, seed=3)
    assert catalog.pages == 1000
    assert abs(len(catalog.entities) - 300) <= 15
    assert abs(len(catalog.concepts) - 200) <= 10
    assert abs(len(catalog.sources) - 500) <= 25


def test_every_knowledge_page_has_the_harness_frontmatter(vault: tuple[Path, dict]) -> None:
    out, _ = vault
    wiki = out / "vault" / "wiki"
    pages = sorted((wiki / "entities").glob("*.md")) + sorted((wiki / "concepts").glob("*.md"))
    pages += sorted((wiki / "sources").glob("*.md"))
    assert len(pages) == PAGES
    for page in pages:
        meta, body = split_frontmatter(page.read_text(encoding="utf-8"))
        assert (
            meta["type"]
            == {"entities": "entity", "concepts": "concept", "sources": "source"}[page.parent.name]
        )
        assert re.fullmatch(r"c-\d{6}", meta["address"])
        assert isinstance(meta["aliases"], list)
        assert body.count("\n# ") + body.startswith("# ") == 1, page.name
        assert body.lstrip().startswith(f"# {meta['title']}")
        if "created" in meta:
            assert DATE_TAG.match(str(meta["tags"][0])), page.name
        if meta["type"] == "source":
            match = SOURCE_NAME.match(page.name)
            assert match and match.group(3) == meta["title"]


def test_relation_sections_use_typed_lines(vault: tuple[Path, dict]) -> None:
    out, _ = vault
    checked = 0
    for page in (out / "vault" / "wiki").rglob("*.md"):
        text = page.read_text(encoding="utf-8")
        if "\n## 関連\n" not in text:
            continue
        section = text.split("\n## 関連\n", 1)[1].split("\n## ", 1)[0]
        for line in filter(None, section.strip().splitlines()):
            assert RELATION_LINE.match(line), line
            checked += 1
    assert checked > PAGES


def test_prose_glues_english_names_to_particles(vault: tuple[Path, dict]) -> None:
    out, _ = vault
    text = "".join(p.read_text(encoding="utf-8") for p in (out / "vault" / "wiki" / "sources").glob("*.md"))
    assert re.search(r"[A-Za-z]\]?\]?[のがはをにで]", text)


def test_log_has_one_ingest_entry_per_source_newest_first(vault: tuple[Path, dict]) -> None:
    out, _ = vault
    headings = [
        LOG_HEADING.match(line)
        for line in (out / "vault" / "wiki" / "log.md").read_text(encoding="utf-8").splitlines()
        if line.startswith("## ")
    ]
    assert all(headings)
    dates = [match.group(1) for match in headings]
    assert len(dates) == len(list((out / "vault" / "wiki" / "sources").glob("*.md")))
    assert dates == sorted(dates, reverse=True)
    assert len(set(dates)) > 5
    assert {match.group(2) for match in headings} == {"ingest-paper"}


def test_every_expected_answer_is_a_page_of_the_vault(vault: tuple[Path, dict]) -> None:
    out, queries = vault
    root = out / "vault"
    assert json.loads((out / "queries.json").read_text(encoding="utf-8")) == queries
    assert queries["lookups"] and queries["questions"]
    for query in queries["lookups"]:
        assert (root / query["expected"]).is_file()
    for query in queries["questions"]:
        assert query["lang"] in {"ja", "en", "mixed"}
        assert query["answers"] and all((root / path).is_file() for path in query["answers"])


def test_lookup_variants_normalise_back_to_the_title(vault: tuple[Path, dict]) -> None:
    _, queries = vault
    kinds = {query["kind"] for query in queries["lookups"]}
    assert {"title", "alias", "case", "fullwidth", "typo"} <= kinds
    for query in queries["lookups"]:
        title = Path(query["expected"]).stem
        folded = unicodedata.normalize("NFKC", query["query"]).casefold()
        if query["kind"] in {"case", "fullwidth"}:
            assert folded == title.casefold() and query["query"] != title
        if query["kind"] == "typo":
            assert folded != title.casefold()


def test_planted_claims_are_on_the_pages_named_as_answers(vault: tuple[Path, dict]) -> None:
    out, queries = vault
    claims = [query for query in queries["questions"] if query["kind"] == "claim"]
    assert claims
    for query in claims:
        subject = re.split(r"によって|を使うと|で", query["query"], maxsplit=1)[0]
        for path in query["answers"]:
            assert subject in (out / "vault" / path).read_text(encoding="utf-8")


@pytest.mark.parametrize(
    ("text", "expected"), [("ByteDance", "ＢｙｔｅＤａｎｃｅ"), ("Ant Group", "Ａｎｔ\u3000Ｇｒｏｕｐ")]
)
def test_full_width(text: str, expected: str) -> None:
    assert full_width(text) == expected
    assert unicodedata.normalize("NFKC", expected) == text


def test_every_question_has_answer_keys_its_answer_pages_state(vault: tuple[Path, dict]) -> None:
    """Each key group is stated by at least one page named as holding the answer (NFKC, casefold)."""
    out, queries = vault
    root = out / "vault"
    kinds = set()
    for query in queries["questions"]:
        kinds.add(query["kind"])
        assert query["keys"] and all(query["keys"]), query
        texts = [normalise((root / path).read_text(encoding="utf-8")) for path in query["answers"]]
        for group in query["keys"]:
            assert any(key_found(key, text) for key in group for text in texts), (query["query"], group)
    assert {"gpu", "gpu-en", "team", "team-en", "difference", "difference-en", "papers", "claim-en"} <= kinds


def test_answer_keys_come_from_the_plan(tmp_path: Path) -> None:
    """Same seed, same questions and keys; the planted facts are the keys of their questions."""
    first = generate(PAGES, tmp_path / "a", seed=11)["questions"]
    again = generate(PAGES, tmp_path / "b", seed=11)["questions"]
    assert first == again
    catalog, _ = plan_vault(PAGES, seed=11)
    products = {entity.title: entity for entity in catalog.entities if entity.deployment is not None}
    concepts = {concept.title: concept for concept in catalog.concepts}
    checked = 0
    for query in first:
        if query["kind"] == "gpu":
            product = next(name for name in products if query["query"].startswith(name))
            assert query["keys"] == [[str(products[product].deployment.gpus)]]
            checked += 1
        if query["kind"] == "difference":
            names = [name for name in concepts if query["query"].startswith(name + "と")]
            assert [concepts[names[0]].definition] in query["keys"]
            checked += 1
    assert checked


@pytest.mark.parametrize(
    ("kind", "pattern"),
    [("gpu", r"\d+ GPU の本番クラスタで運用している"), ("team", r"の\S+チーム\([A-Za-z ]+\)が")],
)
def test_deployments_are_stated_in_the_product_page_and_its_paper(
    vault: tuple[Path, dict], kind: str, pattern: str
) -> None:
    out, queries = vault
    asked = [query for query in queries["questions"] if query["kind"] == kind]
    assert asked
    for query in asked:
        product_page, paper = query["answers"]
        for path in (product_page, paper):
            assert re.search(pattern, (out / "vault" / path).read_text(encoding="utf-8")), path
