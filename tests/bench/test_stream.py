"""The streaming benchmark, run small: both paths answer each question once, in one message."""

from __future__ import annotations

import json

from bench.stream import main


def test_a_small_run_measures_both_paths_and_writes_its_json(tmp_path, capsys) -> None:
    out = tmp_path / "stream.json"
    args = ["--questions", "1", "--first-token", "0", "--token-delay", "0", "--slack-latency", "0"]
    assert main([*args, "--json", str(out)]) == 0
    data = json.loads(out.read_text(encoding="utf-8"))
    assert set(data["summary"]) == {"update", "stream"}
    for path, row in data["summary"].items():
        assert row["answers"] == 2 and row["messages_per_answer_max"] == 1, path
        assert row["first_visible_p50_s"] <= row["final_p50_s"]
    assert "first visible" in capsys.readouterr().out
