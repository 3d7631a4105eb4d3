"""Query sets with ground truth, derived from the plan (not from any engine's output).

Lookups (``/entity``) carry the one expected path; kinds: exact title, alias, case change, full-width, typo
(one edit, and no other name as close), legal suffix (``ByteDance Inc.``).

Questions carry the set of pages that hold the answer; languages ``ja``, ``en`` and ``mixed``:

- ``claim`` (ja): a planted claim ``AによってBのCがN%削減された``
  → the source and the concepts that copied it into their inbox
- ``concept`` (ja): ``異常検知とは?`` → the concept page
- ``topic`` (en): ``which paper proposes adaptive failure detection for GPU Clusters?``
  → the source and its product
- ``developer-en`` (en) / ``developer`` (mixed): who developed ``Minder``
  → the product, its source, its developer (when the developer's page lists it)
- ``concept-en`` (en): ``what is anomaly detection?`` → the concept page (the English name is only an alias)
- ``org-concept`` (mixed): ``ByteDanceの異常検知に関する研究は?``
  → the sources by that organisation on that concept
"""

from __future__ import annotations

import random
from collections.abc import Callable

from rapidfuzz import process
from rapidfuzz.distance import Levenshtein

from bench import vocabulary as vocab
from bench.catalog import Catalog, Entity, Source
from bench.naming import normalise

LOOKUP_SHARES = (
    ("title", 0.2),
    ("alias", 0.2),
    ("case", 0.15),
    ("fullwidth", 0.15),
    ("typo", 0.2),
    ("suffix", 0.1),
)
QUESTION_SHARES = (
    ("ja", "claim", 0.2),
    ("ja", "concept", 0.13),
    ("en", "topic", 0.14),
    ("en", "developer-en", 0.1),
    ("en", "concept-en", 0.1),
    ("mixed", "developer", 0.2),
    ("mixed", "org-concept", 0.13),
)


def build_queries(catalog: Catalog, rng: random.Random, *, lookups: int, questions: int) -> dict:
    return {
        "seed": catalog.seed,
        "pages": catalog.pages,
        "lookups": lookup_queries(catalog, rng, lookups),
        "questions": question_queries(catalog, rng, questions),
    }


def lookup_queries(catalog: Catalog, rng: random.Random, total: int) -> list[dict]:
    entities = catalog.entities
    makers: dict[str, Callable[[Entity], str | None]] = {
        "title": lambda e: e.title,
        "alias": lambda e: rng.choice(e.aliases) if e.aliases else None,
        "case": lambda e: change_case(e.title, rng),
        "fullwidth": lambda e: full_width(e.title) if e.title.isascii() else None,
        "typo": TypoMaker(catalog, rng).make,
        "suffix": lambda e: e.title + rng.choice(vocab.LEGAL_SUFFIXES) if e.company else None,
    }
    queries: list[dict] = []
    for kind, share in LOOKUP_SHARES:
        wanted = max(1, round(total * share))
        made = 0
        for entity in rng.sample(entities, len(entities)):
            if made >= wanted:
                break
            text = makers[kind](entity)
            if text:
                queries.append({"query": text, "kind": kind, "expected": entity.path})
                made += 1
    return queries


def change_case(name: str, rng: random.Random) -> str | None:
    variants = [v for v in (name.lower(), name.upper(), name.swapcase()) if v != name]
    return rng.choice(variants) if variants else None


def full_width(text: str) -> str:
    """ASCII as typed with a Japanese IME in full-width mode (NFKC maps it back)."""
    return "".join(
        "\u3000" if ch == " " else chr(ord(ch) + 0xFEE0) if "!" <= ch <= "~" else ch for ch in text
    )


