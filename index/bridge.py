"""English ↔ Japanese words through JMdict, the dictionary `jamdict-data` ships as SQLite.

The wiki's own aliases translate its names (`index.question`); this translates the words around
them: ``default`` → デフォルト, 既定 …; ``port`` → ポート; ローカル → ``local``. Renderings are
candidates only: a word's weight and whether a sentence says it are decided against the wiki's own
text (`index.weights`), so a rendering the wiki never writes changes nothing.

The database is read-only and queried directly (indexed look-ups by gloss and by form, well under
a millisecond warm): jamdict's own lookup searches by Japanese form, not by English gloss.
"""

from __future__ import annotations

import re
import sqlite3
import threading
from functools import lru_cache
from pathlib import Path

import jamdict_data

DATABASE = Path(jamdict_data.__file__).resolve().parent / "jamdict.db"
MAX_RENDERINGS = 12
"""Japanese forms kept per English word, most common first (JMdict's priority marks)."""
MAX_GLOSSES = 6
_HIRAGANA = re.compile(r"[\u3040-\u309f]")
_ENGLISH_WORD = re.compile(r"[a-z][a-z-]*")
_GLOSS_NOTE = re.compile(r"\s*\([^)]*\)")

_FORMS_BY_GLOSS = """
SELECT DISTINCT s.idseq FROM SenseGloss g INDEXED BY SenseGloss_text JOIN Sense s ON g.sid = s.ID
WHERE g.text IN ({marks})
"""
_KANJI_OF = "SELECT k.text, (SELECT count(*) FROM KJP WHERE kid = k.ID) FROM Kanji k WHERE k.idseq = ?"
_KANA_OF = "SELECT n.text, (SELECT count(*) FROM KNP WHERE kid = n.ID) FROM Kana n WHERE n.idseq = ?"
_ENTRIES_BY_FORM = """
SELECT idseq FROM Kanji INDEXED BY Kanji_text WHERE text = ?
UNION SELECT idseq FROM Kana INDEXED BY Kana_text WHERE text = ?
"""
_GLOSSES_OF = """
SELECT g.text FROM Sense s JOIN SenseGloss g ON g.sid = s.ID WHERE s.idseq = ? AND g.lang = 'eng'
ORDER BY s.ID
"""

_INFLECTIONS = (
    ("ies", "y"),
    ("ied", "y"),
    ("ing", ""),
    ("ing", "e"),
    ("ed", ""),
    ("ed", "e"),
    ("es", ""),
    ("s", ""),
)
_local = threading.local()


def _connection() -> sqlite3.Connection:
    """This thread's read-only connection (``immutable``: no locks, no journal)."""
    connection = getattr(_local, "connection", None)
    if connection is None:
        connection = _local.connection = sqlite3.connect(f"file:{DATABASE}?mode=ro&immutable=1", uri=True)
    return connection


def lemmas(word: str) -> list[str]:
    """The word and the forms it may be inflected from (``developed`` → develop, develope …)."""
    found = [word]
    for suffix, replacement in _INFLECTIONS:
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            found.append(word[: -len(suffix)] + replacement)
    return list(dict.fromkeys(found))


@lru_cache(maxsize=16384)
def japanese_for(word: str) -> tuple[str, ...]:
    """How Japanese prose may write the English ``word`` (folded): the forms of the JMdict entries
    with that gloss, most common first; a verb or adjective as its stem (用いる → 用い), so that its
    inflections are found. Hiragana-only forms (ある, する) are left out: they say nothing alone."""
    if not _ENGLISH_WORD.fullmatch(word) or len(word) < 3:
        return ()
    connection = _connection()
    for lemma in lemmas(word):
        wanted = (lemma, f"to {lemma}")
        entries = [row[0] for row in connection.execute(_FORMS_BY_GLOSS.format(marks="?, ?"), wanted)]
        if entries:
            break
    else:
        return ()
    forms: dict[str, int] = {}
    for entry in entries:
        rows = (
            connection.execute(_KANJI_OF, (entry,)).fetchall()
            or connection.execute(_KANA_OF, (entry,)).fetchall()
        )
        for text, priority in rows:
            stem = _stem(text)
            if stem is not None and forms.get(stem, -1) < priority:
                forms[stem] = priority
    ranked = sorted(forms, key=lambda form: -forms[form])
    return tuple(ranked[:MAX_RENDERINGS])


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


def _stem(form: str) -> str | None:
    """A form as prose contains it: a word that inflects (ends in hiragana after kanji) without its
    ending; None for a form of hiragana alone or a stem of one character."""
    if all(_HIRAGANA.match(char) for char in form):
        return None
    stem = form
    while stem and _HIRAGANA.match(stem[-1]):
        stem = stem[:-1]
    return stem if len(stem) >= 2 else None
