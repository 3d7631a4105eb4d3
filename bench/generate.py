"""A deterministic synthetic vault: N pages in the harness format, plus query sets with ground truth.

    python -m bench.generate --pages 1000 --out bench/out/vault-1000

writes ``<out>/vault/wiki/...`` and ``<out>/queries.json``; the same pages and seed always give the same
bytes.
Proportions: 30% entities (organisations, people, products, datasets), 50% sources, 20% concepts.
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import time
from datetime import date, timedelta
from pathlib import Path

from bench import vocabulary as vocab
from bench.catalog import Catalog, Claim, Concept, Entity, Source, Topic
from bench.facts import plant_facts
from bench.naming import (
    NameBook,
    make_concepts,
    make_datasets,
    make_organisations,
    make_people,
    make_products,
    zipf_weights,
)
from bench.prose import Lexicon, Writer
from bench.queries import build_queries
from bench.render import (
    MAX_LISTED_PRODUCTS,
    MAX_OBSERVATIONS,
    concept_page,
    entity_page,
    index_page,
    log_page,
    source_page,
)

START = date(2025, 1, 6)
DEFAULT_SEED = 20260101


def plan_vault(pages: int, seed: int) -> tuple[Catalog, Lexicon]:
    """Decide every page and every relation; nothing is written yet."""
    if pages < 10:
        raise ValueError("a vault needs at least 10 pages")
    rng = random.Random(seed)
    book = NameBook()
    entity_count, concept_count = round(pages * 0.3), round(pages * 0.2)
    organisations = make_organisations(rng, max(1, round(entity_count * 0.15)), book)
    products = make_products(rng, round(entity_count * 0.32), book)
    datasets = make_datasets(rng, round(entity_count * 0.08), book)
    people_wanted = entity_count - len(organisations) - len(products) - len(datasets)
    people = make_people(rng, people_wanted, organisations, book)
    concepts = make_concepts(rng, concept_count, book)
    entities = organisations + products + datasets + people
    lexicon = Lexicon(rng, 1500 + pages // 4)
    source_count = pages - len(entities) - len(concepts)
    sources = plan_sources(rng, source_count, lexicon, organisations, products, datasets, people, concepts)
    for number, page in enumerate([*entities, *concepts, *sources], start=1):
        page.address = f"c-{number:06d}"
    catalog = Catalog(seed=seed, entities=entities, concepts=concepts, sources=sources)
    plant_facts(catalog, lexicon)
    return catalog, lexicon


def plan_sources(
    rng: random.Random,
    count: int,
    lexicon: Lexicon,
    organisations: list[Entity],
    products: list[Entity],
    datasets: list[Entity],
    people: list[Entity],
    concepts: list[Concept],
) -> list[Source]:
    """Sources in ingest order, spread over many days; each introduces at most one product."""
    days = max(14, count // 12)
    offsets = sorted(rng.randrange(days) for _ in range(count))
    introducing = dict(zip(rng.sample(range(count), min(len(products), count)), products, strict=False))
    org_weights = zipf_weights(len(organisations), 0.9)
    concept_weights = zipf_weights(len(concepts), 0.8)
    venues, venue_weights = zip(*vocab.VENUES, strict=True)
    claim_words = lexicon.band(20, 400)
    topics: set[Topic] = set()
    claims: set[tuple[str, str, str]] = set()
    introduced: list[Entity] = []
    sources: list[Source] = []
    for index in range(count):
        created = START + timedelta(days=offsets[index])
        topic = _unique_topic(rng, topics)
        claim = _unique_claim(rng, claims, claim_words)
        product = introducing.get(index)
        title = rng.choice(vocab.TITLE_PATTERNS).format(
            adj=topic.adjective,
            noun=topic.noun[0].title(),
            task=topic.task[0].title(),
            domain=topic.domain[0],
        )
        source = Source(
            title=f"{product.title} - {title}" if product else title,
            year=max(2018, created.year - rng.choice((0, 0, 0, 1, 1, 2, 3, 5))),
            venue=rng.choices(venues, weights=venue_weights)[0],
            created=created,
            time=f"{rng.randint(8, 23):02d}:{rng.randint(0, 59):02d}",
            topic=topic,
            claim=claim,
            product=product,
        )
        if product is not None:
            product.intro = source
            product.org = _pick(rng, organisations, org_weights)
            product.concept = _pick(rng, concepts, concept_weights)
            if product.org is not None:
                product.developer_listed = len(product.org.products) < MAX_LISTED_PRODUCTS
                product.org.products.append(product)
        source.orgs = [product.org] if product is not None and product.org is not None else []
        if not source.orgs or rng.random() < 0.3:
            extra = _pick(rng, organisations, org_weights)
            if extra is not None and extra not in source.orgs:
                source.orgs.append(extra)
        source.persons = _authors(rng, source.orgs, people)
        source.mentions = rng.sample(introduced, min(len(introduced), rng.choice((0, 1, 1, 2, 3))))
        if datasets and rng.random() < 0.3:
            source.mentions.append(rng.choice(datasets))
        source.concepts = _source_concepts(rng, product, concepts, concept_weights)
        for entity in [*source.orgs, *source.persons, *_products(source), *source.mentions]:
            if not entity.sources or entity.sources[-1] is not source:
                entity.sources.append(source)
        for concept in source.concepts:
            concept.sources.append(source)
        if source.concepts and len(source.concepts[0].observations) < MAX_OBSERVATIONS:
            source.concepts[0].observations.append(source)
        if product is not None:
            introduced.append(product)
        sources.append(source)
    return sources


def _pick(rng: random.Random, items: list, cumulative: list[float]):
    return rng.choices(items, cum_weights=cumulative)[0] if items else None


def _products(source: Source) -> list[Entity]:
    return [source.product] if source.product is not None else []


def _unique_topic(rng: random.Random, taken: set[Topic]) -> Topic:
    while True:
        noun, task = rng.choice(vocab.CONCEPT_MODIFIERS), rng.choice(vocab.CONCEPT_HEADS)
        topic = Topic(
            adjective=rng.choice(vocab.TITLE_ADJECTIVES),
            noun=(noun[1], noun[0]),
            task=(task[1], task[0]),
            domain=rng.choice(vocab.TITLE_DOMAINS),
        )
        if topic not in taken:
            taken.add(topic)
            return topic


def _unique_claim(rng: random.Random, taken: set[tuple[str, str, str]], words: list[str]) -> Claim:
    while True:
        a, b, c = rng.sample(words, 3)
        if (a, b, c) not in taken:
            taken.add((a, b, c))
            return Claim(a=a, b=b, c=c, number=rng.randint(5, 95), verb=rng.randrange(len(vocab.CLAIM_VERBS)))


def _authors(rng: random.Random, orgs: list[Entity], people: list[Entity]) -> list[Entity]:
    pool = [person for org in orgs for person in org.members]
    authors = rng.sample(pool, min(len(pool), rng.randint(1, 3)))
    if people and (not authors or rng.random() < 0.3):
        outsider = rng.choice(people)
        if outsider not in authors:
            authors.append(outsider)
    return authors


def _source_concepts(
    rng: random.Random, product: Entity | None, concepts: list[Concept], weights: list[float]
) -> list[Concept]:
    chosen: list[Concept] = [product.concept] if product is not None and product.concept is not None else []
    for concept in rng.choices(concepts, cum_weights=weights, k=rng.randint(1, 3)) if concepts else []:
        if concept not in chosen:
            chosen.append(concept)
    return chosen


def write_vault(catalog: Catalog, lexicon: Lexicon, root: Path) -> None:
    """Render every page under ``root/wiki`` (the vault root is ``root``)."""
    rng = random.Random(catalog.seed + 1)
    writer = Writer(rng, lexicon)
    wiki = root / "wiki"
    for folder in ("entities", "sources", "concepts"):
        (wiki / folder).mkdir(parents=True, exist_ok=True)
    for entity in catalog.entities:
        _write(root / entity.path, entity_page(entity, writer, rng))
    for source in catalog.sources:
        _write(root / source.path, source_page(source, writer, rng))
    for concept in catalog.concepts:
        _write(root / concept.path, concept_page(concept, writer, rng))
    _write(wiki / "log.md", log_page(catalog))
    _write(wiki / "index.md", index_page(catalog))


def _write(path: Path, text: str) -> None:
    path.write_text(text, encoding="utf-8", newline="\n")


def generate(
    pages: int, out: Path, seed: int = DEFAULT_SEED, lookups: int = 400, questions: int = 300
) -> dict:
    """Write ``out/vault`` and ``out/queries.json`` (replacing what was there); return the query sets."""
    catalog, lexicon = plan_vault(pages, seed)
    vault = out / "vault"
    if vault.exists():
        shutil.rmtree(vault)
    write_vault(catalog, lexicon, vault)
    queries = build_queries(catalog, random.Random(seed + 2), lookups=lookups, questions=questions)
    (out / "queries.json").write_text(json.dumps(queries, ensure_ascii=False, indent=1), encoding="utf-8")
    return queries


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.generate", description=__doc__.splitlines()[0])
    parser.add_argument("--pages", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED)
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args(argv)
    started = time.perf_counter()
    queries = generate(args.pages, args.out, args.seed)
    print(
        f"{args.pages} pages, {len(queries['lookups'])} lookups, {len(queries['questions'])} questions "
        f"in {time.perf_counter() - started:.1f} s -> {args.out}"
    )


if __name__ == "__main__":
    main()
