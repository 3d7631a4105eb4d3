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

BEGIN, END = "<!-- bench:results:begin -->", "<!-- bench:results:end -->"

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
    ("serving memory (RSS)", "serve_rss_mb", "MB"),
    ("/entity right page first", "quality.lookup_top1", "%"),
    ("question: answer in top 3", "quality.search_top3", "%"),
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
    if unit == "ms":
        return f"{value:.2f} ms" if value < 10 else f"{value:.1f} ms"
    if unit == "s":
        return f"{value:.3f} s" if value < 1 else f"{value:.2f} s"
    return f"{value:.0f} {unit}"


def format_ratio(value: float | None) -> str:
    return "–" if value is None else f"{value:.2f}×"


def table_rows(run: dict) -> Iterator[tuple[str, str, str, str, str, str]]:
    """(metric, sakuin, FTS5, sakuin ÷ FTS5, target, status) for one run."""
    baseline = run["baseline"][BASELINE]
    for label, key, unit in ROWS:
        ours, theirs = figure(run, key), figure(baseline, key)
        ratio = ours / theirs if ours is not None and theirs else None
        judged = run["targets"].get(key.removeprefix("quality."))
        target, status = "", ""
        if judged is not None and key != "update_visible_max_s":
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
            ("target (10k pages)", "left"),
            ("", "left"),
        ):
            table.add_column(column, justify=justify)
        for row in table_rows(run):
            status = row[5]
            styled = f"[green]{status}[/green]" if status == "met" else f"[bold red]{status}[/bold red]"
            table.add_row(*row[:5], styled if status else "")
        console.print(table)
        console.print(_breakdown(run))


def _breakdown(run: dict) -> Table:
    table = Table(title=f"{run['pages']:,} pages: quality by query kind", title_justify="left")
    for column in ("kind", "queries", "sakuin", "FTS5"):
        table.add_column(column, justify="left" if column == "kind" else "right")
    for kind, count, ours, theirs in breakdown_rows(run):
        table.add_row(kind, str(count), ours, theirs)
    return table


def breakdown_rows(run: dict) -> Iterator[tuple[str, int, str, str]]:
    ours, theirs = run["quality"], run["baseline"][BASELINE]["quality"]
    counts = run.get("query_counts", {})
    for kind, value in ours["lookup_top1_by_kind"].items():
        other = theirs["lookup_top1_by_kind"].get(kind)
        yield f"/entity {kind}", counts.get(kind, 0), f"{value:.0%}", f"{other:.0%}"
    for kind, value in ours["search_top3_by_kind"].items():
        other = theirs["search_top3_by_kind"].get(kind)
        yield f"question {kind}", counts.get(kind, 0), f"{value:.0%}", f"{other:.0%}"


def write_json(results: dict, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(results, ensure_ascii=False, indent=2), encoding="utf-8")


def markdown_block(results: dict) -> str:
    machine = results["machine"]
    lines = [
        BEGIN,
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
            "| metric | sakuin (whoosh) | FTS5 trigram | sakuin ÷ FTS5 | target (10k pages) | |",
            "|---|---:|---:|---:|---|---|",
        ]
        lines += ["| " + " | ".join(row) + " |" for row in table_rows(run)]
        lines += ["", "| query kind | queries | sakuin | FTS5 |", "|---|---:|---:|---:|"]
        lines += [
            f"| {kind} | {count} | {ours} | {theirs} |" for kind, count, ours, theirs in breakdown_rows(run)
        ]
        slowest = ", ".join(f"`{row['query']}` {row['ms']:.0f} ms" for row in run["slowest_searches"][:5])
        lines += ["", f"Slowest sakuin questions: {slowest}."]
        if "load_avg_1m_after" in run:
            lines += ["", f"Load average (1 min) when this size finished: {run['load_avg_1m_after']:.2f}."]
    lines += ["", END]
    return "\n".join(lines)


def write_markdown(results: dict, path: Path) -> None:
    """Replace the generated block of ``path`` (the prose around it is kept), or create the file."""
    block = markdown_block(results)
    if path.exists():
        text = path.read_text(encoding="utf-8")
        if BEGIN in text and END in text:
            head, rest = text.split(BEGIN, 1)
            tail = rest.split(END, 1)[1]
            path.write_text(head + block + tail, encoding="utf-8")
            return
        path.write_text(text.rstrip("\n") + "\n\n## Latest results\n\n" + block + "\n", encoding="utf-8")
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("# Benchmarks\n\n## Latest results\n\n" + block + "\n", encoding="utf-8")
