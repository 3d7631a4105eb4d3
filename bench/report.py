"""Showing a benchmark: the machine, a table per size, the JSON file, the block in docs/benchmarks.md."""

from __future__ import annotations

import importlib.metadata
import json
import math
import os
import platform
import sqlite3
import subprocess
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import psutil
from rich.console import Console
from rich.table import Table

from bench.measure import REPO
from bench.runner import BASELINE, figure
from bench.targets import target_pages

BLOCKS = {"results": "Latest results", "large": "Latest results at 100,000 pages"}
"""The generated blocks of the docs page, by name, with the heading a new block gets."""


def markers(block: str) -> tuple[str, str]:
    return f"<!-- bench:{block}:begin -->", f"<!-- bench:{block}:end -->"


# (label, dotted key, unit)
ROWS = (
    ("full build", "build_s", "s"),
    ("build peak memory", "build_peak_mb", "MB"),
    ("index on disk", "index_mb", "MB"),
    ("edit → answerable (median)", "update_visible_s", "s"),
    ("edit → answerable (worst)", "update_visible_max_s", "s"),
    ("cold start → first answer", "cold_start_s", "s"),
    ("/entity p50", "entity_p50_ms", "ms"),
    ("/entity p99", "entity_p99_ms", "ms"),
    ("question search p50", "search_p50_ms", "ms"),
    ("question search p99", "search_p99_ms", "ms"),
    ("question reply p50", "reply_p50_ms", "ms"),
    ("question reply p99", "reply_p99_ms", "ms"),
    ("serving memory (RSS)", "serve_rss_mb", "MB"),
    ("/entity right page first", "quality.lookup_top1", "%"),
    ("question: answer page first (hit@1)", "quality.search_top1", "%"),
    ("question: answer page in top 3 (hit@3)", "quality.search_top3", "%"),
    ("question: MRR of the first answer page", "quality.search_mrr", ""),
    ("question: answer on the first screen", "quality.first_screen", "%"),
    ("question: answer anywhere in the reply", "quality.in_reply", "%"),
)
QUESTION_COLUMNS = (
    ("hit@1", "search_top1_by_kind", "%"),
    ("hit@3", "search_top3_by_kind", "%"),
    ("MRR", "search_mrr_by_kind", ""),
    ("first screen", "first_screen_by_kind", "%"),
)


def machine_info() -> dict:
    return {
        "cores": os.cpu_count(),
        "physical_cores": psutil.cpu_count(logical=False),
        "cpu": _cpu_model(),
        "memory_gb": round(psutil.virtual_memory().total / 2**30, 1),
        "python": platform.python_version(),
        "platform": platform.platform(),
        "sqlite": sqlite3.sqlite_version,
        "whoosh": _version("whoosh-reloaded"),
        "commit": _git("rev-parse", "--short", "HEAD"),
        "measured_at": datetime.now(UTC).isoformat(timespec="seconds"),
        "load_avg_1m_at_start": round(os.getloadavg()[0], 2),
    }


def _cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def _version(distribution: str) -> str | None:
    try:
        return importlib.metadata.version(distribution)
    except importlib.metadata.PackageNotFoundError:
        return None


def _git(*args: str) -> str | None:
    try:
        done = subprocess.run(["git", *args], cwd=REPO, capture_output=True, text=True, timeout=10)
    except OSError:
        return None
    return done.stdout.strip() or None


def format_value(value: float | None, unit: str) -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "–"
    if unit == "%":
        return f"{value:.1%}"
    if unit == "":
        return f"{value:.3f}"
    if unit == "ms":
        return f"{value:.2f} ms" if value < 10 else f"{value:.1f} ms"
    if unit == "s":
        return f"{value:.3f} s" if value < 1 else f"{value:.2f} s"
    return f"{value:.0f} {unit}"


def format_ratio(value: float | None) -> str:
    return "–" if value is None else f"{value:.2f}×"


