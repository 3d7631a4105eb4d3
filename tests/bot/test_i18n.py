"""The UI in two languages: the catalog matches the code, the language is chosen as documented."""

from __future__ import annotations

import ast
import asyncio
import re
import string
import tomllib
from fnmatch import fnmatch
from pathlib import Path

import pytest
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
from babel.messages.pofile import read_po

from bot.i18n import (
    LOCALE_DIR,
    _,
    catalog_path,
    current_language,
    default_language,
    language_for_locale,
    language_for_question,
    ngettext,
    question_language,
    use_language,
)
from bot.slack.client import build_client
from bot.slack.user_locale import UserLanguages
from tests.bot.fake_slack import FakeSlack
from tests.conftest import REPO, make_settings

CODE_DIRS = ("bot",)


def code_messages() -> dict[str, set[str]]:
    """Every string marked for translation in the code (msgid → files), as `make messages` sees them."""
    found: dict[str, set[str]] = {}
    for directory in CODE_DIRS:
        for filename, _lineno, message, _comments, _context in extract_from_dir(
            REPO / directory, method_map=[("**.py", "python")], keywords=DEFAULT_KEYWORDS
        ):
            msgid = message if isinstance(message, str) else message[0]
            found.setdefault(msgid, set()).add(f"{directory}/{filename}")
    return found


def japanese_catalog():
    with catalog_path("ja").open("rb") as po:
        return read_po(po, locale="ja")


def strings(message) -> tuple[str, ...]:
    return (message.id,) if isinstance(message.id, str) else tuple(message.id)


def translations_of(message) -> tuple[str, ...]:
    return (message.string,) if isinstance(message.string, str) else tuple(message.string)


def fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name is not None}


def test_every_string_in_the_code_has_a_japanese_translation():
    catalog = japanese_catalog()
    translated = {
        message.id if isinstance(message.id, str) else message.id[0]: message for message in catalog
    }
    missing = {
        msgid: sorted(files)
        for msgid, files in code_messages().items()
        if msgid not in translated or not all(translations_of(translated[msgid]))
    }
    assert not missing, f"strings without a Japanese translation (run `make messages`): {missing}"


def test_the_catalog_has_no_stale_or_fuzzy_entries():
    in_code = set(code_messages())
    catalog = japanese_catalog()
    stale = [message.id for message in catalog if message.id and strings(message)[0] not in in_code]
    fuzzy = [message.id for message in catalog if message.id and message.fuzzy]
    assert not stale, f"translations of strings the code no longer has: {stale}"
    assert not fuzzy, f"fuzzy translations are not used: {fuzzy}"


def test_translations_keep_the_placeholders_of_their_source():
    for message in japanese_catalog():
        if not message.id:
            continue
        expected = set().union(*(fields(source) for source in strings(message)))
        for translation in translations_of(message):
            assert fields(translation) == expected, f"{message.id!r} → {translation!r}"


def test_the_catalogs_ship_as_package_data():
    """A wheel carries the .po files (bot/i18n.py compiles them at first use; no build step)."""
    patterns = tomllib.loads((REPO / "pyproject.toml").read_text())["tool"]["setuptools"]["package-data"][
        "bot"
    ]
    catalogs = [path.relative_to(REPO / "bot").as_posix() for path in LOCALE_DIR.rglob("*.po")]
    assert catalogs and all(any(fnmatch(path, pattern) for pattern in patterns) for path in catalogs)


def test_use_language_translates_and_restores():
    assert current_language() == "en" and _("Linked from") == "Linked from"
    with use_language("ja"):
        assert _("Linked from") == "リンク元"
        assert ngettext("Index: {count} page.", "Index: {count} pages.", 3) == "索引: {count} ページ。"
        with use_language("en"):
            assert ngettext("Index: {count} page.", "Index: {count} pages.", 1) == "Index: {count} page."
        assert current_language() == "ja"
    assert current_language() == "en"


async def test_the_language_of_a_listener_reaches_its_thread():
    with use_language("ja"):
        assert await asyncio.to_thread(_, "Share to channel") == "チャンネルに共有"
    assert await asyncio.to_thread(_, "Share to channel") == "Share to channel"


@pytest.mark.parametrize(
    ("text", "language"),
    [
        ("Minder を開発したのはどこ?", "ja"),
        ("それを本番で運用しているチームは?", "ja"),
        ("MegaScale とは", "ja"),
        ("CCL-D とは", "ja"),
        ("ByteDance の MegaScale を開発したのは?", "ja"),
        ("バイトダンス", "ja"),
        ("ｂｙｔｅｄａｎｃｅ について", "ja"),  # full-width letters count as Latin after NFKC
        ("ｍｉｎｄｅｒ とは", "ja"),
        ("字节跳动", "ja"),  # Chinese: kanji, so the UI's Japanese
        ("What is 関連?", "ja"),  # a tie goes to Japanese
        ("who else worked on it?", "en"),
        ("Which system diagnoses CCL hangs?", "en"),
        ("ByteDance", "en"),
        ("ＢｙｔｅＤａｎｃｅ", "en"),
        ("What does the 概念 section list?", "en"),
        ("12345 ???", None),
        ("", None),
    ],
)
def test_question_language(text, language):
    assert question_language(text) == language


@pytest.mark.parametrize(
    ("setting", "text", "language"),
    [
        ("auto", "Minder を開発したのはどこ?", "ja"),
        ("auto", "Who developed Minder?", "en"),
        ("auto", "42", "ja"),
        ("en", "Minder を開発したのはどこ?", "en"),
        ("ja", "Who developed Minder?", "ja"),
    ],
)
def test_language_for_question(setting, text, language):
    assert language_for_question(text, setting) == language


