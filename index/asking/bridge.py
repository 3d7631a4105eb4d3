"""English ↔ Japanese words through JMdict, the dictionary `jamdict-data` ships as SQLite.

The wiki's own aliases translate its names (`index.asking.question`); this translates the words around
them: ``default`` → デフォルト, 既定 …; ``port`` → ポート; ローカル → ``local``. Renderings are
candidates only: a word's weight and whether a sentence says it are decided against the wiki's own
text (`index.asking.weights`), so a rendering the wiki never writes changes nothing.

The database is read-only and queried directly (indexed look-ups by gloss and by form, well under
a millisecond warm): jamdict's own lookup searches by Japanese form, not by English gloss.
"""

from __future__ import annotations

import re
import sqlite3
import threading
from dataclasses import dataclass
from functools import lru_cache
from itertools import pairwise
from pathlib import Path

import jamdict_data

DATABASE = Path(jamdict_data.__file__).resolve().parent / "jamdict.db"
MAX_RENDERINGS = 12
"""Japanese forms kept per English word, most common first (JMdict's priority marks)."""
MAX_GLOSSES = 6
_HIRAGANA = re.compile(r"[\u3040-\u309f]")
_KATAKANA = re.compile(r"[\u30a0-\u30ff]+")
_ENGLISH_WORD = re.compile(r"[a-z][a-z-]*")
_GLOSS_NOTE = re.compile(r"\s*\([^)]*\)")

_FORMS_BY_GLOSS = """
SELECT DISTINCT s.idseq, g.text LIKE 'to %' FROM SenseGloss g JOIN Sense s ON g.sid = s.ID
WHERE g.text IN (?, ?) OR (g.text >= ? AND g.text < ?) OR (g.text >= ? AND g.text < ?)
"""
"""Entries glossed as the word or as ``to`` the word, with or without a note (``cup (in sports)``):
each term is a range of the gloss index."""
_KANJI_OF = "SELECT k.text, (SELECT count(*) FROM KJP WHERE kid = k.ID) FROM Kanji k WHERE k.idseq = ?"
_KANA_OF = "SELECT n.text, (SELECT count(*) FROM KNP WHERE kid = n.ID) FROM Kana n WHERE n.idseq = ?"
_ENTRIES_BY_FORM = """
SELECT idseq FROM Kanji INDEXED BY Kanji_text WHERE text = ?
UNION SELECT idseq FROM Kana INDEXED BY Kana_text WHERE text = ?
"""
_GLOSSES_OF = """
SELECT g.text FROM Sense s INDEXED BY Sense_idseq JOIN SenseGloss g INDEXED BY SenseGloss_sid ON g.sid = s.ID
WHERE s.idseq = ? AND g.lang = 'eng' ORDER BY s.ID, g.rowid
"""
"""The entry's senses, then each sense's glosses, by their indexes: the database has no statistics,
and left alone SQLite read every gloss through the index by language (every gloss is English),
60-70 ms a word (docs/benchmarks.md)."""

_local = threading.local()


def _connection() -> sqlite3.Connection:
    """This thread's read-only connection (``immutable``: no locks, no journal)."""
    connection = getattr(_local, "connection", None)
    if connection is None:
        connection = _local.connection = sqlite3.connect(f"file:{DATABASE}?mode=ro&immutable=1", uri=True)
    return connection


@lru_cache(maxsize=16384)
def japanese_for(word: str) -> tuple[str, ...]:
    """How Japanese prose may write the English ``word`` (folded): the forms of the JMdict entries
    glossed as that very word, as a noun or a verb (``port``, ``react`` → 反応), or, for an ``-ed``
    or ``-ing`` form the dictionary does not gloss, as the verb it is a form of (``leased`` →
    リース, `base_forms`); most common first; an inflecting form as its stem (用いる → 用い).
    Hiragana-only forms (ある, する) are left out: they say nothing alone."""
    if not _ENGLISH_WORD.fullmatch(word) or len(word) < 3:
        return ()
    connection = _connection()
    forms: dict[str, int] = {}
    entries = _entries(word)
    verb = word
    if not entries:
        verb = next(iter(base_forms(word)), word)
        entries = _entries(verb) if verb != word else []
    if not any(not is_verb for _entry, is_verb in entries):
        # A verb: Japanese says it with a noun and する (反応する), glossed as the noun (reaction).
        entries += [found for noun in _nouns_of(verb) for found in _entries(noun)]
    for entry, _verb in entries:
        rows = connection.execute(_KANJI_OF, (entry,)).fetchall()
        katakana = [row for row in connection.execute(_KANA_OF, (entry,)) if _KATAKANA.fullmatch(row[0])]
        for text, priority in (*rows, *katakana):
            stem = _stem(text)
            if stem is not None and forms.get(stem, -1) < priority:
                forms[stem] = priority
    ranked = sorted(forms, key=lambda form: -forms[form])
    return tuple(ranked[:MAX_RENDERINGS])


_GLOSSED = "SELECT 1 FROM SenseGloss INDEXED BY SenseGloss_text WHERE text IN (?, ?) LIMIT 1"


def is_english(word: str) -> bool:
    """JMdict glosses the folded ``word`` as itself or as ``to`` it: a word of English, not a form
    of one cut wrongly (``match``, not ``matche`` of *matches*)."""
    return _connection().execute(_GLOSSED, (word, f"to {word}")).fetchone() is not None


