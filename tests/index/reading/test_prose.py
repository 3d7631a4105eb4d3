"""Page text as people read it (index/reading/prose.py), as tables."""

from __future__ import annotations

import pytest

from index.reading.prose import blurb_text, link_label, plain_text, prose_label, shorten, strip_citations


@pytest.mark.parametrize(
    ("markdown", "text"),
    [
        ("[[KVキャッシュ管理|KV]] と [[wiki/entities/Jane Doe]] が **重要**。", "KV と Jane Doe が 重要。"),
        ("図 ![[_attachments/x/fig01.png|300]] の通り", "図  の通り"),
        ("[[MegaScale#^abc123]] と [[ByteDance#概要]]", "MegaScale と ByteDance"),
        ("[[@2025__SOSP__Mycroft - Tracing Dependencies]] による", "Mycroft による"),
        ("[[@2024__arXiv__The Llama 3 Herd of Models]]", "arXiv 2024"),
        ("| [[Minder\\|マインダー]] |", "| マインダー |"),
        ("> [!abstract] 概要(訳)\n> 本文。", "概要(訳)\n本文。"),
        ("- 一\n- `code` と __強調__", "- 一\n- code と 強調"),
        ("Run:\n```bash\nmake test\n```\nDone.", "Run:\n\nmake test\n\nDone."),
        ("Last updated: 2026-04-23\n\n---\n\nFlat.\n* * *\n___", "Last updated: 2026-04-23\n\n\n\nFlat.\n\n"),
        ("a --- b\n- item\n-- x", "a --- b\n- item\n-- x"),
    ],
)
def test_plain_text(markdown: str, text: str) -> None:
    assert plain_text(markdown) == text


@pytest.mark.parametrize(
    ("markdown", "text"),
    [
        ("- 一行目の紹介\n- 二行目", "- 一行目の紹介\n- 二行目"),
        ("### 要点\n- **速い**: [[Minder]] より", "- 速い: Minder より"),
        ("> [!note] 注\n> 本文の一行目。\n> 二行目。", "本文の一行目。\n二行目。"),
        ("\n\n本文だけ\n", "本文だけ"),
    ],
)
def test_blurb_text_keeps_lines_and_drops_structure(markdown: str, text: str) -> None:
    assert blurb_text(markdown) == text


@pytest.mark.parametrize(
    ("text", "limit", "kept"),
    [
        ("短い。", 10, "短い。"),
        ("  空白   が\n多い  ", 20, "空白 が 多い"),
        ("一文目です。二文目です。三文目です。", 13, "一文目です。二文目です。"),
        ("一文目です。二文目です。三文目です。", 8, "一文目です。"),
        ("First one. Second one is here. Third.", 20, "First one."),
        ("Version 3.5 is fast and small. Next.", 12, "Version 3.5…"),
        ("He met the Rev. Foyster at home. Then left.", 36, "He met the Rev. Foyster at home."),
        ("He met the Rev. Foyster at home.", 20, "He met the Rev. Foys…"),
        ("終わりのない長い文" * 10, 20, "終わりのない長い文終わりのない長い文終わ…"),
        ("あ。" + "い" * 30, 20, "あ。" + "い" * 18 + "…"),
        # never inside <!channel>, a code span or a URL
        ("Evil Corp は <!channel> を呼ぶ会社。次の文。", 26, "Evil Corp は <!channel> を呼ぶ…"),
        ("Run `make. test` now. And then.", 19, "Run `make. test` no…"),
        ("See https://a.b/c?d=1!e now and then. Next.", 30, "See https://a.b/c?d=1!e now an…"),
    ],
)
def test_shorten_cuts_at_a_sentence_end(text: str, limit: int, kept: str) -> None:
    assert shorten(text, limit) == kept


@pytest.mark.parametrize(
    ("text", "clean"),
    [
        ("速い(Source: [[@A]], [[@B]])。", "速い。"),
        ("速い（出典: A）と遅い (根拠：B) 。", "速いと遅い 。"),
        ("(Figure 1) は残る", "(Figure 1) は残る"),
        # a regular expression's class is no reference, with or without its code span
        ("`^[1-9][0-9]*$` に変更 [3]。", "`^[1-9][0-9]*$` に変更。"),
        ("=~ ^[0-9]+$ で検証 [2, 4]。", "=~ ^[0-9]+$ で検証。"),
        ("arr [0] と [0-9]{3} は残る", "arr [0] と [0-9]{3} は残る"),
        ("Treasurer [10–12]. Next [^3]", "Treasurer. Next"),
    ],
)
def test_strip_citations(text: str, clean: str) -> None:
    assert strip_citations(text) == clean


@pytest.mark.parametrize(
    ("target", "display", "listed", "in_prose"),
    [
        ("ByteDance", None, "ByteDance", "ByteDance"),
        ("wiki/entities/Jane Doe", None, "Jane Doe", "Jane Doe"),
        ("Minder", "マインダー", "マインダー", "マインダー"),
        ("@2025__NSDI__Minder - Faulty Machines", None, "Minder - Faulty Machines", "Minder"),
        ("@2025__SOSP__Robust LLM Training", None, "Robust LLM Training", "SOSP 2025"),
    ],
)
def test_link_labels(target: str, display: str | None, listed: str, in_prose: str) -> None:
    assert link_label(target, display) == listed
    assert prose_label(target, display) == in_prose
