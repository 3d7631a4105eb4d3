"""Is the answer on the first screen? Matching a question's answer keys in what a reply shows.

A reply's text is compared the way `bot.blocks.visible.first_screen` gives it: NFKC-normalised and
case-folded; the keys are normalised the same way. Two rules keep the match honest:

- the question itself, echoed back by a reply (``passages for …``), is cut out before matching: repeating
  the question is not answering it;
- a key that starts or ends with a digit must not touch another digit there (``5%`` is not found in
  ``35%``, ``128`` not in ``1280``).

The real-wiki benchmark (`bench.real`) also ignores spaces (``ignore_spaces``): ``8 hours`` is found in
``8hours`` and ``8 時間`` in ``8時間``, since writers of Japanese and English space numbers and units freely.

A question is answered when every group of its keys has one member in the text (`bench.questions`).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Sequence

ECHO = "\x00"


def normalise(text: str) -> str:
    return unicodedata.normalize("NFKC", text).casefold()


def without_question(text: str, question: str) -> str:
    """``text`` (already normalised) with every verbatim echo of the question replaced by a marker."""
    echoed = " ".join(normalise(question).split())
    return text.replace(echoed, ECHO) if echoed else text


def key_found(key: str, text: str, *, ignore_spaces: bool = False) -> bool:
    """``key`` occurs in the normalised ``text``, not glued to other digits at a digit edge; with
    ``ignore_spaces``, whitespace in either does not count."""
    needle = normalise(key).strip()
    if ignore_spaces:
        needle = "".join(needle.split())
    if not needle:
        return False
    before = r"(?<!\d)" if needle[0].isdigit() else ""
    after = r"(?!\d)" if needle[-1].isdigit() else ""
    body = r"\s*".join(map(re.escape, needle)) if ignore_spaces else re.escape(needle)
    return re.search(before + body + after, text) is not None


def answered(keys: Sequence[Sequence[str]], text: str, question: str, *, ignore_spaces: bool = False) -> bool:
    """Every key group has a member in ``text`` (normalised), the question's own echo not counting."""
    if not keys:
        return False
    text = without_question(text, question)
    return all(any(key_found(key, text, ignore_spaces=ignore_spaces) for key in group) for group in keys)


def first_rank(paths: Iterable[str], answers: Iterable[str]) -> int | None:
    """1-based rank of the first page that states the answer, or None when none of ``paths`` does."""
    wanted = set(answers)
    return next((rank for rank, path in enumerate(paths, start=1) if path in wanted), None)


def reciprocal_rank(paths: Iterable[str], answers: Iterable[str]) -> float:
    rank = first_rank(paths, answers)
    return 0.0 if rank is None else 1.0 / rank
