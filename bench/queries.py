"""Query sets with ground truth, derived from the plan (not from any engine's output).

Lookups (``/entity``) carry the one expected path; kinds: exact title, alias, case change, full-width, typo
(one edit, and no other name as close), legal suffix (``ByteDance Inc.``). Questions and their answer keys
are made by `bench.questions`.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from rapidfuzz import process
from rapidfuzz.distance import Levenshtein

from bench import vocabulary as vocab
from bench.catalog import Catalog, Entity
from bench.naming import normalise
from bench.questions import question_queries

LOOKUP_SHARES = (
    ("title", 0.2),
    ("alias", 0.2),
    ("case", 0.15),
    ("fullwidth", 0.15),
    ("typo", 0.2),
    ("suffix", 0.1),
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
