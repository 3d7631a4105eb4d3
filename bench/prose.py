"""Japanese prose with a Zipf-like vocabulary and English names glued to particles.

A handful of words (the top ranks) land on nearly every page; most words are rare. That is the shape that
makes full-text search expensive for engines whose cost grows with the number of matching documents.
"""

from __future__ import annotations

import random
import re
from collections.abc import Sequence

from bench import vocabulary as vocab
from bench.naming import zipf_weights

SLOT = re.compile(r"(\{[EWVN]\})")
ZIPF_EXPONENT = 1.0


class Lexicon:
    """Words ranked by frequency: the hand-written words first (shuffled), then generated compounds."""

    def __init__(self, rng: random.Random, size: int) -> None:
        base = list(dict.fromkeys([*vocab.JA_WORDS, *vocab.EN_TERMS]))
        rng.shuffle(base)
        known = set(base)
        compounds: list[str] = []
        while len(base) + len(compounds) < size:
            word = "".join(rng.sample(vocab.JA_WORDS, 2))
            if word not in known:
                known.add(word)
                compounds.append(word)
        self.words: list[str] = base + compounds
        self._cumulative = zipf_weights(len(self.words), ZIPF_EXPONENT)

    def draw(self, rng: random.Random, count: int) -> list[str]:
        return rng.choices(self.words, cum_weights=self._cumulative, k=count)

    def band(self, low: int, high: int) -> list[str]:
        """Japanese words between two frequency ranks (mid-frequency words for planted claims)."""
        return [word for word in self.words[low:high] if not word.isascii()]


class Writer:
    """Fills sentence templates: words from the lexicon, names from the page's own neighbourhood."""

    def __init__(self, rng: random.Random, lexicon: Lexicon) -> None:
        self._rng = rng
        self._lexicon = lexicon
        self._templates = [SLOT.split(template) for template in vocab.SENTENCES]

    def sentences(self, count: int, names: Sequence[str] = ()) -> str:
        rng = self._rng
        words = iter(self._lexicon.draw(rng, count * 8))
        out: list[str] = []
        for _ in range(count):
            for part in rng.choice(self._templates):
                if part == "{W}":
                    out.append(next(words))
                elif part == "{E}":
                    out.append(self.mention(rng.choice(names)) if names else next(words))
                elif part == "{V}":
                    out.append(rng.choice(vocab.SURU_VERBS))
                elif part == "{N}":
                    out.append(str(rng.randint(2, 99)))
                else:
                    out.append(part)
        return "".join(out)

    def mention(self, name: str) -> str:
        """A name as prose writes it: a wikilink 40% of the time, else bare (and glued to the particle)."""
        return f"[[{name}]]" if self._rng.random() < 0.4 else name

    def phrase(self) -> str:
        first, second = self._lexicon.draw(self._rng, 2)
        return f"{first}の{second}"