def target_header(run: dict) -> str:
    return f"target ({target_pages(run['pages']) // 1000}k pages)"


def table_rows(run: dict) -> Iterator[tuple[str, str, str, str, str, str]]:
    """(metric, sakuin, FTS5, sakuin ÷ FTS5, target, status) for one run."""
    baseline = run["baseline"][BASELINE]
    for label, key, unit in ROWS:
        ours, theirs = figure(run, key), figure(baseline, key)
        ratio = ours / theirs if ours is not None and theirs else None
        judged = run["targets"].get(key.removeprefix("quality."))
        target, status = "", ""
        if judged is not None:
            target = judged["target"]
            if judged["applies"] and judged["met"] is not None:
                status = "met" if judged["met"] else "MISSED"
        yield label, format_value(ours, unit), format_value(theirs, unit), format_ratio(ratio), target, status


def print_results(results: dict, console: Console) -> None:
    machine = results["machine"]
    console.print(
        f"[bold]Machine[/bold]: {machine['cores']} cores ({machine['cpu']}), {machine['memory_gb']} GB, "
        f"Python {machine['python']}, SQLite {machine['sqlite']}, whoosh {machine['whoosh']}"
    )
    for run in results["runs"]:
        table = Table(title=f"{run['pages']:,} pages", title_justify="left")
        for column, justify in (
            ("metric", "left"),
            ("sakuin (whoosh)", "right"),
            ("FTS5 trigram", "right"),
            ("sakuin ÷ FTS5", "right"),
            (target_header(run), "left"),
            ("", "left"),
        ):
            table.add_column(column, justify=justify)
        for row in table_rows(run):
            status = row[5]
            styled = f"[green]{status}[/green]" if status == "met" else f"[bold red]{status}[/bold red]"
            table.add_row(*row[:5], styled if status else "")
        console.print(table)
        title = f"{run['pages']:,} pages"
        console.print(_rich_table(f"{title}: /entity by kind", LOOKUP_HEADER, lookup_rows(run)))
        console.print(_rich_table(f"{title}: questions by kind", QUESTION_HEADER, question_rows(run)))


LOOKUP_HEADER = ("/entity kind", "queries", "sakuin", "FTS5")


QUESTION_HEADER = (
    "question kind",
    "lang",
    "queries",
    *(f"{name} sakuin / FTS5" for name, _, _ in QUESTION_COLUMNS),
)


def _rich_table(title: str, header: tuple[str, ...], rows: Iterator[tuple[str, ...]]) -> Table:
    table = Table(title=title, title_justify="left")
    for number, column in enumerate(header):
        table.add_column(column, justify="left" if number == 0 else "right")
    for row in rows:
        table.add_row(*row)
    return table


def lookup_rows(run: dict) -> Iterator[tuple[str, ...]]:
    ours, theirs = run["quality"], run["baseline"][BASELINE]["quality"]
    counts = run.get("query_counts", {})
    for kind, value in ours["lookup_top1_by_kind"].items():
        other = theirs["lookup_top1_by_kind"].get(kind)
        yield kind, str(counts.get(kind, 0)), format_value(value, "%"), format_value(other, "%")


def question_rows(run: dict) -> Iterator[tuple[str, ...]]:
    ours, theirs = run["quality"], run["baseline"][BASELINE]["quality"]
    counts, langs = run.get("query_counts", {}), run.get("query_langs", {})
    for kind in ours["search_top3_by_kind"]:
        cells = [
            " / ".join(_short(figures.get(key, {}).get(kind), unit) for figures in (ours, theirs))
            for _, key, unit in QUESTION_COLUMNS
        ]
        yield kind, langs.get(kind, ""), str(counts.get(kind, 0)), *cells


def _short(value: float | None, unit: str) -> str:
    if value is None or math.isnan(value):
        return "–"
    return f"{value:.0%}" if unit == "%" else f"{value:.2f}"


def write_json(results: dict, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(results, ensure_ascii=False, indent=2), encoding="utf-8")