class TypoMaker:
    """One deletion, insertion, substitution or transposition in a Latin name of 6+ characters, kept only
    when no other page's name is as close to the typo as the intended one."""

    def __init__(self, catalog: Catalog, rng: random.Random) -> None:
        self._rng = rng
        self._names: list[str] = []
        self._owners: list[str] = []
        for page in [*catalog.entities, *catalog.concepts]:
            aliases = page.aliases if isinstance(page, Entity) else [page.english]
            for name in [page.title, *aliases]:
                if name:
                    self._names.append(normalise(name))
                    self._owners.append(page.path)

    def make(self, entity: Entity) -> str | None:
        name = entity.title
        if not name.isascii() or len(name) < 6:
            return None
        typo = self._edit(name)
        key = normalise(typo)
        distance = Levenshtein.distance(key, normalise(name))
        if distance == 0:
            return None
        close = process.extract(
            key, self._names, scorer=Levenshtein.distance, score_cutoff=distance, limit=None
        )
        return typo if all(self._owners[index] == entity.path for _, _, index in close) else None

    def _edit(self, name: str) -> str:
        rng = self._rng
        at = rng.randrange(1, len(name) - 1)
        operation = rng.choice(("delete", "insert", "substitute", "transpose"))
        if operation == "delete":
            return name[:at] + name[at + 1 :]
        if operation == "insert":
            return name[:at] + name[at] + name[at:]
        if operation == "substitute":
            letter = rng.choice("aeioustnrl".replace(name[at].lower(), ""))
            return name[:at] + letter + name[at + 1 :]
        return name[: at - 1] + name[at] + name[at - 1] + name[at + 1 :]


def question_queries(catalog: Catalog, rng: random.Random, total: int) -> list[dict]:
    products = [e for e in catalog.entities if e.intro is not None and e.org is not None]
    english_concepts = [c for c in catalog.concepts if c.english]
    by_org_concept: dict[tuple[str, str], list[Source]] = {}
    for source in catalog.sources:
        for org in source.orgs:
            for concept in source.concepts:
                by_org_concept.setdefault((org.title, concept.title), []).append(source)
    pairs = sorted(by_org_concept)

    def claim(source: Source) -> tuple[str, list[str]]:
        c = source.claim
        text = rng.choice(vocab.CLAIM_QUESTIONS).format(a=c.a, b=c.b, c=c.c, q=vocab.CLAIM_VERBS[c.verb][1])
        holders = [source.path] + [k.path for k in source.concepts if source in k.observations]
        return text, holders

    def topic(source: Source) -> tuple[str, list[str]]:
        t = source.topic
        text = f"which paper proposes {t.adjective.lower()} {t.noun[0]} {t.task[0]} for {t.domain[0]}?"
        return text, [source.path] + ([source.product.path] if source.product is not None else [])

    def developer(product: Entity, english: bool) -> tuple[str, list[str]]:
        forms = (
            ("who developed {}?", "Which organization built {}?")
            if english
            else ("{}を開発したのは?", "{}はどこが開発した?", "{} の開発元は?")
        )
        holders = [product.path, product.intro.path]
        if product.developer_listed:
            holders.append(product.org.path)
        return rng.choice(forms).format(product.title), holders

    def org_concept(pair: tuple[str, str]) -> tuple[str, list[str]]:
        org, concept = pair
        return f"{org}の{concept}に関する研究は?", [s.path for s in by_org_concept[pair]]

    makers: dict[str, tuple[list, Callable[[object], tuple[str, list[str]]]]] = {
        "claim": (catalog.sources, claim),
        "concept": (
            catalog.concepts,
            lambda c: (rng.choice(("{}とは?", "{}とは何か")).format(c.title), [c.path]),
        ),
        "topic": (catalog.sources, topic),
        "developer-en": (products, lambda p: developer(p, True)),
        "concept-en": (english_concepts, lambda c: (f"what is {c.english}?", [c.path])),
        "developer": (products, lambda p: developer(p, False)),
        "org-concept": (pairs, org_concept),
    }
    queries: list[dict] = []
    for lang, kind, share in QUESTION_SHARES:
        pool, make = makers[kind]
        for item in rng.sample(pool, min(len(pool), max(1, round(total * share)))):
            text, answers = make(item)
            queries.append(
                {"query": text, "lang": lang, "kind": kind, "answers": list(dict.fromkeys(answers))}
            )
    return queries
