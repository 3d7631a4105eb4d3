"""English word forms: the stem a word shares with its inflections and spellings (``rented``,
``renting`` → ``rent``; ``initialised`` → ``initialized``), and a plural's singular (``gpus`` →
``gpu``, ``policies`` → ``policy``). A question's word and a sentence's match in any of their forms;
terms stay as typed.
"""

from __future__ import annotations

import re
import threading
from functools import lru_cache

import snowballstemmer

from index.asking.bridge import is_english


@lru_cache(maxsize=65536)
def stem(word: str) -> str:
    """The Snowball stem of an English word (``rented``, ``renting`` → ``rent``), spelt the American
    way first (``initialised`` → ``initialized``, ``colour`` → ``color``): how a sentence says a word
    of the question in another inflection or spelling. Matching only; terms stay as typed."""
    if not word.isascii():
        return word
    for british, american in _SPELLINGS:
        word = british.sub(american, word)
    stemmer = getattr(_STEMMERS, "english", None)
    if stemmer is None:
        stemmer = _STEMMERS.english = snowballstemmer.stemmer("english")
    return stemmer.stemWord(word)


_STEMMERS = threading.local()
"""One Snowball stemmer per thread: a stemmer keeps the word it works on in itself, and two threads
sharing one corrupt each other's (an IndexError under a burst of questions in bench.load)."""
_SPELLINGS = tuple(
    (re.compile(british), american)
    for british, american in (
        (
            r"(?<=[a-z](?:al|an|ar|at|gn|im|it|iv|mi|ni|om|or|rd|ti|ur))is(e|ed|es|ing|ation|ations|er|ers)$",
            r"iz\1",
        ),
        (r"(?<=[a-z]{2})yse(d|s)?$", r"yze\1"),
        (r"(?<=[a-z]{2})our(s|ed|ing|ite|ites)?$", r"or\1"),
        (r"(?<=[a-z]{3})ogue(s)?$", r"og\1"),
        (r"(?<=[a-z]{2})([cf])ence(s)?$", r"\1ense\2"),
    )
)
"""British spellings and their American forms (-ise, -yse, -our, -ogue, -ence): applied to the
question's words and the sentence's alike, so either spelling finds the other."""


def spellings(word: str) -> tuple[str, ...]:
    """What a text contains where it says ``word`` in any inflection: the word, and for an English
    word in a consonant and -y the stem of its plural (``policy`` → ``polici`` of *policies*). Every
    other inflection (*matches*, *caches*, *mounted*) spells the word whole."""
    if word.isascii() and len(word) > 2 and word.endswith("y") and word[-2] not in "aeiou":
        return (word, f"{word[:-1]}i")
    return (word,)


@lru_cache(maxsize=65536)
def singular(word: str) -> str:
    """``gpus`` → ``gpu``, ``papers`` → ``paper``; ``analysis``, ``status``, ``class`` stay.

    A word in -es or -ies is cut where the dictionary knows the rest as a word: ``caches`` →
    ``cache`` but ``matches`` → ``match``, ``policies`` → ``policy``, ``goes`` → ``go``; a word it
    knows in none of those forms keeps its -es (``kubernetes``, ``hermes``: a name, not a plural).
    A wrong cut weighed as a word no passage contains and had no Japanese rendering."""
    if not word.isascii() or len(word) <= 3 or not word.endswith("s") or word.endswith(("ss", "is")):
        return word
    if word.endswith("us") and len(word) > 4:
        return word
    if not word.endswith("es"):
        return word[:-1]
    cuts = (word[:-1], *((f"{word[:-3]}y",) if word.endswith("ies") else ()), word[:-2])
    return next((cut for cut in cuts if is_english(cut)), word)
