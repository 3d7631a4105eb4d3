"""One benchmark size: generate the vault, then measure both engines on the same pages and queries."""

from __future__ import annotations

import os
import shutil
import time
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path

from bench.answer_keys import reciprocal_rank
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
    "quality.search_top1",
    "quality.search_top3",
    "quality.search_mrr",
    "quality.first_screen",
)
MISSES_KEPT = 12
Log = Callable[[str], None]


def measure_size(pages: int, work: Path, *, seed: int, cold_runs: int, edits: int, log: Log) -> dict:
    size_started = time.perf_counter()
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
    run["query_langs"] = {query["kind"]: query["lang"] for query in queries["questions"]}
    run["baseline"] = {BASELINE: figures[BASELINE]}
    run["ratios"] = {BASELINE: ratios(figures["sakuin"], figures[BASELINE])}
    run["targets"] = evaluate(run)
    run["size_wall_s"] = time.perf_counter() - size_started
    run["load_avg_1m_after"] = os.getloadavg()[0]
    return run


def summarise(
    queries: dict, build: WorkerRun, colds: Sequence[WorkerRun], serve: WorkerRun, index: Path
) -> dict:
    lookup_ms = [row["ms"] for row in serve.result["lookups"]]
    search_ms = [row["ms"] for row in serve.result["searches"]]
    reply_ms = [row["ms"] for row in serve.result["replies"]]
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
        "reply_p50_ms": percentile(reply_ms, 50),
        "reply_p99_ms": percentile(reply_ms, 99),
        "serve_rss_mb": serve.result["rss_mb"],
        "serve_peak_mb": serve.peak_mb,
        "quality": score(queries, serve.result),
        "first_screen_misses": first_screen_misses(queries, serve.result),
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
    """Lookup: the expected page first. Questions: a page that states the answer at rank 1 / in the top 3,
    the reciprocal rank of the first such page (0 past the hits returned), and the answer keys on the
    reply's first screen / anywhere in the reply."""
    lookup_rows = list(zip(queries["lookups"], served["lookups"], strict=True))
    first = [(q["kind"], row["paths"][:1] == [q["expected"]]) for q, row in lookup_rows]
    decided = [row["decided"] and row["paths"][:1] == [q["expected"]] for q, row in lookup_rows]
    questions = queries["questions"]
    search_rows = list(zip(questions, served["searches"], strict=True))
    top3 = [(q, bool(set(row["paths"][:3]) & set(q["answers"]))) for q, row in search_rows]
    top1 = [(q, bool(set(row["paths"][:1]) & set(q["answers"]))) for q, row in search_rows]
    ranks = [(q, reciprocal_rank(row["paths"], q["answers"])) for q, row in search_rows]
    replies = list(zip(questions, served["replies"], strict=True))
    screen = [(q, row["first_screen"]) for q, row in replies]
    return {
        "lookups": len(lookup_rows),
        "lookup_top1": _mean(ok for _, ok in first),
        "lookup_decided_right": _mean(decided),
        "lookup_top1_by_kind": _means(first),
        "questions": len(search_rows),
        "search_top3": _mean(ok for _, ok in top3),
        "search_top1": _mean(ok for _, ok in top1),
        "search_mrr": _mean(rank for _, rank in ranks),
        "first_screen": _mean(ok for _, ok in screen),
        "in_reply": _mean(row["in_reply"] for _, row in replies),
        "search_top3_by_lang": _means((q["lang"], ok) for q, ok in top3),
        "search_top3_by_kind": _means((q["kind"], ok) for q, ok in top3),
        "search_top1_by_kind": _means((q["kind"], ok) for q, ok in top1),
        "search_mrr_by_kind": _means((q["kind"], rank) for q, rank in ranks),
        "first_screen_by_lang": _means((q["lang"], ok) for q, ok in screen),
        "first_screen_by_kind": _means((q["kind"], ok) for q, ok in screen),
    }


def first_screen_misses(queries: dict, served: dict, count: int = MISSES_KEPT) -> list[dict]:
    """The first questions of each kind whose keys were not on the first screen, with what was there."""
    misses, per_kind = [], {}
    for query, row in zip(queries["questions"], served["replies"], strict=True):
        if row["first_screen"] or per_kind.get(query["kind"], 0) >= 2:
            continue
        per_kind[query["kind"]] = per_kind.get(query["kind"], 0) + 1
        misses.append({"query": query["query"], "keys": query["keys"], "screen": row["screen"]})
    return misses[:count]


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


def _mean(values: Iterable[float]) -> float:
    values = list(values)
    return sum(values) / len(values) if values else float("nan")


def _means(pairs: Iterable[tuple[str, float]]) -> dict[str, float]:
    groups: dict[str, list[float]] = {}
    for group, value in pairs:
        groups.setdefault(group, []).append(value)
    return {group: _mean(values) for group, values in groups.items()}


def _slowest(queries: list[dict], rows: list[dict], count: int = 8) -> list[dict]:
    ranked = sorted(zip(queries, rows, strict=True), key=lambda pair: -pair[1]["ms"])[:count]
    return [{"query": query["query"], "ms": row["ms"]} for query, row in ranked]
