"""Questions with ground truth and answer keys, derived from the plan (not from any engine's output).

Each question carries ``answers``, the pages that state the answer, and ``keys``, the words that answer it:
a list of groups, every group must be found and any one word of a group will do
(``[["ByteDance", "バイトダンス"]]``; a difference needs both definitions: ``[["…"], ["…"]]``).
Languages ``ja``, ``en`` and ``mixed``; kinds:

- ``claim`` (ja) / ``claim-en`` (mixed): a planted claim ``AによってBのCがN%削減された``, asked
  ``AによってBのCはどれだけ削減される?`` / ``How much does A reduce BのC?``
  → the source and the concepts that copied it into their inbox; key ``N%``
- ``concept`` (ja) / ``concept-en`` (en): ``異常検知とは?`` / ``what is anomaly detection?``
  (the English name is only an alias) → the concept page; key: what its definition says it is about
- ``topic`` (en): ``which paper proposes adaptive failure detection for GPU Clusters?``
  → the source and its product; key: the paper's title
- ``developer`` (mixed) / ``developer-en`` (en): who developed ``Minder``
  → the product, its source, its developer (when the developer's page lists it); key: the developer's names
- ``org-concept`` (mixed): ``ByteDanceの異常検知に関する研究は?``
  → the sources by that organisation on that concept; key: any of their titles
- ``gpu`` / ``gpu-en``: ``Minderは何 GPU の本番クラスタで動いた?`` → the product and its paper; key: the count
- ``team`` / ``team-en``: ``Which team runs Minder in production?`` → the same pages; key: the team
- ``difference`` / ``difference-en``: ``異常検知と障害診断の違いは?`` (two concepts that share a source)
  → both concept pages; keys: both definitions
- ``papers`` / ``papers-en``: ``which papers did Wei Zhang write?`` → the person's page and papers;
  key: any of those papers' titles

The first seven kinds are drawn first and exactly as before answer keys existed, so adding kinds leaves
their questions unchanged.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable

from bench import vocabulary as vocab
from bench.catalog import PERSON, Catalog, Concept, Entity, Source
from bench.render import topic_phrase

QUESTION_SHARES = (
    ("ja", "claim", 0.2),
    ("ja", "concept", 0.13),
    ("en", "topic", 0.14),
    ("en", "developer-en", 0.1),
    ("en", "concept-en", 0.1),
    ("mixed", "developer", 0.2),
    ("mixed", "org-concept", 0.13),
    ("mixed", "claim-en", 0.06),
    ("ja", "gpu", 0.06),
    ("en", "gpu-en", 0.06),
    ("ja", "team", 0.06),
    ("en", "team-en", 0.06),
    ("ja", "difference", 0.06),
    ("en", "difference-en", 0.06),
    ("ja", "papers", 0.06),
    ("en", "papers-en", 0.06),
)
FORMS = {
    "gpu": ("{}は何 GPU の本番クラスタで動いた?", "{}は何GPUで運用されている?"),
    "gpu-en": ("How many GPUs does {} run on in production?", "how many GPUs is {} deployed on?"),
    "team": ("{}を本番で運用しているチームは?", "{}はどのチームが運用している?"),
    "team-en": ("Which team runs {} in production?", "who operates {}?"),
    "difference": ("{}と{}の違いは?", "{}と{}はどう違う?"),
    "difference-en": ("what is the difference between {} and {}?", "{} vs {}: what is the difference?"),
    "papers": ("{}が書いた論文は?", "{}が著者の論文は?"),
    "papers-en": ("which papers did {} write?", "What has {} published?"),
}
Made = tuple[str, list[str], list[list[str]]]
"""A question's text, the pages that state its answer, and its answer keys."""