@pytest.mark.parametrize(
    ("setting", "locale", "language"),
    [
        ("auto", "ja-JP", "ja"),
        ("auto", "en-US", "en"),
        ("auto", "en-GB", "en"),
        ("auto", "en_US", "en"),
        ("auto", "fr-FR", "ja"),
        ("auto", None, "ja"),
        ("en", "ja-JP", "en"),
        ("ja", "en-US", "ja"),
    ],
)
def test_language_for_locale(setting, locale, language):
    assert language_for_locale(locale, setting) == language


@pytest.mark.parametrize(("setting", "language"), [("auto", "ja"), ("ja", "ja"), ("en", "en")])
def test_default_language(setting, language):
    assert default_language(setting) == language


def user_answer(locale: str) -> dict:
    return {"ok": True, "user": {"id": "U0ALICE", "name": "alice", "locale": locale}}


async def test_user_languages_read_the_slack_locale_once(tmp_path: Path):
    async with FakeSlack() as slack:
        slack.answer("users.info", user_answer("en-US"))
        client = build_client(make_settings(tmp_path, slack_bot_token="xoxb-t", slack_api_url=slack.api_url))
        languages = UserLanguages("auto")
        assert languages.cached("U0ALICE") == "ja"  # nothing known yet: the fallback
        assert await languages.language(client, "U0ALICE") == "en"
        assert await languages.language(client, "U0ALICE") == "en"
        assert languages.cached("U0ALICE") == "en"
        (call,) = slack.calls_to("users.info")
        assert call.args["user"] == "U0ALICE" and call.args["include_locale"] in ("1", "true", True)


async def test_user_languages_fall_back_to_japanese_when_slack_says_no(tmp_path: Path):
    async with FakeSlack() as slack:
        slack.answer("users.info", {"ok": False, "error": "missing_scope"})
        client = build_client(make_settings(tmp_path, slack_bot_token="xoxb-t", slack_api_url=slack.api_url))
        languages = UserLanguages("auto")
        assert await languages.language(client, "U0BOB") == "ja"
        assert await languages.language(client, "U0BOB") == "ja"
        assert len(slack.calls_to("users.info")) == 1  # the failure is remembered for a while


async def test_a_set_language_never_asks_slack(tmp_path: Path):
    async with FakeSlack() as slack:
        client = build_client(make_settings(tmp_path, slack_bot_token="xoxb-t", slack_api_url=slack.api_url))
        assert await UserLanguages("en").language(client, "U0ALICE") == "en"
        assert await UserLanguages("ja").language(client, "U0ALICE") == "ja"
        assert slack.calls_to("users.info") == []


UI_CALLS = frozenset(
    {
        "section",
        "context",
        "header",
        "button",
        "option",
        "static_select",
        "plain",
        "Reply",
        "BoltResponse",
        "Table",
    }
)
"""Builders and messages whose text arguments a person reads."""
UI_KEYWORDS = frozenset({"text", "placeholder", "label", "body", "title", "description", "status"})
CONSOLE_CALLS = frozenset({"out.print", "console.print"})
"""The command line's standard output (stderr carries diagnostics, in English)."""
_WORD = re.compile(r"[A-Za-z]{2,}")


def call_name(node: ast.Call) -> str:
    func = node.func
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        owner = func.value.id if isinstance(func.value, ast.Name) else ""
        return f"{owner}.{func.attr}" if owner else func.attr
    return ""


def literal_text(node: ast.AST) -> str:
    """The fixed text of an expression: string literals, f-string parts and concatenations, not what
    a call returns (``_()``, ``escape()``…)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        return " ".join(literal_text(value) for value in node.values)
    if isinstance(node, ast.BinOp):
        return literal_text(node.left) + " " + literal_text(node.right)
    if isinstance(node, ast.IfExp):
        return literal_text(node.body) + " " + literal_text(node.orelse)
    return ""


def untranslated(path: Path) -> list[str]:
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not isinstance(node, ast.Call):
            continue
        name = call_name(node)
        if name in UI_CALLS or name in CONSOLE_CALLS:
            arguments = [*node.args, *(k.value for k in node.keywords if k.arg in UI_KEYWORDS)]
        else:
            arguments = [k.value for k in node.keywords if k.arg == "text"]
        for argument in arguments:
            text = literal_text(argument)
            if len(_WORD.findall(text)) >= 2:
                found.append(f"{path.relative_to(REPO)}:{node.lineno}: {text.strip()!r}")
    return found


def test_no_ui_text_bypasses_the_catalog():
    """English words handed straight to a block, a message or the terminal exist in one language only."""
    found = [
        line
        for directory in CODE_DIRS
        for path in sorted((REPO / directory).rglob("*.py"))
        for line in untranslated(path)
    ]
    assert not found, "UI text outside _() / ngettext():\n" + "\n".join(found)


def test_no_translation_call_hides_inside_an_f_string():
    """Babel's extractor does not look inside f-strings: a ``_()`` there would never be translated."""
    found = []
    for directory in CODE_DIRS:
        for path in sorted((REPO / directory).rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.JoinedStr):
                    found += [
                        f"{path.relative_to(REPO)}:{inner.lineno}"
                        for inner in ast.walk(node)
                        if isinstance(inner, ast.Call) and call_name(inner) in ("_", "ngettext")
                    ]
    assert not found, f"_() inside an f-string: {found}"
