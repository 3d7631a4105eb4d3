"""The UI in Japanese and English: the message catalogs, the language being composed in, and its choice.

Every fixed string of the bot is written in English in the code, marked with ``_()`` (or
``ngettext()``, or ``N_()`` for a constant translated where it is used), and translated in the
gettext catalog ``bot/locale/ja/LC_MESSAGES/sakuin.po``. Babel reads the catalog and compiles it in
memory the first time Japanese is needed, so a plain ``pip install -e .`` has everything and no
compiled file can drift from its source (``make messages`` re-extracts the strings and updates
the catalog; ``tests/bot/test_i18n.py`` fails on a string without a translation).

The language of what is being composed lives in a `ContextVar`: the code that composes a reply
for someone sets it once (``with use_language(...)``), and the builders below it call ``_()``.
``asyncio.to_thread`` copies the context, so a language set in a listener reaches the composer in
its thread. Outside ``use_language`` the source strings (English) are used.

Which language (``UI_LANGUAGE``): ``ja`` or ``en`` always wins. With ``auto``:

- an answer to a question is in the question's language (`question_language`);
- commands, buttons and App Home follow the user's Slack locale (`language_for_locale`, looked up
  by `bot.slack.user_locale`);
- what goes to a channel for everyone (the digest, unfurls) is in Japanese, the team's language
  (`default_language`);
- the command line speaks the system locale's language (``LC_ALL``, ``LC_MESSAGES``, ``LANG``) as
  Slack speaks a user's, and answers a question in its own language;
- whatever cannot be told falls back to Japanese.
"""

from __future__ import annotations

import gettext
import io
import re
import unicodedata
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from functools import cache
from pathlib import Path
from typing import Literal

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.support import Translations

Language = Literal["ja", "en"]
LANGUAGES: tuple[Language, ...] = ("ja", "en")
SOURCE_LANGUAGE: Language = "en"
"""The language the strings are written in (the msgids)."""
FALLBACK_LANGUAGE: Language = "ja"
"""The team's language: used when ``auto`` cannot tell."""
DOMAIN = "sakuin"
LOCALE_DIR = Path(__file__).resolve().parent / "locale"

_language: ContextVar[Language] = ContextVar("ui_language", default=SOURCE_LANGUAGE)


def catalog_path(language: Language) -> Path:
    return LOCALE_DIR / language / "LC_MESSAGES" / f"{DOMAIN}.po"


@cache
def translations(language: Language) -> gettext.NullTranslations:
    """The compiled catalog of ``language`` (the source language needs none)."""
    if language == SOURCE_LANGUAGE:
        return gettext.NullTranslations()
    with catalog_path(language).open("rb") as po:
        catalog = read_po(po, locale=language, domain=DOMAIN)
    compiled = io.BytesIO()
    write_mo(compiled, catalog)  # fuzzy entries are left out, as msgfmt does
    compiled.seek(0)
    return Translations(compiled, domain=DOMAIN)


def current_language() -> Language:
    return _language.get()


@contextmanager
def use_language(language: Language) -> Iterator[Language]:
    """Compose in ``language`` inside the block (and in the threads it starts with ``to_thread``)."""
    token = _language.set(language)
    try:
        yield language
    finally:
        _language.reset(token)


def _(message: str) -> str:
    """``message`` in the current language."""
    return translations(current_language()).gettext(message)


def ngettext(singular: str, plural: str, count: int) -> str:
    """The singular or plural form for ``count``, in the current language (Japanese has one form)."""
    return translations(current_language()).ngettext(singular, plural, count)


def N_(message: str) -> str:
    """Mark a constant for the catalog; translate it with ``_()`` where it is shown."""
    return message


_CJK = re.compile(
    r"[\u3040-\u30ff"  # hiragana, katakana
    r"\u31f0-\u31ff"  # katakana extensions
    r"\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"  # kanji
    r"\uff66-\uff9f]"  # half-width katakana
)
_LATIN_WORD = re.compile(r"[A-Za-z\u00c0-\u024f][A-Za-z0-9\u00c0-\u024f'’\-]*")


def question_language(text: str) -> Language | None:
    """The language a question is written in, or None when it has no letters to tell by.

    The rule: after NFKC (full-width letters become ASCII), count the Japanese characters (kana
    and kanji) and the Latin words. The question is Japanese when it has at least as many Japanese
    characters as Latin words, English otherwise. Words, not letters: a Japanese character carries
    about as much as an English word, and a Japanese question is full of English names
    (``Minder を開発したのはどこ?``: 9 characters against 1 word) that must not outvote it. An
    English question that quotes Japanese terms can tip over (``What is 関連?``: 2 against 2); it is
    rare, and a tie goes to Japanese, the team's language.
    """
    normalized = unicodedata.normalize("NFKC", text)
    japanese = len(_CJK.findall(normalized))
    latin = len(_LATIN_WORD.findall(normalized))
    if japanese == 0 and latin == 0:
        return None
    return "ja" if japanese >= latin else "en"


def language_for_question(text: str, ui_language: str) -> Language:
    """The language of the answer to ``text`` under ``UI_LANGUAGE``."""
    if ui_language in LANGUAGES:
        return ui_language  # type: ignore[return-value]
    return question_language(text) or FALLBACK_LANGUAGE


def language_for_command(ui_language: str) -> Language:
    """The language of a command's or a button's answer: the setting, or under ``auto`` the one the
    caller set from the user's Slack locale (`bot.slack.user_locale`)."""
    return ui_language if ui_language in LANGUAGES else current_language()  # type: ignore[return-value]


def language_for_locale(locale: str | None, ui_language: str) -> Language:
    """The language for a user whose Slack locale is ``locale`` (``ja-JP``, ``en-US``, unknown: None).

    Only English locales get English under ``auto``; every other one, and no locale at all, gets
    the team's Japanese.
    """
    if ui_language in LANGUAGES:
        return ui_language  # type: ignore[return-value]
    if locale and locale.lower().replace("_", "-").split("-")[0] == "en":
        return "en"
    return FALLBACK_LANGUAGE


def default_language(ui_language: str) -> Language:
    """The language for no one in particular (a channel's digest, an unfurl, the terminal): the
    setting, or Japanese under ``auto``."""
    return ui_language if ui_language in LANGUAGES else FALLBACK_LANGUAGE  # type: ignore[return-value]
