"""What a reader of one language must not see: the other language's UI phrases, from the catalog."""

from __future__ import annotations

import re
from functools import cache

from babel.messages.pofile import read_po

from bot.i18n import catalog_path

_PLACEHOLDER = re.compile(r"\{[^}]*\}")
_TRIM = " .:;,()`*_…-\n"


@cache
def ui_phrases() -> tuple[frozenset[str], frozenset[str]]:
    """(English phrases, Japanese phrases) of the catalog: the fixed text between placeholders."""
    with catalog_path("ja").open("rb") as po:
        catalog = read_po(po, locale="ja")
    english: set[str] = set()
    japanese: set[str] = set()
    for message in catalog:
        if not message.id:
            continue
        sources = [message.id] if isinstance(message.id, str) else list(message.id)
        targets = [message.string] if isinstance(message.string, str) else list(message.string)
        for source in sources:
            for piece in _PLACEHOLDER.split(source):
                piece = piece.strip(_TRIM)
                if len(re.findall(r"[A-Za-z]+", piece)) >= 2 and not any(piece in t for t in targets):
                    english.add(piece)
        for target in targets:
            for piece in _PLACEHOLDER.split(target):
                piece = piece.strip(_TRIM)
                if len(piece) >= 6 and not any(piece in s for s in sources):
                    japanese.add(piece)
    return frozenset(english), frozenset(japanese)


def assert_in_language(text: str, language: str) -> None:
    """``text`` (what a person reads) shows no UI phrase of the other language."""
    english, japanese = ui_phrases()
    foreign = english if language == "ja" else japanese
    found = sorted(phrase for phrase in foreign if phrase in text)
    assert not found, f"the {language} text shows {found}:\n{text}"
