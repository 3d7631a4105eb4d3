"""The metadata every answer to a question carries (contract: ``sakuin_answer``), through the real
server for mentions and through ``sakuin ask --json`` for the terminal."""

from __future__ import annotations

import json

import pytest

from bot.cli.commands import main
from tests.bot.fake_slack import mention_event
from tests.conftest import EXAMPLE_VAULT

CASES = [
    # question, status, first cited page (None: no page), language
    ("Minder を開発したのはどこ?", "relation", "wiki/entities/ByteDance.md", "ja"),
    ("Who developed Minder?", "relation", "wiki/entities/ByteDance.md", "en"),
    ("おすすめのラーメン屋を教えて", "not_found", None, "ja"),
    ("Who won the 2022 World Cup?", "not_found", None, "en"),
]


@pytest.mark.parametrize(("question", "status", "first", "lang"), CASES)
async def test_a_mention_answer_carries_its_status_pages_and_language(bot, question, status, first, lang):
    await bot.sender.event(mention_event(question, ts="1700000500.000100"))
    (call,) = await bot.slack.wait_for_calls("chat.postMessage", 1)
    metadata = call.args["metadata"]
    assert metadata["event_type"] == "sakuin_answer"
    payload = metadata["event_payload"]
    assert payload["status"] == status and payload["lang"] == lang
    assert 0.0 <= payload["confidence"] <= 1.0
    if first is None:
        assert payload["pages"] == [] and payload["confidence"] < 0.5
    else:
        assert payload["pages"][0] == first and payload["confidence"] >= 0.5


def test_sakuin_ask_json_prints_text_blocks_and_metadata(
    tmp_path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("WIKI_DIR", str(EXAMPLE_VAULT))
    monkeypatch.setenv("INDEX_DIR", str(tmp_path / "index"))
    monkeypatch.setenv("UI_LANGUAGE", "en")
    assert main(["ask", "--json", "XPUTimer は何 GPU の本番クラスタで動いた?"]) == 0
    payload = json.loads(capsys.readouterr().out)
    assert payload["text"] and payload["blocks"]
    answer = payload["metadata"]["event_payload"]
    assert payload["metadata"]["event_type"] == "sakuin_answer"
    assert answer["status"] == "answered" and answer["lang"] == "ja"
    assert answer["pages"] and all(path.endswith(".md") for path in answer["pages"])
