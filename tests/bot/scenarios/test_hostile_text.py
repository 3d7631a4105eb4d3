"""Fuzzing the two edges text comes in by: mentions through the real server, and ``sakuin ask``.

Each input is a seeded random mix of fragments people (and attackers) type: Slack's own markup,
control and invisible characters, lone surrogates (valid in JSON, and what Python makes of bytes
that are not UTF-8 in an argument), very long words. Every one must get an answer that encodes as
UTF-8, and never a failure.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from bot.cli.commands import main
from bot.serve.inbound import clean_payload, clean_text
from tests.bot.fake_slack import DM_CHANNEL_ID, direct_message, mention_event
from tests.conftest import EXAMPLE_VAULT

FRAGMENTS = (
    "\ud800",
    "\udfff",
    "\udcff",  # an undecodable byte 0xff, as Python decodes an argument
    "\ud83d",  # half of an emoji
    "MegaScale",
    "Minder を開発したのはどこ?",
    "ByteDance",
    "<!channel>",
    "<@U0BOSS>",
    "&lt;script&gt;",
    "*bold*",
    "`code`",
    "\x00",
    "\u200b\u200d",
    "\u202e",
    "e\u0301",
    "ｂｙｔｅｄａｎｓｅ",
    "👩‍👩‍👧",
    "%%",
    "[[",
    "/entity",
    "/wiki",
    " ",
    "\n",
    "x" * 300,
)
INPUTS = 40


def hostile_texts(seed: int, count: int) -> list[str]:
    rng = random.Random(seed)
    return ["".join(rng.choice(FRAGMENTS) for _ in range(rng.randint(1, 8))) for _ in range(count)]


def encodes(payload: object) -> bool:
    json.dumps(payload, ensure_ascii=False).encode("utf-8")
    return True


@pytest.mark.parametrize(
    ("raw", "clean"),
    [
        ("\ud800", "\ufffd"),
        ("a\udfffb\ud83d", "a\ufffdb\ufffd"),
        ("😀 and 👩‍👩‍👧", "😀 and 👩‍👩‍👧"),  # whole characters are kept
        ("plain", "plain"),
    ],
)
def test_lone_surrogates_are_replaced(raw, clean):
    assert clean_text(raw) == clean


def test_a_payload_is_cleaned_in_place_keys_included():
    inner = {"text": "\ud800?", "list": ["\udfff", 1, None]}
    body = {"event": inner, "k\ud800": True}
    assert clean_payload(body) is body and body["event"] is inner
    assert body == {"event": {"text": "\ufffd?", "list": ["\ufffd", 1, None]}, "k\ufffd": True}


async def test_hostile_mentions_and_messages_are_all_answered(bot):
    texts = hostile_texts(seed=21, count=INPUTS)
    for number, text in enumerate(texts):
        ts = f"1700001{number:03d}.000100"
        await bot.sender.event(mention_event(f"<@U0SAKUIN> {text}", ts=ts))
    await bot.sender.event(direct_message("\ud800 MegaScale", ts="1700002000.000100"))
    calls = await bot.slack.wait_for_calls("chat.postMessage", count=INPUTS + 1, timeout=60)
    answered = {call.args.get("thread_ts") for call in calls}
    assert len(answered) == INPUTS + 1 and all(encodes(call.args) for call in calls)
    assert bot.slack.calls_to("chat.postEphemeral") == []  # no apology: nothing failed
    dm = next(call for call in calls if call.args["channel"] == DM_CHANNEL_ID)
    assert "\ufffd" in json.dumps(dm.args, ensure_ascii=False)


@pytest.fixture
def environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> Path:
    """The example vault, indexed (so that ``ask`` prints nothing on stderr when all is well)."""
    monkeypatch.setenv("WIKI_DIR", str(EXAMPLE_VAULT))
    monkeypatch.setenv("INDEX_DIR", str(tmp_path / "index"))
    monkeypatch.setenv("UI_LANGUAGE", "en")
    assert main(["index"]) == 0
    capsys.readouterr()
    return tmp_path


@pytest.mark.parametrize("as_json", [False, True], ids=["terminal", "json"])
def test_hostile_ask_arguments_are_all_answered(environment, capsys, as_json):
    texts = ["\ud800 MegaScale とは", "/entity \udcff", "/wiki \ud800", *hostile_texts(seed=7, count=10)]
    for text in texts:
        code = main(["ask", *(["--json"] if as_json else []), text])
        captured = capsys.readouterr()
        assert (code, captured.err) == (0, ""), f"{text!r}: {captured.err}"
        if as_json:
            assert encodes(json.loads(captured.out))