@lru_cache(maxsize=16384)
def names_a_thing(word: str) -> bool:
    """JMdict knows the English ``word`` as a noun (``ramen``, ``cup``), not only as a verb."""
    return _ENGLISH_WORD.fullmatch(word) is not None and any(not verb for _entry, verb in _entries(word))


_DOUBLED = re.compile(r"([bdgklmnprtz])\1$")
_VOWEL = re.compile(r"[aeiouy]")


@lru_cache(maxsize=16384)
def base_forms(word: str) -> tuple[str, ...]:
    """The verbs JMdict knows that an English ``-ed`` or ``-ing`` form may be of (*leased* →
    *lease*, *stopped* → *stop*, *applied* → *apply*, *forgetting* → *forget*); a stem that is a
    word with an *e* is not also read without it (*cared* is *care*, not *car*)."""
    for ending in ("ed", "ing"):
        stem = word.removesuffix(ending)
        if stem == word or not _VOWEL.search(stem):
            continue  # *thing* is no *th* + ing
        candidates = [f"{stem}e"] if is_english(f"{stem}e") else [stem]
        if _DOUBLED.search(stem):
            candidates.append(stem[:-1])
        if ending == "ed" and stem.endswith("i"):
            candidates.append(f"{stem[:-1]}y")
        return tuple(base for base in candidates if len(base) >= 3 and _is_verb(base))
    return ()


def _is_verb(word: str) -> bool:
    """JMdict glosses ``to`` the word: an English verb."""
    return any(is_verb for _entry, is_verb in _entries(word))


def _nouns_of(verb: str) -> list[str]:
    """The nouns English makes of a verb: react → reaction, develop → development, operate →
    operation."""
    stem = verb[:-1] if verb.endswith("e") else verb
    return [f"{stem}ion", f"{verb}ion", f"{verb}ment", f"{stem}ation"]


def _entries(word: str) -> list[tuple[int, bool]]:
    """The entries glossing ``word``, each with whether it glosses it as a verb."""
    wanted = (word, f"to {word}", f"{word} (", f"{word} )", f"to {word} (", f"to {word} )")
    return [(entry, bool(verb)) for entry, verb in _connection().execute(_FORMS_BY_GLOSS, wanted)]


@lru_cache(maxsize=16384)
def english_for(word: str) -> tuple[str, ...]:
    """The one-word English glosses of the Japanese ``word`` (ローカル → local), first senses first."""
    if len(word) < 2:
        return ()
    connection = _connection()
    glosses: list[str] = []
    for (entry,) in connection.execute(_ENTRIES_BY_FORM, (word, word)).fetchall():
        for (text,) in connection.execute(_GLOSSES_OF, (entry,)):
            gloss = _GLOSS_NOTE.sub("", text.casefold()).strip().removeprefix("to ")
            if _ENGLISH_WORD.fullmatch(gloss) and len(gloss) >= 3 and gloss not in glosses:
                glosses.append(gloss)
    return tuple(glosses[:MAX_GLOSSES])


LONGEST_PART = 8
"""The longest dictionary word looked for inside a compound."""


@dataclass(frozen=True)
class Part:
    """A dictionary word inside a compound: where it stands and its English glosses."""

    start: int
    end: int
    glosses: tuple[str, ...]


@lru_cache(maxsize=4096)
def parts_of(compound: str) -> tuple[Part, ...]:
    """A compound of one script that JMdict lacks, read as the dictionary words it is written with,
    the longest first from the left (最大長 → 最大 · 長, 環境変数 → 環境 · 変数): each part's start,
    end and English glosses. A stretch no word of two characters or more covers is skipped."""
    found: list[Part] = []
    start = 0
    while start < len(compound) - 1:
        for end in range(min(len(compound), start + LONGEST_PART), start + 1, -1):
            glosses = english_for(compound[start:end])
            if glosses:
                found.append(Part(start, end, glosses))
                start = end
                break
        else:
            start += 1
    return _joined(found) if _KATAKANA.fullmatch(compound) else tuple(found)


JOINED = 3
"""Glosses of each part joined with the next part's: the first few senses."""


def _joined(parts: list[Part]) -> tuple[Part, ...]:
    """A katakana compound is often an English compound written as one word (プリ · ロード:
    preload, ワーク · ツリー: worktree): next to its own glosses, each part glosses as its glosses
    joined with those of an adjacent part (only a rendering the wiki writes ever counts)."""
    joins = [
        tuple(
            f"{one.rstrip('-')}{other.lstrip('-')}"
            for one in left.glosses[:JOINED]
            for other in right.glosses[:JOINED]
        )
        if left.end == right.start
        else ()
        for left, right in pairwise(parts)
    ]
    return tuple(
        Part(
            part.start,
            part.end,
            tuple(
                dict.fromkeys(
                    (*part.glosses, *(joins[at - 1] if at else ()), *(joins[at] if at < len(joins) else ()))
                )
            ),
        )
        for at, part in enumerate(parts)
    )


def _stem(form: str) -> str | None:
    """A form as prose contains it: a word that inflects (ends in hiragana after kanji) without its
    ending; None for a form of hiragana alone or a stem of one character."""
    if all(_HIRAGANA.match(char) for char in form):
        return None
    stem = form
    while stem and _HIRAGANA.match(stem[-1]):
        stem = stem[:-1]
    return stem if len(stem) >= 2 else None
