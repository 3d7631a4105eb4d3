"""Names for the synthetic vault: organisations, people, products, datasets and concepts, with aliases.

Every name and alias is unique after NFKC + casefold (the way an entity resolver normalises), so each lookup
query has exactly one right answer. An alias that would collide is dropped, as a careful wiki editor would.
"""

from __future__ import annotations

import random
import unicodedata
from collections.abc import Sequence

from bench import vocabulary as vocab
from bench.catalog import DATASET, ORGANIZATION, PERSON, PRODUCT, Concept, Entity

UNIVERSITY_KINDS = (
    ("{} University", "{}大学"),
    ("{} Institute of Technology", "{}工業大学"),
    ("{} Research Institute", "{}研究所"),
    ("{} National Laboratory", "{}国立研究所"),
    ("{} Normal University", "{}師範大学"),
)


def normalise(name: str) -> str:
    return unicodedata.normalize("NFKC", name).casefold().strip()


class NameBook:
    """The set of names already given out (titles and aliases alike)."""

    def __init__(self) -> None:
        self._taken: set[str] = set()

    def claim(self, name: str) -> bool:
        key = normalise(name)
        if not key or key in self._taken:
            return False
        self._taken.add(key)
        return True

    def taken(self, name: str) -> bool:
        return normalise(name) in self._taken


def make_organisations(rng: random.Random, count: int, book: NameBook) -> list[Entity]:
    """Roughly 70% companies (English name + katakana alias), 30% universities and institutes."""
    universities = [
        (en.format(place), ja.format(place_ja))
        for place, place_ja in vocab.PLACES
        for en, ja in UNIVERSITY_KINDS
    ]
    rng.shuffle(universities)
    companies = [
        (a + b + suffix, ka + kb + ksuffix)
        for a, ka in vocab.COMPANY_SYLLABLES
        for b, kb in vocab.COMPANY_SYLLABLES
        if a != b
        for suffix, ksuffix in vocab.COMPANY_SUFFIXES
    ]
    rng.shuffle(companies)
    wanted_universities = min(len(universities), round(count * 0.3))
    organisations: list[Entity] = []
    for english, japanese in universities[:wanted_universities]:
        if not book.claim(english):
            continue
        entity = Entity(title=english, kind=ORGANIZATION)
        _add_alias(entity, japanese, book)
        initials = "".join(word[0] for word in english.split() if word[0].isupper())
        if len(initials) >= 3:
            _add_alias(entity, initials, book)
        organisations.append(entity)
    for english, katakana in companies:
        if len(organisations) >= count:
            break
        if not book.claim(english):
            continue
        entity = Entity(title=english, kind=ORGANIZATION, company=" " not in english)
        _add_alias(entity, katakana, book)
        organisations.append(entity)
    rng.shuffle(organisations)
    return organisations


def make_people(
    rng: random.Random, count: int, organisations: Sequence[Entity], book: NameBook
) -> list[Entity]:
    """70% romanised names, 30% Japanese names in kanji with a romanised alias.

    A name already taken gets the affiliation in parentheses (``Xuan Zhang (Ant Group)``), as the real
    wiki does.
    """
    people: list[Entity] = []
    org_weights = zipf_weights(len(organisations), 0.9)
    for _ in range(count):
        org = rng.choices(organisations, cum_weights=org_weights)[0] if organisations else None
        alias = None
        if rng.random() < 0.3:
            (surname, surname_en), (given, given_en) = (
                rng.choice(vocab.JA_SURNAMES),
                rng.choice(vocab.JA_GIVEN_NAMES),
            )
            name, alias = surname + given, f"{given_en} {surname_en}"
        else:
            name = f"{rng.choice(vocab.FIRST_NAMES)} {rng.choice(vocab.LAST_NAMES)}"
        if not book.claim(name):
            if org is None or not book.claim(f"{name} ({org.title})"):
                continue
            name, alias = f"{name} ({org.title})", None
        person = Entity(title=name, kind=PERSON, org=org)
        if alias:
            _add_alias(person, alias, book)
        if org is not None:
            org.members.append(person)
        people.append(person)
    return people


def make_products(rng: random.Random, count: int, book: NameBook) -> list[Entity]:
    """CamelCase system names (``FluxRelay``, ``Minder``); a quarter keep their former name as an alias."""
    products: list[Entity] = []
    attempts = 0
    while len(products) < count and attempts < count * 50:
        attempts += 1
        name = product_name(rng)
        if not book.claim(name):
            continue
        product = Entity(title=name, kind=PRODUCT, kind_label=rng.choice(vocab.PRODUCT_KINDS))
        if rng.random() < 0.25:
            _add_alias(product, product_name(rng), book)
        products.append(product)
    return products


def make_datasets(rng: random.Random, count: int, book: NameBook) -> list[Entity]:
    datasets: list[Entity] = []
    attempts = 0
    while len(datasets) < count and attempts < count * 50:
        attempts += 1
        name = rng.choice(vocab.PRODUCT_SYLLABLES).capitalize() + rng.choice(vocab.DATASET_SUFFIXES)
        if book.claim(name):
            datasets.append(Entity(title=name, kind=DATASET))
    return datasets


def product_name(rng: random.Random) -> str:
    pieces = rng.sample(vocab.PRODUCT_SYLLABLES, 3 if rng.random() < 0.3 else 2)
    name = "".join(pieces)
    return name[0].upper() + name[1:] + rng.choice(vocab.PRODUCT_DECORATIONS)


def make_concepts(rng: random.Random, count: int, book: NameBook) -> list[Concept]:
    """Japanese compound terms (``異常検知``, ``分散訓練障害診断``) with their English gloss as an alias."""
    pairs = [(m, h) for m in vocab.CONCEPT_MODIFIERS for h in vocab.CONCEPT_HEADS]
    rng.shuffle(pairs)
    concepts: list[Concept] = []
    for (modifier, modifier_en), (head, head_en) in pairs[: min(count, len(pairs) * 2 // 3)]:
        _add_concept(concepts, modifier + head, f"{modifier_en} {head_en}", book)
    attempts = 0
    while len(concepts) < count and attempts < count * 50:
        attempts += 1
        (m1, m1_en), (m2, m2_en) = rng.sample(vocab.CONCEPT_MODIFIERS, 2)
        head, head_en = rng.choice(vocab.CONCEPT_HEADS)
        _add_concept(concepts, m1 + m2 + head, f"{m1_en} {m2_en} {head_en}", book)
    return concepts


def zipf_weights(count: int, exponent: float) -> list[float]:
    """Cumulative weights for ``random.choices``: item i has weight 1 / (i + 1) ** exponent."""
    total, cumulative = 0.0, []
    for rank in range(count):
        total += 1.0 / (rank + 1) ** exponent
        cumulative.append(total)
    return cumulative


def _add_concept(concepts: list[Concept], title: str, english: str, book: NameBook) -> None:
    if not book.claim(title):
        return
    concepts.append(Concept(title=title, english=english if book.claim(english) else ""))


def _add_alias(entity: Entity, alias: str, book: NameBook) -> None:
    if book.claim(alias):
        entity.aliases.append(alias)