def question_queries(catalog: Catalog, rng: random.Random, total: int) -> list[dict]:
    products = [e for e in catalog.entities if e.intro is not None and e.org is not None]
    deployed = [p for p in products if p.deployment is not None]
    english_concepts = [c for c in catalog.concepts if c.english]
    authors = [e for e in catalog.entities if e.kind == PERSON and e.sources]
    by_org_concept: dict[tuple[str, str], list[Source]] = {}
    for source in catalog.sources:
        for org in source.orgs:
            for concept in source.concepts:
                by_org_concept.setdefault((org.title, concept.title), []).append(source)
    pairs = sorted(by_org_concept)
    neighbours = concept_pairs(catalog)
    english_neighbours = [(a, b) for a, b in neighbours if a.english and b.english]

    def claim(source: Source, english: bool = False) -> Made:
        c = source.claim
        if english:
            verb = vocab.CLAIM_VERBS_EN[c.verb]
            text = rng.choice(vocab.CLAIM_QUESTIONS_EN).format(a=c.a, b=c.b, c=c.c, verb=verb)
        else:
            text = rng.choice(vocab.CLAIM_QUESTIONS).format(
                a=c.a, b=c.b, c=c.c, q=vocab.CLAIM_VERBS[c.verb][1]
            )
        holders = [source.path] + [k.path for k in source.concepts if source in k.observations]
        return text, holders, [[f"{c.number}%"]]

    def concept(item: Concept, english: bool) -> Made:
        form = "what is {}?" if english else rng.choice(("{}とは?", "{}とは何か"))
        return form.format(item.english if english else item.title), [item.path], [[item.definition]]

    def topic(source: Source) -> Made:
        t = source.topic
        text = f"which paper proposes {t.adjective.lower()} {t.noun[0]} {t.task[0]} for {t.domain[0]}?"
        holders = [source.path] + ([source.product.path] if source.product is not None else [])
        return text, holders, [_unique([source.title, topic_phrase(source)])]

    def developer(product: Entity, english: bool) -> Made:
        forms = (
            ("who developed {}?", "Which organization built {}?")
            if english
            else ("{}を開発したのは?", "{}はどこが開発した?", "{} の開発元は?")
        )
        holders = [product.path, product.intro.path]
        if product.developer_listed:
            holders.append(product.org.path)
        return rng.choice(forms).format(product.title), holders, [[product.org.title, *product.org.aliases]]

    def org_concept(pair: tuple[str, str]) -> Made:
        org, concept = pair
        sources = by_org_concept[pair]
        return f"{org}の{concept}に関する研究は?", [s.path for s in sources], [_titles(sources)]

    def deployment(product: Entity, kind: str) -> Made:
        fact = product.deployment
        keys = [[str(fact.gpus)]] if kind.startswith("gpu") else [[fact.team, fact.team_en]]
        return rng.choice(FORMS[kind]).format(product.title), [product.path, product.intro.path], keys

    def difference(pair: tuple[Concept, Concept], kind: str) -> Made:
        first, second = pair
        names = (first.english, second.english) if kind.endswith("-en") else (first.title, second.title)
        keys = [[first.definition], [second.definition]]
        return rng.choice(FORMS[kind]).format(*names), [first.path, second.path], keys

    def papers(person: Entity, kind: str) -> Made:
        holders = [person.path, *(s.path for s in person.sources)]
        return rng.choice(FORMS[kind]).format(person.title), holders, [_titles(person.sources)]

    makers: dict[str, tuple[list, Callable[[object], Made]]] = {
        "claim": (catalog.sources, claim),
        "concept": (catalog.concepts, lambda c: concept(c, False)),
        "topic": (catalog.sources, topic),
        "developer-en": (products, lambda p: developer(p, True)),
        "concept-en": (english_concepts, lambda c: concept(c, True)),
        "developer": (products, lambda p: developer(p, False)),
        "org-concept": (pairs, org_concept),
        "claim-en": (catalog.sources, lambda s: claim(s, True)),
        "gpu": (deployed, lambda p: deployment(p, "gpu")),
        "gpu-en": (deployed, lambda p: deployment(p, "gpu-en")),
        "team": (deployed, lambda p: deployment(p, "team")),
        "team-en": (deployed, lambda p: deployment(p, "team-en")),
        "difference": (neighbours, lambda pair: difference(pair, "difference")),
        "difference-en": (english_neighbours, lambda pair: difference(pair, "difference-en")),
        "papers": (authors, lambda person: papers(person, "papers")),
        "papers-en": (authors, lambda person: papers(person, "papers-en")),
    }
    queries: list[dict] = []
    for lang, kind, share in QUESTION_SHARES:
        pool, make = makers[kind]
        for item in rng.sample(pool, min(len(pool), max(1, round(total * share)))):
            text, answers, keys = make(item)
            queries.append(
                {
                    "query": text,
                    "lang": lang,
                    "kind": kind,
                    "answers": _unique(answers),
                    "keys": [_unique(group) for group in keys],
                }
            )
    return queries


def concept_pairs(catalog: Catalog) -> list[tuple[Concept, Concept]]:
    """Concepts that appear together on a source: the ones a reader would ask to tell apart."""
    pairs: dict[tuple[str, str], tuple[Concept, Concept]] = {}
    for source in catalog.sources:
        for first, second in zip(source.concepts, source.concepts[1:], strict=False):
            key = tuple(sorted((first.title, second.title)))
            pairs.setdefault(key, (first, second))
    return list(pairs.values())


def _titles(sources: list[Source]) -> list[str]:
    return _unique(source.title for source in sources)


def _unique(items: Iterable[str]) -> list[str]:
    return list(dict.fromkeys(items))