def markdown_block(results: dict, block: str = "results") -> str:
    begin, end = markers(block)
    machine = results["machine"]
    lines = [
        begin,
        "",
        f"Measured {machine['measured_at']} at commit `{machine['commit']}` with `{results['command']}`.",
        "",
        f"Machine: {machine['cores']} cores ({machine['physical_cores']} physical, {machine['cpu']}), "
        f"{machine['memory_gb']} GB memory, Python {machine['python']} on {machine['platform']}, "
        f"SQLite {machine['sqlite']}, whoosh-reloaded {machine['whoosh']}.",
    ]
    for run in results["runs"]:
        lines += [
            "",
            f"### {run['pages']:,} pages",
            "",
            f"| metric | sakuin (whoosh) | FTS5 trigram | sakuin ÷ FTS5 | {target_header(run)} | |",
            "|---|---:|---:|---:|---|---|",
        ]
        lines += _markdown_rows(table_rows(run))
        lines += ["", *_markdown_table(LOOKUP_HEADER, lookup_rows(run))]
        lines += ["", *_markdown_table(QUESTION_HEADER, question_rows(run))]
        lines += _misses(run)
        slowest = ", ".join(f"`{row['query']}` {row['ms']:.0f} ms" for row in run["slowest_searches"][:5])
        lines += ["", f"Slowest sakuin questions: {slowest}."]
        if "size_wall_s" in run:
            lines += [
                "",
                f"This size took {_minutes(run['size_wall_s'])} in all (generating the vault: "
                f"{run['generate_s']:.0f} s; sakuin's full build {_minutes(run['build_wall_s'])} wall, "
                f"FTS5's {_minutes(run['baseline'][BASELINE]['build_wall_s'])}).",
            ]
        if "load_avg_1m_after" in run:
            lines += ["", f"Load average (1 min) when this size finished: {run['load_avg_1m_after']:.2f}."]
    lines += ["", end]
    return "\n".join(lines)


def _markdown_rows(rows: Iterator[tuple[str, ...]]) -> list[str]:
    return ["| " + " | ".join(row) + " |" for row in rows]


def _markdown_table(header: tuple[str, ...], rows: Iterator[tuple[str, ...]]) -> list[str]:
    rule = "|" + "|".join("---" if number == 0 else "---:" for number in range(len(header))) + "|"
    return ["| " + " | ".join(header) + " |", rule, *_markdown_rows(rows)]


def _misses(run: dict, count: int = 4) -> list[str]:
    """A few sakuin replies whose first screen lacked the answer (the JSON keeps more)."""
    misses = run.get("first_screen_misses", [])[:count]
    if not misses:
        return []
    lines = ["", "First screens without the answer (sakuin):", ""]
    for miss in misses:
        keys = " + ".join("/".join(group[:2]) for group in miss["keys"])
        screen = " ".join(miss["screen"].split())[:160].replace("|", "\\|").replace("`", "'")
        lines.append(f"- `{miss['query']}` (key {keys}): {screen}…")
    return lines


def _minutes(seconds: float) -> str:
    return f"{seconds:.0f} s" if seconds < 120 else f"{seconds / 60:.1f} min"


def write_markdown(results: dict, path: Path, block: str = "results") -> None:
    """Replace the generated block ``block`` of ``path`` (the prose and other blocks are kept), or add it."""
    text_block = markdown_block(results, block)
    begin, end = markers(block)
    heading = f"## {BLOCKS[block]}\n\n"
    if path.exists():
        text = path.read_text(encoding="utf-8")
        if begin in text and end in text:
            head, rest = text.split(begin, 1)
            tail = rest.split(end, 1)[1]
            path.write_text(head + text_block + tail, encoding="utf-8")
            return
        path.write_text(text.rstrip("\n") + "\n\n" + heading + text_block + "\n", encoding="utf-8")
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("# Benchmarks\n\n" + heading + text_block + "\n", encoding="utf-8")
