"""Answer keys on the first screen: normalised matching, the question's echo cut out, ranks."""

from __future__ import annotations

import pytest

from bench.answer_keys import answered, first_rank, key_found, normalise, reciprocal_rank
from bot.blocks.visible import first_screen, visible_text


@pytest.mark.parametrize(
    ("key", "text", "found"),
    [
        ("ByteDance", "bytedanceが開発した", True),
        ("ＢｙｔｅＤａｎｃｅ", "bytedance", True),  # full-width keys normalise too
        ("35%", "圧縮が35%削減された", True),
        ("5%", "圧縮が35%削減された", False),  # digits do not run on
        ("2048", "2048 gpu の本番クラスタ", True),
        ("2048", "12048 gpu", False),
        ("2048", "20480 gpu", False),
        ("Network Platform", "ネットワーク基盤チーム(network platform)", True),
        ("", "anything", False),
    ],
)
def test_key_found(key: str, text: str, found: bool) -> None:
    assert key_found(key, normalise(text)) is found


@pytest.mark.parametrize(
    ("keys", "text", "question", "expected"),
    [
        ([["ByteDance", "バイトダンス"]], "開発元: バイトダンス", "who developed Minder?", True),
        ([["A定義"], ["B定義"]], "a定義 と b定義", "AとBの違いは?", True),
        ([["A定義"], ["B定義"]], "a定義 だけ", "AとBの違いは?", False),
        # the reply repeating the question does not answer it
        (
            [["Adaptive Failure Detection for GPU Clusters"]],
            "passages for which paper proposes adaptive failure detection for gpu clusters?",
            "which paper proposes adaptive failure detection for GPU Clusters?",
            False,
        ),
        (
            [["Adaptive Failure Detection for GPU Clusters"]],
            "passages for which paper proposes adaptive failure detection for gpu clusters?\n"
            "adaptive failure detection for gpu clusters · source",
            "which paper proposes  adaptive failure detection for GPU Clusters?",
            True,
        ),
        ([], "anything", "q", False),
    ],
)
def test_answered(keys: list[list[str]], text: str, question: str, expected: bool) -> None:
    assert answered(keys, normalise(text), question) is expected


@pytest.mark.parametrize(
    ("paths", "answers", "rank", "reciprocal"),
    [
        (["a", "b", "c"], ["a"], 1, 1.0),
        (["x", "b", "a"], ["a", "b"], 2, 0.5),
        (["x", "y", "z", "w"], ["w"], 4, 0.25),
        (["x", "y"], ["a"], None, 0.0),
        ([], ["a"], None, 0.0),
    ],
)
def test_ranks(paths: list[str], answers: list[str], rank: int | None, reciprocal: float) -> None:
    assert first_rank(paths, answers) == rank
    assert reciprocal_rank(paths, answers) == reciprocal


def section(text: str) -> dict:
    return {"type": "section", "text": {"type": "mrkdwn", "text": text}}


def test_an_answer_past_the_first_screen_is_in_the_reply_but_not_on_the_first_screen() -> None:
    """A hand-made reply: a card of 450 characters, then the sentence with the GPU count."""
    question = "XPUTimer は何 GPU の本番クラスタで動いた?"
    card = [{"type": "header", "text": {"type": "plain_text", "text": "XPUTimer"}}, section("関連 " * 150)]
    answer = section("XPUTimer は *4096 GPU* の本番クラスタで運用されている。")
    keys = [["4096"]]
    assert not answered(keys, first_screen([*card, answer]), question)
    assert answered(keys, normalise(visible_text([*card, answer])), question)
    assert answered(keys, first_screen([answer, *card]), question)  # answer first: on the first screen


@pytest.mark.parametrize(
    ("key", "text", "found"),
    [
        ("8 hours", "max runtime: 8hours", True),
        ("8hours", "max runtime: 8 hours", True),
        ("8 時間", "最大8時間まで", True),
        ("8 hours", "128 hours", False),  # the digit edge still holds
        ("chatCompletions.enabled", "chatcompletions. enabled", True),
        ("18789", "port 1 8789", True),  # spaces are ignored inside a key too
        ("   ", "anything", False),
    ],
)
def test_key_found_ignoring_spaces(key: str, text: str, found: bool) -> None:
    assert key_found(key, normalise(text), ignore_spaces=True) is found


def test_spaces_count_unless_ignored() -> None:
    assert not key_found("8 hours", normalise("8hours"))
    assert answered([["8 hours", "8時間"]], normalise("既定は 8時間"), "q", ignore_spaces=True)
