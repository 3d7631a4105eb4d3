"""One benchmark size: generate the vault, then measure both engines on the same pages and queries."""

from __future__ import annotations

import os
import shutil
import time
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path

from bench.generate import generate
from bench.measure import WorkerRun, disk_mb, median, percentile, run_worker
from bench.targets import evaluate

ENGINES = ("sakuin", "fts5")
BASELINE = "fts5"
RATIO_KEYS = (
    "build_s",
    "build_peak_mb",
    "index_mb",
    "update_visible_s",
    "cold_start_s",
    "entity_p50_ms",
    "entity_p99_ms",
    "search_p50_ms",
    "search_p99_ms",
    "serve_rss_mb",
    "quality.lookup_top1",
    "quality.search_top3",
)
Log = Callable[[str], None]


def measure_size(pages: int, work: Path, *, seed: int, cold_runs: int, edits: int, log: Log) -> dict:
    folder = work / str(pages)
    log(f"{pages} pages: generating the vault (load average {os.getloadavg()[0]:.2f})")
    started = time.perf_counter()
    queries = generate(pages, folder, seed)
    generate_s = time.perf_counter() - started
    vault, query_file = folder / "vault", folder / "queries.json"
    figures: dict[str, dict] = {}
    for engine in ENGINES:
        index = folder / f"index-{engine}"
        shutil.rmtree(index, ignore_errors=True)
        log(f"{pages} pages: {engine}: full build")
        build = run_worker("build", engine, vault, index, query_file)
        log(f"{pages} pages: {engine}: cold start x{cold_runs}")
        colds = [run_worker("cold", engine, vault, index, query_file) for _ in range(cold_runs)]
        counts = f"{len(queries['lookups'])} lookups, {len(queries['questions'])} questions"
        log(f"{pages} pages: {engine}: {counts}")
        serve = run_worker("serve", engine, vault, index, query_file)
        figures[engine] = summarise(queries, build, colds, serve, index)
    for engine in ENGINES:  # last: the edits change the vault
        log(f"{pages} pages: {engine}: {edits} one-page edits")
        index = folder / f"index-{engine}"
        update = run_worker("update", engine, vault, index, query_file, "--edits", str(edits))
        figures[engine].update(summarise_update(update))
    run = {"pages": pages, "seed": seed, "generate_s": generate_s, **figures["sakuin"]}
    kinds = [query["kind"] for query in queries["lookups"] + queries["questions"]]
    run["query_counts"] = {kind: kinds.count(kind) for kind in dict.fromkeys(kinds)}
    run["baseline"] = {BASELINE: figures[BASELINE]}
    run["ratios"] = {BASELINE: ratios(figures["sakuin"], figures[BASELINE])}
    run["targets"] = evaluate(run)
    run["load_avg_1m_after"] = os.getloadavg()[0]
    return run


def summarise(
    queries: dict, build: WorkerRun, colds: Sequence[WorkerRun], serve: WorkerRun, index: Path
) -> dict:
    lookup_ms = [row["ms"] for row in serve.result["lookups"]]
    search_ms = [row["ms"] for row in serve.result["searches"]]
    cold_s = [run.first_line_s for run in colds if run.first_line_s is not None]
    by_lang: dict[str, list[float]] = {}
    for query, row in zip(queries["questions"], serve.result["searches"], strict=True):
        by_lang.setdefault(query["lang"], []).append(row["ms"])
    return {
        "build_s": build.result["seconds"],
        "build_wall_s": build.wall_s,
        "build_peak_mb": build.peak_mb,
        "index_mb": disk_mb(index),
        "cold_start_s": median(cold_s),
        "cold_start_max_s": max(cold_s),
        "cold_start_open_s": median([run.result["open_s"] for run in colds]),
        "entity_p50_ms": percentile(lookup_ms, 50),
        "entity_p99_ms": percentile(lookup_ms, 99),
        "entity_max_ms": max(lookup_ms),
        "search_p50_ms": percentile(search_ms, 50),
        "search_p99_ms": percentile(search_ms, 99),
        "search_max_ms": max(search_ms),
        "search_by_lang_ms": {
            lang: {"p50": percentile(values, 50), "p99": percentile(values, 99)}
            for lang, values in by_lang.items()
        },
        "serve_rss_mb": serve.result["rss_mb"],
        "serve_peak_mb": serve.peak_mb,
        "quality": score(queries, serve.result),
        "slowest_searches": _slowest(queries["questions"], serve.result["searches"]),
        "slowest_lookups": _slowest(queries["lookups"], serve.result["lookups"]),
    }


def summarise_update(update: WorkerRun) -> dict:
    edits = update.result["edits"]
    seconds = [edit["seconds"] for edit in edits]
    return {
        "update_visible_s": median(seconds),
        "update_visible_max_s": max(seconds),
        "update_all_visible": all(edit["visible"] for edit in edits),
        "update_noop_s": update.result["noop_refresh_s"],
        "update_edits": len(edits),
    }


def score(queries: dict, served: dict) -> dict:
    """Lookup: the expected page first. Search: a page that holds the answer in the top 3 (and top 1)."""
    lookup_rows = list(zip(queries["lookups"], served["lookups"], strict=True))
    first = [(q["kind"], row["paths"][:1] == [q["expected"]]) for q, row in lookup_rows]
    decided = [row["decided"] and row["paths"][:1] == [q["expected"]] for q, row in lookup_rows]
    search_rows = list(zip(queries["questions"], served["searches"], strict=True))
    top3 = [(q, bool(set(row["paths"][:3]) & set(q["answers"]))) for q, row in search_rows]
    top1 = [bool(set(row["paths"][:1]) & set(q["answers"])) for q, row in search_rows]
    return {
        "lookups": len(lookup_rows),
        "lookup_top1": _rate(ok for _, ok in first),
        "lookup_decided_right": _rate(decided),
        "lookup_top1_by_kind": _rates(first),
        "questions": len(search_rows),
        "search_top3": _rate(ok for _, ok in top3),
        "search_top1": _rate(top1),
        "search_top3_by_lang": _rates((q["lang"], ok) for q, ok in top3),
        "search_top3_by_kind": _rates((q["kind"], ok) for q, ok in top3),
    }


def ratios(ours: dict, baseline: dict) -> dict:
    """ours ÷ baseline per figure: above 1 means sakuin takes longer / uses more (or, for the quality
    keys, answers more queries right)."""
    result = {}
    for key in RATIO_KEYS:
        mine, theirs = figure(ours, key), figure(baseline, key)
        result[key.removeprefix("quality.")] = mine / theirs if mine is not None and theirs else None
    return result


def figure(figures: dict, key: str) -> float | None:
    """A figure by dotted key (``quality.search_top3``)."""
    value: object = figures
    for part in key.split("."):
        value = value.get(part) if isinstance(value, dict) else None
    return value if isinstance(value, int | float) else None


def _rate(values: Iterable[bool]) -> float:
    values = list(values)
    return sum(values) / len(values) if values else float("nan")


def _rates(pairs: Iterable[tuple[str, bool]]) -> dict[str, float]:
    groups: dict[str, list[bool]] = {}
    for group, ok in pairs:
        groups.setdefault(group, []).append(ok)
    return {group: _rate(values) for group, values in groups.items()}


def _slowest(queries: list[dict], rows: list[dict], count: int = 8) -> list[dict]:
    ranked = sorted(zip(queries, rows, strict=True), key=lambda pair: -pair[1]["ms"])[:count]
    return [{"query": query["query"], "ms": row["ms"]} for query, row in ranked]
