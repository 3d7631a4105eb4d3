"""The answerable facts planted in the plan: what a concept is about, who runs a product and on what.

Questions with answer keys (`bench.questions`) ask for exactly these, so the words that answer them are
decided here, before any page is written, and the rendered pages state them (`bench.render`). The facts have
their own random stream (seed + 3): planting them leaves every other decision of the plan as it was.
"""

from __future__ import annotations

import random

from bench import vocabulary as vocab
from bench.catalog import Catalog, Deployment
from bench.prose import Lexicon

FACTS_SEED_OFFSET = 3
DEFINITION_BAND = (40, 900)
"""Frequency ranks of the words a definition is made of: neither the words on every page nor hapaxes."""
DEPLOYED_SHARE = 0.7
"""Products with a developer whose page says where they run (the rest say nothing about it)."""
GPU_COUNTS = range(256, 16_385, 64)
"""Three- to five-digit counts: never one of the one- or two-digit numbers the filler prose uses."""


def plant_facts(catalog: Catalog, lexicon: Lexicon) -> None:
    rng = random.Random(catalog.seed + FACTS_SEED_OFFSET)
    words = lexicon.band(*DEFINITION_BAND)
    taken: set[tuple[str, str]] = set()
    for concept in catalog.concepts:
        pair = _unique_pair(rng, words, taken)
        concept.definition = f"{pair[0]}の{pair[1]}"
    teams = [
        (modifier + kind + "チーム", f"{modifier_en.title()} {kind_en}")
        for modifier, modifier_en in vocab.CONCEPT_MODIFIERS
        for kind, kind_en in vocab.TEAM_KINDS
        if kind not in modifier and kind_en.casefold() not in modifier_en.casefold()
    ]
    for product in catalog.entities:
        if product.org is None or product.intro is None or rng.random() >= DEPLOYED_SHARE:
            continue
        team, team_en = rng.choice(teams)
        product.deployment = Deployment(team=team, team_en=team_en, gpus=rng.choice(GPU_COUNTS))


def _unique_pair(rng: random.Random, words: list[str], taken: set[tuple[str, str]]) -> tuple[str, str]:
    while True:
        first, second = rng.sample(words, 2)
        if (first, second) not in taken:
            taken.add((first, second))
            return first, second
