"""`python -m bench` end to end at 50 pages: every figure of the issue's JSON shape, for both engines."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from bench.__main__ import main, parse_args

RUN_KEYS = (
    "build_s",
    "build_peak_mb",
    "update_visible_s",
    "cold_start_s",
    "entity_p50_ms",
    "entity_p99_ms",
    "search_p50_ms",
    "search_p99_ms",
    "serve_rss_mb",
)
BASELINE_KEYS = ("build_s", "search_p50_ms", "search_p99_ms")


def test_benchmark_at_fifty_pages(tmp_path: Path) -> None:
    out, docs = tmp_path / "results.json", tmp_path / "benchmarks.md"
    stale = "<!-- bench:results:begin -->\nSTALE-BLOCK\n<!-- bench:results:end -->\n"
    docs.write_text(f"# Benchmarks\n\nProse kept.\n\n{stale}")
    code = main(
        [
            *("--pages", "50", "--work", str(tmp_path / "work"), "--json", str(out), "--docs", str(docs)),
            *("--cold-runs", "1", "--edits", "1"),
        ]
    )
    assert code == 0
    results = json.loads(out.read_text(encoding="utf-8"))
    assert results["machine"]["cores"] >= 1
    [run] = results["runs"]
    assert run["pages"] == 50
    for key in RUN_KEYS:
        assert math.isfinite(run[key]) and run[key] > 0, key
    for key in BASELINE_KEYS:
        assert math.isfinite(run["baseline"]["fts5"][key]) and run["baseline"]["fts5"][key] > 0, key
    assert run["update_all_visible"] and run["baseline"]["fts5"]["update_all_visible"]
    assert run["ratios"]["fts5"]["search_p99_ms"] > 0
    assert 0 <= run["quality"]["lookup_top1"] <= 1 and 0 <= run["quality"]["search_top3"] <= 1
    for figures in (run, run["baseline"]["fts5"]):  # answer measurement, for both engines, in one run
        quality = figures["quality"]
        for key in ("search_top1", "search_top3", "search_mrr", "first_screen", "in_reply"):
            assert 0 <= quality[key] <= 1, key
        assert quality["search_top1"] <= quality["search_top3"]
        assert quality["first_screen"] <= quality["in_reply"]
        assert set(quality["first_screen_by_kind"]) == set(quality["search_top3_by_kind"])
        assert figures["reply_p99_ms"] > 0
    assert set(run["targets"]) >= {"build_s", "search_p99_ms", "entity_p99_ms", "lookup_top1"}
    assert not run["targets"]["build_s"]["applies"]  # targets are for 10,000 pages
    text = docs.read_text(encoding="utf-8")
    assert text.startswith("# Benchmarks\n\nProse kept.") and "STALE-BLOCK" not in text
    assert "### 50 pages" in text and "| full build |" in text
    assert "| question: answer on the first screen |" in text and "| question: MRR of" in text


@pytest.mark.parametrize(
    ("argv", "block", "json_name"),
    [
        ([], "results", "results.json"),
        (["--pages", "1000", "--pages", "10000"], "results", "results.json"),
        (["--pages", "100000"], "large", "results-large.json"),
        (["--pages", "10000", "--pages", "100000"], "results", "results.json"),
        (["--pages", "100000", "--block", "results"], "results", "results.json"),
    ],
)
def test_the_large_run_keeps_its_own_block_and_json(argv: list[str], block: str, json_name: str) -> None:
    args = parse_args(argv)
    assert args.block == block and args.json.name == json_name
