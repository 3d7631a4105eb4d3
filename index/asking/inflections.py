"""The other inflections of a question's English terms that the index holds, searched as the terms.

The answer step matches a word in any inflection (`index.asking.wordforms.stem`); the search must
too, or the page that says only *Sensitive ports* is never read for *which port …*. The forms are
found among the index's words that begin as the term does (`PassageStore.words_from`), so that only
words the wiki writes are searched, and the store scores them as one term
(`index.store.values.QueryPlan.variants`).
"""

from __future__ import annotations

from index.asking.wordforms import stem
from index.store.values import PassageStore

MIN_PREFIX = 3
"""Letters a term's forms must share for them to be looked up: *us* of *using* would read every
word in *us*."""
INFLECTED_TERMS = 12
"""Terms of one question whose forms are looked up (the first ones: a question's words come first,
then the renderings added to them), so that a long question of short words costs a bounded time."""
MAX_FORMS = 8
"""Forms searched for one term, the commonest spellings sorting first among a few."""


def inflections_held(
    store: PassageStore, terms: tuple[str, ...], kind: str = ""
) -> dict[str, tuple[str, ...]]:
    """Each English term's other forms that the passages (of ``kind``) hold (``port``: ``ports``;
    ``mounted``: ``mount``, ``mounting``), none that is itself a term of the question."""
    held: dict[str, tuple[str, ...]] = {}
    latin = [term for term in terms if term.isascii() and term.isalpha()]
    for term in latin[:INFLECTED_TERMS]:
        stemmed = stem(term)
        prefix = _shared_prefix(term, stemmed)
        if len(prefix) < MIN_PREFIX:
            continue
        forms = [
            word
            for word in store.words_from(prefix, kind)
            if word != term and word not in terms and stem(word) == stemmed
        ]
        if forms:
            held[term] = tuple(forms[:MAX_FORMS])
    return held


def _shared_prefix(term: str, stemmed: str) -> str:
    """What every form of the term begins with: what it shares with its stem (*polic* of *policy*,
    *polici*), without a final *e* that its *-ing* form drops (*mak* of *make*, for *making*)."""
    shared = next((at for at, (a, b) in enumerate(zip(term, stemmed, strict=False)) if a != b), len(stemmed))
    prefix = term[: min(shared, len(term))]
    return prefix[:-1] if prefix.endswith("e") and len(prefix) > MIN_PREFIX else prefix
