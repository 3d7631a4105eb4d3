"""Text analysis for mixed Japanese/English wiki prose.

Lucene-CJKAnalyzer style: NFKC + casefold; runs of Latin letters and digits are words; runs of CJK
characters become overlapping character bigrams (a one-character run stays itself). Positions are
consecutive, so a run of bigrams can be matched as a phrase, which equals a substring match.

The search engine tokenizes with it (`index.store.engine.CJKTokenizer`), and so does every reader
of a question or a name, so that the index and its readers cut text the same way.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass

_CJK = (
    "\u3005\u3007\u303b"  # 々 〇 〻
    "\u3040-\u309f"  # hiragana
    "\u30a0-\u30ff"  # katakana (with ー)
    "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"  # kanji
    "\uac00-\ud7af"  # hangul syllables
)
_TOKEN = re.compile(rf"(?P<cjk>[{_CJK}]+)|(?P<word>[^\W_{_CJK}]+)")
_HIRAGANA = re.compile(r"^[\u3040-\u309f]+$")


@dataclass(frozen=True)
class Token:
    text: str
    position: int
    start: int
    end: int
    cjk: bool


def fold(text: str) -> str:
    """NFKC + casefold: full-width letters, half-width katakana and case all collapse."""
    return unicodedata.normalize("NFKC", text).casefold()


def tokenize(text: str) -> Iterator[Token]:
    """Yield tokens of folded text; offsets refer to the folded string."""
    for span in token_spans(text):
        yield Token(*span)


def token_spans(text: str) -> Iterator[tuple[str, int, int, int, bool]]:
    """`tokenize` as plain tuples (text, position, start, end, cjk): what indexing a whole vault
    goes through, millions of times, where building a `Token` each time costs a tenth of a build."""
    position = 0
    for match in _TOKEN.finditer(fold(text)):
        run = match.group()
        start = match.start()
        if match.lastgroup == "word" or len(run) == 1:
            yield (run, position, start, match.end(), match.lastgroup != "word")
            position += 1
            continue
        for offset in range(len(run) - 1):
            yield (run[offset : offset + 2], position, start + offset, start + offset + 2, True)
            position += 1


def token_positions(text: str) -> dict[str, list[int]]:
    """Each token of `token_spans` with its positions, in order: what the index stores of a passage
    (the loop of `token_spans` without a tuple a token, for a build's millions of them)."""
    positions: dict[str, list[int]] = {}
    position = 0
    for match in _TOKEN.finditer(fold(text)):
        run = match.group()
        if match.lastgroup == "word" or len(run) == 1:
            found = positions.get(run)
            if found is None:
                positions[run] = [position]
            else:
                found.append(position)
            position += 1
            continue
        for offset in range(len(run) - 1):
            bigram = run[offset : offset + 2]
            found = positions.get(bigram)
            if found is None:
                positions[bigram] = [position + offset]
            else:
                found.append(position + offset)
        position += len(run) - 1
    return positions


def latin_words(folded: str) -> list[str]:
    """The Latin words and numbers of folded text, as `tokenize` reads them (CJK runs left out)."""
    return [match.group() for match in _TOKEN.finditer(folded) if match.lastgroup == "word"]


def is_function_bigram(term: str) -> bool:
    """A bigram of hiragana only (particles, endings: した, のは) says little about the topic."""
    return bool(_HIRAGANA.match(term))
