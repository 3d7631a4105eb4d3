"""What an acronym stands for: ``What does OWASP stand for?``, ``RBAC って何の略?``.

The question names the acronym as written (in capitals: ``OWASP``, ``gRPC``); a sentence answers it
when it spells it out, word by word: ``Open Worldwide Application Security Project``, ``Role-Based
Access Control``, ``JavaScript Object Notation`` (a word may give its inner capitals, or its first
few letters: ``Propagational Investment Currency SYstem``). Function
words may stand between the words (``Department of Defense``) or give their letter (``DoD``). An
expansion is a run of capitalised words (of three or more, as two capitals are as often a name:
*Anthropic Inc*), or stands right beside the acronym in brackets, so that ordinary prose (*a real
alert*) is not read as one.
"""

from __future__ import annotations

import re
from functools import lru_cache

_ACRONYM = re.compile(r"(?<![\w.-])(?=(?:[A-Za-z0-9&]*[A-Z]){2})[A-Za-z][A-Za-z0-9&]{1,9}(?![\w-])")
"""A word with two capitals or more, up to ten characters (OWASP, gRPC, SaaS, APIs)."""
_WORD = re.compile(r"[A-Za-z][A-Za-z0-9']*")
MINOR = frozenset({"of", "and", "for", "the", "to", "in", "on", "a", "an", "at", "by", "with", "or"})
"""Words an expansion may skip (Department of Defense: DoD or DD)."""


def acronym_in(text: str) -> str | None:
    """The acronym the question asks about, folded (``owasp``; ``api`` for APIs), if it writes one."""
    for match in _ACRONYM.finditer(text):
        letters = match.group()
        if letters.endswith("s") and letters[:-1].isupper():
            letters = letters[:-1]
        letters = "".join(char for char in letters if char.isalpha()).casefold()
        if len(letters) >= 2:
            return letters
    return None


def expansion_spans(acronym: str, text: str) -> list[tuple[int, int]]:
    """Where ``text`` spells out ``acronym`` (see the module docstring)."""
    words = [(match.start(), match.end(), match.group()) for match in _WORD.finditer(text)]
    spell = _Speller(acronym, [word for _, _, word in words])
    found = []
    for first, (start, _, word) in enumerate(words):
        if word[0].casefold() != acronym[0] or word.casefold() in MINOR:
            continue  # a run starts with a word of the acronym's first letter
        last = spell.last(0, first, 0)
        if last is None:
            continue
        run = words[first : last + 1]
        end = run[-1][1]
        capitalised = all(word[0].isupper() for _, _, word in run if word.casefold() not in MINOR)
        if (capitalised and len(acronym) >= 3) or _bracketed(acronym, text, start, end):
            found.append((start, end))
    return found


MAX_SKIPPED = 2
"""Function words an expansion may skip in a row (Department of the Interior)."""


class _Speller:
    """Whether the words from one on spell the acronym, each state (letter, word, skips) worked out
    once: a sentence of any length is read in time linear in its words."""

    def __init__(self, acronym: str, words: list[str]) -> None:
        self._acronym = acronym
        self._words = words
        self._known: dict[tuple[int, int, int], int | None] = {}

    def last(self, at: int, index: int, skipped: int) -> int | None:
        """The index of the last word when the words from ``index`` on spell the acronym from its
        letter ``at`` on, else None."""
        acronym = self._acronym
        if at == len(acronym):
            return index - 1
        if index >= len(self._words):
            return None
        state = (at, index, skipped)
        if state not in self._known:
            word = self._words[index]
            found = next(
                (
                    last
                    for given in _letters_of(word)
                    if acronym.startswith(given, at)
                    and (last := self.last(at + len(given), index + 1, 0)) is not None
                ),
                None,
            )
            if found is None and at > 0 and skipped < MAX_SKIPPED and word.casefold() in MINOR:
                found = self.last(at, index + 1, skipped + 1)
            self._known[state] = found
        return self._known[state]


PREFIX = 3
"""The most letters a word gives from its start (PICSY: Propagational … SYstem; IPsec: … SECurity)."""


@lru_cache(maxsize=4096)
def _letters_of(word: str) -> tuple[str, ...]:
    """What a word may give, in the order tried: its first letter and, in a word of both cases, its
    inner capitals (JavaScript: js); then its first letters, one to `PREFIX`. An all-capital word
    (the acronym itself, RBAC) gives nothing."""
    if word.isupper() and len(word) > 1:
        return ()
    folded = word.casefold()
    capitals = (word[0] + "".join(char for char in word[1:] if char.isupper())).casefold()
    return tuple(
        dict.fromkeys((capitals, *(folded[:size] for size in range(1, min(PREFIX, len(folded)) + 1))))
    )


def _bracketed(acronym: str, text: str, start: int, end: int) -> bool:
    """The acronym stands in brackets right after the run, or the run in brackets right after it."""
    after = text[end : end + len(acronym) + 4].casefold()
    before = text[max(0, start - len(acronym) - 4) : start].casefold()
    return (
        re.match(rf"\s*[(（]\s*{re.escape(acronym)}", after) is not None
        or re.search(rf"{re.escape(acronym)}s?\s*[(（]\s*$", before) is not None
    )
